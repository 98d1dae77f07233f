import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';
import { memoryIO, fakeClock, newDevice, run } from './shell-io.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';
import { sleep } from '../../../support/wait.js';
import { LogcatBinaryDecoder } from '../../../../src/android/logcat/logcat-binary-decoder.js';

interface AdbkitEntry {
  date: Date;
  pid: number;
  tid: number;
  priority: number;
  tag: string;
  message: string;
}
// adbkit's own binary logcat parser, so the -B layout is checked against the client that reads it.
const BinaryParser = createRequire(import.meta.url)(
  '@devicefarmer/adbkit-logcat/lib/logcat/parser/binary',
) as new () => EventEmitter & { parse(chunk: Buffer): void };

function decode(bytes: Buffer): AdbkitEntry[] {
  const parser = new BinaryParser();
  const entries: AdbkitEntry[] = [];
  parser.on('entry', (e: AdbkitEntry) =>
    entries.push({ date: e.date, pid: e.pid, tid: e.tid, priority: e.priority, tag: e.tag, message: e.message }),
  );
  parser.on('error', (err: Error) => {
    throw err;
  });
  parser.parse(bytes);
  return entries;
}

describe('logcat', () => {
  let android: SimulatedAndroidHandle;
  let clock: ReturnType<typeof fakeClock>;
  beforeEach(async () => {
    clock = fakeClock(Date.UTC(2024, 4, 17, 10, 30, 0, 123));
    android = newDevice({ clock: clock.now });
    await run(android, 'logcat -c');
    android.state.log('main', 'I', 'Alpha', 'first line', 4321, 10200, 2);
    clock.advance(10);
    android.state.log('system', 'W', 'BetaService', 'second\nwith two lines', 587);
    clock.advance(10);
    android.state.log('main', 'E', 'Alpha', 'third', 4321);
  });
  afterEach(() => android.dispose());

  it('prints threadtime by default with buffer headers and one prefix per message line', async () => {
    expect((await run(android, 'logcat -d')).stdout).toBe(
      [
        '--------- beginning of main',
        '05-17 10:30:00.123  4321  4323 I Alpha   : first line',
        '--------- beginning of system',
        '05-17 10:30:00.133   587   587 W BetaService: second',
        '05-17 10:30:00.133   587   587 W BetaService: with two lines',
        '05-17 10:30:00.143  4321  4321 E Alpha   : third',
        '',
      ].join('\n'),
    );
  });

  it('supports the other -v formats and modifiers', async () => {
    const only = 'logcat -d -b main -s Alpha:E';
    expect((await run(android, `${only} -v brief`)).stdout).toBe(
      '--------- beginning of main\nE/Alpha   ( 4321): third\n',
    );
    expect((await run(android, `${only} -v time`)).stdout).toBe(
      '--------- beginning of main\n05-17 10:30:00.143 E/Alpha   ( 4321): third\n',
    );
    expect((await run(android, `${only} -v tag`)).stdout).toBe('--------- beginning of main\nE/Alpha   : third\n');
    expect((await run(android, `${only} -v process`)).stdout).toBe(
      '--------- beginning of main\nE( 4321) third  (Alpha)\n',
    );
    expect((await run(android, `${only} -v raw`)).stdout).toBe('--------- beginning of main\nthird\n');
    expect((await run(android, `${only} -v threadtime -v year`)).stdout).toBe(
      '--------- beginning of main\n2024-05-17 10:30:00.143  4321  4321 E Alpha   : third\n',
    );
    expect((await run(android, `${only} -v epoch`)).stdout).toBe(
      '--------- beginning of main\n1715941800.143  4321  4321 E Alpha   : third\n',
    );
    expect((await run(android, 'logcat -d -v nonsense')).stderr).toMatch(
      /^logcat: Invalid parameter "nonsense" to -v\./,
    );
  });

  it('filters by tag spec, -s, --pid, -e, -t, -T and -m', async () => {
    const lines = async (cmd: string) =>
      (await run(android, cmd)).stdout.split('\n').filter((l) => l && !l.startsWith('---------'));
    expect(await lines("logcat -d 'Alpha:W' '*:S'")).toEqual(['05-17 10:30:00.143  4321  4321 E Alpha   : third']);
    expect(await lines('logcat -d -s BetaService')).toHaveLength(2);
    expect(await lines('logcat -d --pid=587')).toHaveLength(2);
    expect(await lines('logcat -d --pid 4321 -e ^fir')).toEqual([
      '05-17 10:30:00.123  4321  4323 I Alpha   : first line',
    ]);
    expect(await lines('logcat -t 1')).toEqual(['05-17 10:30:00.143  4321  4321 E Alpha   : third']);
    expect(await lines("logcat -d -T '05-17 10:30:00.130' -b main")).toEqual([
      '05-17 10:30:00.143  4321  4321 E Alpha   : third',
    ]);
    expect(await lines('logcat -d -m 1')).toHaveLength(1);
    expect(await lines('logcat -d -b crash')).toEqual([]);
  });

  it('writes -B entries that adbkit parses back', async () => {
    const r = await run(android, 'logcat -B -d');
    expect(r.out.readUInt16LE(2)).toBe(28);
    const entries = decode(r.out);
    expect(entries.map((e) => [e.pid, e.tid, e.priority, e.tag, e.message])).toEqual([
      [4321, 4323, 4, 'Alpha', 'first line'],
      [587, 587, 5, 'BetaService', 'second\nwith two lines'],
      [4321, 4321, 6, 'Alpha', 'third'],
    ]);
    expect(entries[0].date.getTime()).toBe(Date.UTC(2024, 4, 17, 10, 30, 0, 123));
  });

  it('writes -B event entries as typed payloads under their event-log-tags numbers', async () => {
    await run(android, 'logcat -c -b events');
    android.state.log('events', 'I', 'battery_level', '[100,5000,250]', 587);
    android.state.log('events', 'I', 'am_proc_start', '[0,4321,10200,com.example,activity,{com.example/.Main}]', 587);
    android.state.log('events', 'I', 'boot_progress_enable_screen', '12345678901', 587);
    android.state.log('events', 'I', 'no_such_event_tag', '1', 587);
    const entries = new LogcatBinaryDecoder().push((await run(android, 'logcat -B -d -b events')).out);
    expect(entries.map((e) => [e.buffer, e.tag, e.message])).toEqual([
      ['events', '2722', '[100,5000,250]'],
      ['events', '30014', '[0,4321,10200,com.example,activity,{com.example/.Main}]'],
      ['events', '3050', '12345678901'],
    ]);
  });

  it('follows new lines until the stream closes, and -c clears', async () => {
    const m = memoryIO();
    const done = android.exec('logcat -v brief -T 1 Alpha:I *:S', m.io, 'shell_v2');
    await sleep(10);
    android.state.log('main', 'I', 'Alpha', 'live one', 4321);
    android.state.log('main', 'I', 'Other', 'filtered out', 4321);
    await sleep(10);
    m.controller.abort();
    expect(await done).toBe(0);
    expect(m.stdout().toString()).toBe(
      '--------- beginning of main\nE/Alpha   ( 4321): third\nI/Alpha   ( 4321): live one\n',
    );
    await run(android, 'logcat -c');
    expect((await run(android, 'logcat -d')).stdout).toBe('');
    expect((await run(android, 'logcat -g -b main')).stdout).toMatch(
      /^main: ring buffer is 256 KiB \(\d+ KiB consumed\), max entry is 5120 B, max payload is 4068 B\n$/,
    );
  });

  it('generates background traffic deterministically from the seed, and dispose() stops it', async () => {
    const make = () => newDevice({ seed: 7, backgroundLogRate: 200 });
    const a = make();
    const b = make();
    await sleep(80);
    a.dispose();
    b.dispose();
    const msgs = (d: SimulatedAndroidHandle) =>
      d.state.logs.read(['main', 'system', 'events']).map((e) => `${e.tag}:${e.message}`);
    const n = Math.min(msgs(a).length, msgs(b).length);
    expect(n).toBeGreaterThan(10);
    expect(msgs(a).slice(0, n)).toEqual(msgs(b).slice(0, n));
    const before = msgs(a).length;
    await sleep(30);
    expect(msgs(a).length).toBe(before);
  });
});
