import { parseExitInfo } from '../../../../src/android/parsers/exit-info.js';
import { fakeClock, newDevice, run } from './shell-io.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';

/** Taps the node with this resource id in the current dump. */
async function tapId(android: SimulatedAndroidHandle, id: string): Promise<void> {
  const xml = (await run(android, 'uiautomator dump /dev/tty')).stdout;
  const m = new RegExp(`resource-id="[^"]*:id/${id}"[^>]*bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml);
  if (!m) throw new Error(`no ${id} on screen`);
  await run(android, `input tap ${(+m[1] + +m[3]) >> 1} ${(+m[2] + +m[4]) >> 1}`);
}

async function openNotes(android: SimulatedAndroidHandle, clock: ReturnType<typeof fakeClock>): Promise<number> {
  await run(android, 'am start -n com.example.notes/.LoginActivity');
  await tapId(android, 'email');
  await run(android, 'input text a@b.co');
  await tapId(android, 'password');
  await run(android, 'input text pass1');
  await tapId(android, 'sign_in');
  clock.advance(900);
  return Number((await run(android, 'pidof com.example.notes')).stdout.trim());
}

describe('crashes, ANRs and exit-info', () => {
  let android: SimulatedAndroidHandle;
  let clock: ReturnType<typeof fakeClock>;
  beforeEach(() => {
    clock = fakeClock();
    android = newDevice({ clock: clock.now });
  });
  afterEach(() => android.dispose());

  it('the Crash button throws: FATAL EXCEPTION in the crash buffer, process gone, exit-info CRASH', async () => {
    const pid = await openNotes(android, clock);
    await tapId(android, 'crash_button');
    expect((await run(android, 'pidof com.example.notes')).code).toBe(1);
    const crash = (await run(android, 'logcat -d -b crash')).stdout;
    expect(crash).toContain('--------- beginning of crash\n');
    expect(crash).toMatch(
      new RegExp(
        `E AndroidRuntime: FATAL EXCEPTION: main\\n.* ${pid} +${pid} E AndroidRuntime: Process: com\\.example\\.notes, PID: ${pid}\\n.* E AndroidRuntime: java\\.lang\\.IllegalStateException: Note store is not initialised\\n.* E AndroidRuntime: \\tat com\\.example\\.notes\\.data\\.NoteStore\\.requireOpen\\(NoteStore\\.kt:58\\)\\n`,
      ),
    );
    const system = (await run(android, 'logcat -d -b system')).stdout;
    expect(system).toContain(`I ActivityManager: Process com.example.notes (pid ${pid}) has died: fg  TOP `);
    expect((await run(android, 'logcat -d -b main -s Process')).stdout).toContain(`Sending signal. PID: ${pid} SIG: 9`);
    const out = (await run(android, 'dumpsys activity exit-info com.example.notes')).stdout;
    expect(out).toMatch(
      /^ACTIVITY MANAGER PROCESS EXIT INFO \(dumpsys activity exit-info\)\nLast Timestamp of Persistence Into Persistent Storage: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\n {2}package: com\.example\.notes\n {4}Historical Process Exit for uid=\d+\n {8}ApplicationExitInfo #0:\n/,
    );
    expect(out).toContain(`reason=4 (APP CRASH(EXCEPTION)) subreason=0 (UNKNOWN) status=0`);
    const info = parseExitInfo(out);
    if (!info.supported) throw new Error(info.reason);
    expect(info.records[0]).toMatchObject({ pid, reasonCode: 4, importance: 100, description: 'crash' });
    expect(android.state.am.foregroundPackage()).toBeNull();
  });

  it('Sync now hangs: ANR in the system log, a trace file, exit-info ANR', async () => {
    const pid = await openNotes(android, clock);
    await tapId(android, 'sync_button');
    const system = (await run(android, 'logcat -d -b system -s ActivityManager:E')).stdout;
    expect(system).toMatch(/E ActivityManager: ANR in com\.example\.notes \(com\.example\.notes\/\.NotesActivity\)\n/);
    expect(system).toContain(`E ActivityManager: PID: ${pid}\n`);
    expect(system).toMatch(/E ActivityManager: Reason: Input dispatching timed out/);
    const info = parseExitInfo((await run(android, 'dumpsys activity exit-info com.example.notes')).stdout);
    if (!info.supported) throw new Error(info.reason);
    expect(info.records[0]).toMatchObject({ pid, reasonCode: 6 });
    expect(info.records[0].trace).toMatch(/^\/data\/anr\/anr_2024-05-17-10-30-/);
    expect(android.fs.readFile(info.records[0].trace!)?.toString()).toContain(`----- pid ${pid} at `);
  });

  it('Export notes crashes natively: tombstone lines, SIGSEGV, exit-info CRASH_NATIVE with the signal', async () => {
    const pid = await openNotes(android, clock);
    await tapId(android, 'open_settings');
    await tapId(android, 'export_notes');
    const all = (await run(android, 'logcat -d')).stdout;
    expect(all).toMatch(
      new RegExp(
        `F libc +: Fatal signal 11 \\(SIGSEGV\\), code 1 \\(SEGV_MAPERR\\), fault addr 0x0 in tid ${pid} \\(Exporter\\), pid ${pid} \\(com\\.example\\.notes\\)`,
      ),
    );
    expect(all).toContain('F DEBUG   : *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***\n');
    expect(all).toContain(`F DEBUG   : pid: ${pid}, tid: ${pid}, name: Exporter  >>> com.example.notes <<<\n`);
    expect(all).toMatch(
      /F DEBUG {3}: {7}#00 pc [0-9a-f]{16} {2}\/data\/app\/.*\/lib\/arm64\/libnotes_export\.so \(zip_write_entry\+84\)/,
    );
    const out = (await run(android, 'dumpsys activity exit-info com.example.notes')).stdout;
    expect(out).toContain('reason=5 (APP CRASH(NATIVE)) subreason=0 (UNKNOWN) status=11');
    expect((await run(android, 'ls /data/tombstones')).stderr).toBe('ls: /data/tombstones: Permission denied\n');
  });

  it('keeps newest first, prints the header only for a package without exits, and the old error below API 30', async () => {
    await run(android, 'am start -n com.example.weather/.MainActivity');
    await run(android, 'am force-stop com.example.weather');
    await run(android, 'am start -n com.example.weather/.MainActivity');
    await run(android, 'am crash com.example.weather');
    const info = parseExitInfo((await run(android, 'dumpsys activity exit-info com.example.weather')).stdout);
    if (!info.supported) throw new Error(info.reason);
    expect(info.records.map((r) => r.reasonCode)).toEqual([4, 10]);
    expect(
      (await run(android, 'dumpsys activity exit-info com.example.notes')).stdout.split('\n').filter(Boolean),
    ).toHaveLength(2);
    const old = newDevice({ api: 29 });
    const r = await run(old, 'dumpsys activity exit-info com.example.notes');
    expect(r.stdout).toBe('Bad activity command, or no activities match: exit-info\nUse -h for help.\n');
    expect(parseExitInfo(r.stdout).supported).toBe(false);
    old.dispose();
  });
});
