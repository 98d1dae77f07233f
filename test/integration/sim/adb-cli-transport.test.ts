/**
 * The transport through the real adb binary and its own adb server, with a tiny Android behind it:
 * what adb sends is whatever adb 29 really sends, so these pin the wire protocol, not our reading of it.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { sleep } from '../../support/wait.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { TinyAndroid } from './tiny-android.js';
import { openDeviceService } from './smart-socket.js';

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('simulated device through the adb CLI', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let android: TinyAndroid;
  let serial: string;
  const work = mkdtempSync(join(tmpdir(), 'droidwright-sim-cli-'));

  beforeAll(async () => {
    adb = await startAdbServer();
    android = new TinyAndroid();
    device = await startSimOnAdb(adb, { android });
    serial = device.serial;
  });

  afterAll(async () => {
    await device?.stop();
    await adb?.stop();
    killTrackedProcesses();
  });

  const shell = (args: string[], opts?: { input?: string | Buffer }) => adb.adb(['-s', serial, ...args], opts);

  it('lists the device with the properties from its banner', async () => {
    expect(serial).toMatch(/^127\.0\.0\.1:\d+$/);
    const { stdout } = await adb.adb(['devices', '-l']);
    const line = stdout.split('\n').find((l) => l.startsWith(serial));
    expect(line).toMatch(/\sdevice\s/);
    expect(line).toContain('product:tiny');
    expect(line).toContain('model:Tiny_Phone');
    expect(line).toContain('device:tiny');
  });

  it('reports real exit codes and keeps stdout and stderr apart (shell_v2)', async () => {
    expect(await shell(['shell', 'echo', 'hello', 'world'])).toMatchObject({ stdout: 'hello world\n', exitCode: 0 });
    expect((await shell(['shell', 'false'])).exitCode).toBe(1);
    expect((await shell(['shell', 'exit', '42'])).exitCode).toBe(42);
    expect(await shell(['shell', 'stderr', 'oops'])).toMatchObject({ stdout: '', stderr: 'oops\n', exitCode: 3 });
    expect((await shell(['shell', 'nosuchcmd'])).exitCode).toBe(127);
    expect(android.received.at(-1)).toEqual({ commandLine: 'nosuchcmd', mode: 'shell_v2' });
  });

  it('joins adb shell arguments with spaces for the device shell to re-parse', async () => {
    await shell(['shell', 'echo', "'a  b'", 'c']);
    expect(android.received.at(-1)?.commandLine).toBe("echo 'a  b' c");
  });

  it('turns a crashing command into exit 255 with a message, not a dead device', async () => {
    const result = await shell(['shell', 'throw']);
    expect(result.exitCode).toBe(255);
    expect(result.stderr).toContain('command implementation crashed');
    expect((await shell(['shell', 'true'])).exitCode).toBe(0);
  });

  it('passes stdin through the shell protocol', async () => {
    expect(await shell(['shell', 'cat'], { input: 'piped input\n' })).toMatchObject({
      stdout: 'piped input\n',
      exitCode: 0,
    });
  });

  it('speaks the legacy shell protocol (adb shell -x): no exit codes, stderr merged, no \\r\\n', async () => {
    const result = await shell(['shell', '-x', 'stderr', 'merged']);
    expect(result.stdout).toBe('merged\n');
    expect(android.received.at(-1)?.mode).toBe('legacy');
    expect((await shell(['shell', '-x', 'lines', '3'])).stdout).toBe('line 0\nline 1\nline 2\n');
  });

  it('streams binary exec-out output byte-identical across many WRTEs', async () => {
    const size = 3 * 1024 * 1024 + 17;
    const result = await shell(['exec-out', 'blob', String(size)]);
    expect(android.received.at(-1)?.mode).toBe('exec');
    expect(result.stdoutBuffer.length).toBe(size);
    const expected = Buffer.alloc(size);
    for (let i = 0; i < size; i++) expected[i] = i % 251;
    expect(result.stdoutBuffer.equals(expected)).toBe(true);
  });

  it('keeps many small writes in order', async () => {
    const { stdout } = await shell(['shell', 'lines', '2000']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines[1999]).toBe('line 1999');
  });

  it('turns \n into \r\n only on a pseudo-terminal (adb shell -tt), like a tty would', async () => {
    const result = await shell(['shell', '-tt', 'lines', '2']);
    expect(result.stdout).toBe('line 0\r\nline 1\r\n');
    expect((await shell(['shell', 'lines', '2'])).stdout).toBe('line 0\nline 1\n');
  });

  it('runs an interactive shell without a command', async () => {
    const result = await shell(['shell'], { input: 'echo first\nexit 7\n' });
    expect(result.stdout).toContain('tiny:/ $ ');
    expect(result.stdout).toContain('first\n');
    expect(result.exitCode).toBe(7);
  });

  it('pushes and pulls 10 MB byte-identical, creating parent directories', async () => {
    const data = Buffer.alloc(10 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    const local = join(work, 'big.bin');
    writeFileSync(local, data);
    const push = await shell(['push', local, '/sdcard/new/dir/big.bin']);
    expect(push.exitCode).toBe(0);
    expect(android.fs.readFile('/sdcard/new/dir/big.bin')?.equals(data)).toBe(true);

    const back = join(work, 'back.bin');
    const pull = await shell(['pull', '/sdcard/new/dir/big.bin', back]);
    expect(pull.exitCode).toBe(0);
    const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(digest(readFileSync(back))).toBe(digest(data));
  });

  it('lists directories and reports missing files through sync', async () => {
    android.fs.writeFile('/data/local/tmp/a.txt', Buffer.from('alpha'), 0o100644, 1700000000);
    const ls = await shell(['ls', '/data/local/tmp']);
    expect(ls.stdout).toMatch(/a\.txt/);
    const pull = await shell(['pull', '/data/local/tmp/missing.txt', join(work, 'missing.txt')]);
    expect(pull.exitCode).not.toBe(0);
    // adb 29 prints pull errors on stdout.
    expect(pull.stdout + pull.stderr).toMatch(/No such file or directory/);
  });

  it('feeds adb install-style stdin to exec streams', async () => {
    const payload = Buffer.alloc(700 * 1024, 7);
    const result = await shell(['exec-in', 'sha256', String(payload.length)], { input: payload });
    expect(result.exitCode).toBe(0);
    // adb exec-in quotes each argument for the device shell.
    expect(android.received.at(-1)).toEqual({ commandLine: `sha256 '${payload.length}'`, mode: 'exec' });
    // adb exec-in exits once it has sent stdin; the device may still be hashing the last chunks.
    for (const deadline = Date.now() + 5000; android.lastOutput === '' && Date.now() < deadline; ) await sleep(20);
    expect(android.lastOutput).toBe(`${payload.length} ${createHash('sha256').update(payload).digest('hex')}\n`);
  });

  it('stops an endless producer when the host closes the stream', async () => {
    const stream = await openDeviceService(adb.port, serial, 'shell:yes');
    await stream.readAtLeast(16 * 1024);
    expect(android.running).toBe(1);
    stream.close();
    await eventually(() => android.running === 0);
    const produced = android.yesLines;
    await sleep(200);
    expect(android.yesLines).toBe(produced);
  });

  it('stops producing when the reader stops reading (flow control reaches the command)', async () => {
    const stream = await openDeviceService(adb.port, serial, 'exec:yes 0123456789012345678901234567890123456789');
    await stream.readAtLeast(1024);
    stream.pause();
    // Socket buffers between us and adb absorb some output first; then the command must block.
    let before = -1;
    const until = Date.now() + 15000;
    while (android.yesLines !== before && Date.now() < until) {
      before = android.yesLines;
      await sleep(300);
    }
    expect(android.yesLines).toBe(before);
    expect(android.running).toBe(1);
    stream.close();
    await eventually(() => android.running === 0);
  });

  it('refuses services it does not offer', async () => {
    const result = await shell(['reverse', '--list']);
    expect(result.exitCode).not.toBe(0);
    expect((await shell(['shell', 'true'])).exitCode).toBe(0);
  });
});
