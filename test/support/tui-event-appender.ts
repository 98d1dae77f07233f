// A second process that appends to the real event log (DROIDWRIGHT_HOME) what droidwright processes record,
// for the dashboard's tests and benchmark; bundled by bundle-script.ts before it runs.
//   scenario <project-root>   a session, tool calls (one refused), devices, builds (one failed, one running),
//                             an install and crashes; prints "ready <seq>", then reads commands from stdin:
//                               call <tool> <outcome>   one more tool call; prints "seq <seq>"
//                               log <serial> <package> <level> <tag> <message…>
//                                                       one device log line into logcat.db; prints "line <seq>"
//   flood <rate> <seconds>    mcp.tool_called at <rate> events/s (a batch every 20 ms); prints "done <seq> <sent> <ms>"
// Its agent session is this process, so it counts as connected while the process runs.
import { createInterface } from 'node:readline';
import { resolveHome } from '../../src/kernel/paths.js';
import { createContainer, disposeContainer } from '../../src/kernel/composition-root.js';
import { EventStoreProvider } from '../../src/kernel/event-store-provider.js';
import type { EventStore } from '../../src/events/event-store.js';
import { pluginModules } from '../../src/plugins/index.js';
import { BuildHistory } from '../../src/plugins/build/services/build-history.js';
import { LogLineStore } from '../../src/plugins/logcat/services/log-line-store.js';
import type { LogcatEntry } from '../../src/android/logcat/logcat-entry.js';
import type { Actor } from '../../src/shared/actor.js';
import { assembleStartedData, successfulBuildData } from './build-events.js';

const [mode, ...args] = process.argv.slice(2);
const container = createContainer(
  { home: resolveHome(process.env), cwd: process.cwd(), readOnly: false, env: process.env },
  pluginModules,
);
const store = container.get<EventStoreProvider>(EventStoreProvider)();
const session = `tui-test-${process.pid}`;
const agent: Actor = { kind: 'agent', session, client: 'test-agent', clientVersion: '1.2.3', pid: process.pid };
const system: Actor = { kind: 'system', pid: process.pid };

function sessionStarted(projectRoot: string | null) {
  return {
    type: 'mcp.session_started',
    stream: `session:${session}`,
    actor: agent,
    data: {
      session,
      client_name: 'test-agent',
      client_version: '1.2.3',
      protocol_version: '2025-11-25',
      pid: process.pid,
      pid_start: null,
      toolsets: ['core', 'build'],
      read_only: false,
      project_root: projectRoot,
    },
  };
}

function toolCalled(tool: string, outcome: string, n = 0) {
  const kind = tool.startsWith('list_') || tool.startsWith('get_') ? 'R' : tool === 'run_gradle_task' ? 'O' : 'W';
  return {
    type: 'mcp.tool_called',
    stream: `session:${session}`,
    actor: agent,
    data: {
      session,
      tool,
      toolset: 'core',
      kind,
      outcome,
      error_code: outcome === 'refused' ? 'PROJECT_NOT_TRUSTED' : outcome === 'error' ? 'DEVICE_NOT_FOUND' : null,
      duration_ms: 3 + (n % 40),
      summary:
        outcome === 'refused'
          ? 'The project is not trusted: run `droidwright trust` yourself.'
          : outcome === 'error'
            ? 'No device emulator-5556 is connected.'
            : `${tool} call ${n} done`,
      arguments: {},
    },
  };
}

function crash(type: 'app.crashed' | 'app.not_responding', hash: string) {
  const base = {
    device_serial: 'emulator-5554',
    package: 'com.example.demo',
    pid: 4242,
    process: 'com.example.demo',
    signature: `${type} ${hash}`,
    signature_hash: hash,
    time_ms: Date.now(),
    first_line_seq: null,
    last_line_seq: null,
    lines: ['E AndroidRuntime: FATAL EXCEPTION: main', 'E AndroidRuntime: java.lang.IllegalStateException: boom'],
    truncated: false,
    build: null,
  };
  return {
    type,
    stream: 'device:emulator-5554',
    actor: system,
    device: 'emulator-5554',
    package: 'com.example.demo',
    data:
      type === 'app.crashed'
        ? {
            ...base,
            thread: 'main',
            exception_class: 'java.lang.IllegalStateException',
            message: 'boom',
            r8_map_ids: [],
          }
        : { ...base, component: 'com.example.demo/.MainActivity', reason: 'Input dispatching timed out' },
  };
}

