import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdbService } from '../../../src/android/adb-service.js';
import type { CrashReport } from '../../../src/android/logcat/crash-detector.js';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore } from '../../../src/events/event-store.js';
import { currentProcess } from '../../../src/kernel/process-identity.js';
import { ProcessRunner } from '../../../src/kernel/process-runner.js';
import { Settings } from '../../../src/kernel/settings.js';
import type { SettingsValues } from '../../../src/kernel/settings.js';
import { logcatEvents } from '../../../src/plugins/logcat/logcat.events.js';
import { logcatTables } from '../../../src/plugins/logcat/logcat-tables.js';
import type { CrashSink } from '../../../src/plugins/logcat/services/crash-sink.js';
import type { LogLineStore } from '../../../src/plugins/logcat/services/log-line-store.js';
import { LogcatLease } from '../../../src/plugins/logcat/services/logcat-lease.js';
import { LogcatWorker, type LogcatWorkerOutcome } from '../../../src/plugins/logcat/services/logcat-worker.js';
import {
  createSimulatedAndroid,
  type SimulatedAndroidHandle,
} from '../../../src/sim/android/create-simulated-android.js';
import { startSimulatedDevice, type RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { adbHostRequest, startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { agentActor } from '../../support/event-store-fixtures.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { sleep, waitFor } from '../../support/wait.js';
import { openTestLineStore, storedLines } from './line-store-support.js';

/*
 * The logcat worker inside the test process (the detached process is covered end to end through the MCP tools), so
 * the crash sink can be a recording one: a simulated phone behind a real adb server, the real event store file and
 * the real line store, `logcat -B` through adb's exec service.
 */

interface RecordedCrash {
  serial: string;
  report: CrashReport;
  lineSeqs: { first: number | null; last: number | null };
}

const FLOOD_TAG = 'LogFlood';

function floodSeqs(store: LogLineStore, serial: string): number[] {
  return storedLines(store, serial)
    .filter((l) => l.tag === FLOOD_TAG)
    .map((l) => Number(/^seq=(\d+)/.exec(l.message)![1]));
}

describe('the logcat worker against a simulated phone through the real adb server', () => {
  let dir: string;
  let adb: TestAdbServer;
  let android: SimulatedAndroidHandle;
  let phone: RunningSimulatedDevice;
  let events: EventStore;
  let lines: LogLineStore;
  let adbService: AdbService;
  let crashes: RecordedCrash[];
  const sink: CrashSink = { record: (serial, report, lineSeqs) => crashes.push({ serial, report, lineSeqs }) };
  const settings: Pick<SettingsValues, 'logcatIdleMinutes' | 'logcatReconnectSeconds'> = {
    logcatIdleMinutes: 30,
    logcatReconnectSeconds: 4,
  };
  const messages: string[] = [];
  const running: { worker: LogcatWorker; outcome: Promise<unknown> }[] = [];

  function worker(overrides: Partial<typeof settings> = {}): LogcatWorker {
    return new LogcatWorker({
      adb: adbService,
      events: () => events,
      lines,
      crashes: sink,
      settings: { ...settings, ...overrides },
      log: (m) => messages.push(m),
    });
  }

  /** Claims the lease for this process as `ensure` does, then runs a worker on it. */
  function startWorker(serial: string, overrides: Partial<typeof settings> = {}) {
    const w = worker(overrides);
    new LogcatLease(events).claim(serial, currentProcess(), agentActor);
    const outcome = w.run(serial);
    running.push({ worker: w, outcome });
    return { worker: w, outcome };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'droidwright-test-logcat-worker-'));
    adb = await startAdbServer();
    android = createSimulatedAndroid({ backgroundLogRate: 0, seed: 5, scenario: 'notes-app' });
    phone = await startSimOnAdb(adb, { android });
    events = EventStore.open({
      path: join(dir, 'events.db'),
      catalog: new EventCatalog([...logcatEvents]),
      tables: logcatTables,
    });
    lines = openTestLineStore(dir);
    const options = {
      home: dir,
      cwd: dir,
      readOnly: false,
      env: { ...process.env, ANDROID_ADB_SERVER_PORT: String(adb.port) },
    };
    adbService = new AdbService(new Settings(options), options, new ProcessRunner(), {
      root: null,
      selectedBy: 'none',
    });
  });

  afterAll(async () => {
    lines?.close();
    events?.close();
    await phone?.stop();
    android?.dispose();
    await adb?.stop();
    killTrackedProcesses();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Stops the phone and waits until adb no longer lists it online, then forgets the TCP connection. */
  async function unplug(): Promise<void> {
    await phone.stop();
    await waitFor(async () => (await adb.devices()).get(phone.serial) !== 'device', { what: 'adb to see the unplug' });
    await adbHostRequest(adb.port, `host:disconnect:${phone.serial}`).catch(() => undefined);
  }

  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.worker.stop('requested');
      await r.outcome.catch(() => undefined);
    }
  });

  beforeEach(() => {
    crashes = [];
    messages.length = 0;
  });

  it('stores the log with packages, hands a crash block to the sink with its line seqs, records start and stop', async () => {
    const s = android.state;
    s.log('main', 'I', 'Before', 'logged before the worker started', 4321, 10200);
    const { worker: w, outcome } = startWorker(phone.serial);
    await waitFor(() => storedLines(lines, phone.serial).some((l) => l.tag === 'Before'), { what: 'the backlog' });
    const app = s.processes.startApp('com.example.notes', 10_321);
    s.log('main', 'I', 'Notes', 'hello from the app', app.pid, 10_321);
    s.log(
      'crash',
      'E',
      'AndroidRuntime',
      'FATAL EXCEPTION: main\nProcess: com.example.notes, PID: ' +
        app.pid +
        '\njava.lang.IllegalStateException: boom\n\tat com.example.notes.MainActivity.onCrashClicked(MainActivity.kt:42)',
      app.pid,
      10_321,
    );
    await waitFor(() => crashes.length === 1, { what: 'the crash report', timeoutMs: 10_000 });
    const stored = storedLines(lines, phone.serial);
    const hello = stored.find((l) => l.message === 'hello from the app')!;
    expect(hello.package).toBe('com.example.notes');
    const crash = crashes[0]!;
    expect(crash.serial).toBe(phone.serial);
    expect(crash.report).toMatchObject({ kind: 'java', exceptionClass: 'java.lang.IllegalStateException' });
    const first = stored.find((l) => l.seq === crash.lineSeqs.first)!;
    // logcat -B keeps a multi-line message as one entry: the whole block is one stored line here.
    expect(first.message).toMatch(/^FATAL EXCEPTION: main\nProcess: com\.example\.notes/);
    expect(crash.lineSeqs.last).toBeGreaterThanOrEqual(crash.lineSeqs.first!);

    w.stop('requested', null, agentActor);
    const end = (await outcome)!;
    expect(end.reason).toBe('requested');
    expect(end.counts.dropped).toBe(0);
    expect(end.counts.stored).toBe(stored.length);
    const log = events.query({ types: ['logcat.started', 'logcat.stopped'], limit: 10, order: 'asc' });
    expect(log.map((e) => e.type)).toEqual(['logcat.started', 'logcat.stopped']);
    expect(log[0]!.data).toMatchObject({ device_serial: phone.serial, format: 'binary', took_over: null });
    expect(log[0]!.actor).toEqual(agentActor);
    expect(log[1]!.data).toMatchObject({ reason: 'requested', stored: stored.length, dropped: 0 });
    expect(new LogcatLease(events).read(phone.serial)).toMatchObject({ state: 'stopped' });
  });

  it('a new worker resumes after the last stored line: no line twice, none lost while no worker ran', async () => {
    await adb.adb(['-s', phone.serial, 'shell', 'logcat', '-G', '16M']);
    const s = android.state;
    let n = 0;
    const pump = setInterval(() => {
      for (let i = 0; i < 20; i++) s.log('main', 'I', FLOOD_TAG, `seq=${++n} resume test`, 777, 10_777);
    }, 5);
    try {
      const before = floodSeqs(lines, phone.serial).length;
      const a = startWorker(phone.serial);
      await waitFor(() => floodSeqs(lines, phone.serial).length > before + 500, {
        what: 'lines from the first worker',
      });
      a.worker.stop('signal');
      await a.outcome;
      await sleep(300);
      const afterFirst = floodSeqs(lines, phone.serial).at(-1) ?? 0;
      const b = startWorker(phone.serial);
      // The second worker streams while lines keep coming; then the flood stops and it must store every one.
      await waitFor(() => n > 3000 && (floodSeqs(lines, phone.serial).at(-1) ?? 0) > afterFirst + 500, {
        what: 'lines from the second worker',
        timeoutMs: 15_000,
      });
      clearInterval(pump);
      await waitFor(() => (floodSeqs(lines, phone.serial).at(-1) ?? 0) === n, {
        what: 'the second worker catching up',
        timeoutMs: 15_000,
      }).catch((error) => {
        throw new Error(
          `${error.message} (logged ${n}, stored up to ${floodSeqs(lines, phone.serial).at(-1)}); the worker said: ${messages.join(' | ')}`,
        );
      });
      clearInterval(pump);
      await sleep(300);
      b.worker.stop('requested');
      await b.outcome;
    } finally {
      clearInterval(pump);
    }
    const seqs = floodSeqs(lines, phone.serial);
    expect(seqs.length).toBe(n);
    expect(seqs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it('continues when the device comes back within the window, and stops as device_gone when it does not', async () => {
    const port = phone.port;
    const { outcome } = startWorker(phone.serial, { logcatReconnectSeconds: 6 });
    android.state.log('main', 'I', 'Plug', 'before unplug', 4321, 10200);
    await waitFor(() => storedLines(lines, phone.serial).some((l) => l.message === 'before unplug'), {
      what: 'a line before the unplug',
    });
    await unplug();
    await sleep(1000);
    phone = await startSimulatedDevice({ port, android });
    await adb.connect(phone.serial);
    android.state.log('main', 'I', 'Plug', 'after replug', 4321, 10200);
    await waitFor(() => storedLines(lines, phone.serial).some((l) => l.message === 'after replug'), {
      what: 'a line after the device came back',
      timeoutMs: 15_000,
    }).catch((error) => {
      throw new Error(`${error.message}; the worker said: ${messages.join(' | ')}`);
    });
    expect(storedLines(lines, phone.serial).filter((l) => l.message === 'before unplug')).toHaveLength(1);
    await unplug();
    const end = (await outcome) as LogcatWorkerOutcome;
    expect(end.reason).toBe('device_gone');
    expect(end.detail).toMatch(/not back online within 6 s/);
    const [stopped] = events.query({ types: ['logcat.stopped'], limit: 1 });
    expect(stopped!.data).toMatchObject({ reason: 'device_gone' });
    phone = await startSimulatedDevice({ port, android });
    await adb.connect(phone.serial);
  }, 60_000);

  it('stops as idle when no reader touched the log within the idle time', async () => {
    const started = Date.now();
    const { outcome } = startWorker(phone.serial, { logcatIdleMinutes: 0.05 });
    const end = (await outcome)!;
    expect(end.reason).toBe('idle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  }, 30_000);
});