function scenario(projectRoot: string): void {
  const log = (id: string) => `${projectRoot}/.build-logs/${id}.log`;
  const failed = {
    ...successfulBuildData({ buildId: 'b-failed', apks: [], logPath: log('b-failed') }),
    status: 'failed' as const,
    exit_code: 1,
    reason: 'Compilation error',
    diagnostic_counts: { error: 1, warning: 1, info: 0 },
    diagnostics: [
      {
        severity: 'error' as const,
        source: 'kotlin' as const,
        file: 'app/src/main/java/com/example/demo/Main.kt',
        line: 12,
        column: 5,
        message: 'Unresolved reference: fooBar',
        task: ':app:compileDebugKotlin',
      },
      {
        severity: 'warning' as const,
        source: 'kotlin' as const,
        file: 'app/src/main/java/com/example/demo/Main.kt',
        line: 3,
        column: 1,
        message: "Parameter 'x' is never used",
        task: ':app:compileDebugKotlin',
      },
    ],
    diagnostics_total: 2,
  };
  const build = (id: string) => ({ stream: `build:${id}`, correlation: id, actor: agent });
  store.appendMany([
    sessionStarted(projectRoot),
    toolCalled('list_devices', 'ok', 1),
    toolCalled('run_gradle_task', 'refused', 2),
    toolCalled('install_apk', 'error', 3),
    {
      type: 'device.connected',
      stream: 'device:emulator-5554',
      actor: system,
      device: 'emulator-5554',
      data: {
        serial: 'emulator-5554',
        state: 'device',
        kind: 'emulator',
        model: 'sdk_gphone64_x86_64',
        manufacturer: 'Google',
        api_level: 34,
        abi: 'x86_64',
        avd_name: 'Pixel_8',
      },
    },
    {
      type: 'build.started',
      ...build('b-failed'),
      data: assembleStartedData({ buildId: 'b-failed', projectRoot, variant: 'debug', logPath: log('b-failed') }),
    },
    { type: 'build.finished', ...build('b-failed'), data: failed },
    {
      type: 'app.installed',
      stream: 'device:emulator-5554',
      actor: agent,
      device: 'emulator-5554',
      package: 'com.example.demo',
      data: {
        device_serial: 'emulator-5554',
        package: 'com.example.demo',
        apk_path: `${projectRoot}/app/build/outputs/apk/debug/app-debug.apk`,
        apk_sha256: 'b'.repeat(64),
        apk_size: 1234,
        version_code: 7,
        version_name: '1.0.7',
        build_id: 'b-ok',
        module: ':app',
        variant: 'debug',
        duration_ms: 800,
      },
    },
    crash('app.crashed', 'aaaa1111'),
    crash('app.crashed', 'aaaa1111'),
    crash('app.not_responding', 'bbbb2222'),
    {
      type: 'build.started',
      ...build('b-running'),
      data: assembleStartedData({ buildId: 'b-running', projectRoot, variant: 'release', logPath: log('b-running') }),
    },
  ]);
  container.get(BuildHistory).setCurrentTask('b-running', ':app:compileReleaseKotlin');
  process.stdout.write(`ready ${store.lastSeq()}\n`);
  let n = 100;
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, tool, outcome, ...rest] = line.trim().split(/\s+/);
    if (command === 'call' && tool && outcome) {
      store.appendMany([toolCalled(tool, outcome, n++)]);
      process.stdout.write(`seq ${store.lastSeq()}\n`);
    } else if (command === 'log' && tool && outcome && rest.length >= 3) {
      const [level, tag, ...words] = rest as [LogcatEntry['level'], string, ...string[]];
      const at = Date.now();
      const pid = outcome === 'com.example.demo' ? 4242 : 1000;
      const seqs = container
        .get<LogLineStore>(LogLineStore)
        .append(
          tool,
          [{ time: String(at / 1000), timeMs: at, pid, tid: pid, level, tag, message: words.join(' ') }],
          () => (outcome === '-' ? null : outcome),
        );
      process.stdout.write(`line ${seqs?.last}\n`);
    }
  });
  process.stdin.on('end', () => finish(store));
}

async function flood(rate: number, seconds: number): Promise<void> {
  store.appendMany([sessionStarted(null)]);
  const perBatch = Math.max(1, Math.round(rate / 50));
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < seconds * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * rate);
    if (due > sent) {
      const n = Math.min(due - sent, perBatch * 4);
      store.appendMany(Array.from({ length: n }, (_, i) => toolCalled('get_device_info', 'ok', sent + i)));
      sent += n;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(`done ${store.lastSeq()} ${sent} ${Date.now() - started}\n`);
  finish(store);
}

function finish(_store: EventStore): void {
  disposeContainer(container);
  process.exit(0);
}

if (mode === 'scenario') scenario(args[0]!);
else if (mode === 'flood') await flood(Number(args[0]), Number(args[1]));
else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
