import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Container } from 'inversify';
import { render } from 'ink-testing-library';
import { createEventStream, type EventStream } from '../../../src/events/event-stream.js';
import type { EventStore } from '../../../src/events/event-store.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { DashboardApp } from '../../../src/tui/dashboard-app.js';
import { DashboardModel, FRAME_MS } from '../../../src/tui/dashboard-model.js';
import type { DashboardSources } from '../../../src/tui/dashboard-sources.js';
import { dashboardActions, dashboardLogSource, debugSessionSource } from '../../../src/tui/tui-command.js';
import { bundleScript } from '../../support/bundle-script.js';
import { trackPid, untrackPid } from '../../support/process-tracker.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { waitFor } from '../../support/wait.js';

const KEY = { enter: '\r', escape: '\u001b', tab: '\t', down: '\u001b[B', up: '\u001b[A' };

let appender: { path: string; remove(): void };
let temp: { home: string; cleanup(): void };
let project: string;
let container: Container;
let store: EventStore;
let stream: EventStream;
let child: ChildProcess;
let childOutput = '';
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  appender = await bundleScript('test/support/tui-event-appender.ts');
  temp = createTempHome('tui');
  project = createFakeGradleProject(temp.home);
  child = spawn(process.execPath, [appender.path, 'scenario', project], {
    env: { ...process.env, DROIDWRIGHT_HOME: temp.home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  trackPid(child.pid!);
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (childOutput += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (childOutput += chunk));
  await waitFor(() => childOutput.includes('ready'), { what: `the appender (${childOutput})` });
  container = createContainer(
    { home: temp.home, cwd: project, readOnly: false, env: process.env, projectPath: project },
    pluginModules,
  );
  store = container.get<EventStoreProvider>(EventStoreProvider)();
}, 60_000);

afterAll(() => {
  child?.stdin?.end();
  if (child?.pid) {
    child.kill('SIGKILL');
    untrackPid(child.pid);
  }
  if (container) disposeContainer(container);
  appender?.remove();
  temp?.cleanup();
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function sourcesWith(extra: Partial<DashboardSources> = {}): DashboardSources {
  stream = createEventStream(store, { pollMs: 50 });
  const trust = dashboardActions(container, project);
  return {
    ...debugSessionSource(container),
    store,
    stream,
    projectRoot: project,
    isTrusted: () =>
      store.query({ stream: `project:${project}`, types: ['project.trusted', 'project.untrusted'], limit: 1 })[0]
        ?.type === 'project.trusted',
    actions: trust,
    ...extra,
  };
}

function mount(extra: Partial<DashboardSources> = {}, size = { columns: 110, rows: 30 }) {
  const sources = sourcesWith(extra);
  const model = new DashboardModel(sources);
  model.start();
  const app = render(<DashboardApp model={model} sources={sources} color={false} size={size} />);
  cleanups.push(() => {
    app.unmount();
    model.close();
    sources.stream.close();
  });
  const frame = () => app.lastFrame() ?? '';
  const until = (text: string | RegExp, what = String(text)) =>
    waitFor(() => (typeof text === 'string' ? frame().includes(text) : text.test(frame())), {
      timeoutMs: 10_000,
      what: `${what} on screen; last frame:\n${frame()}`,
    });
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      app.stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  };
  return { app, model, frame, until, press };
}

it('shows the header, live tool calls with refusals standing out, and filters them', async () => {
  const ui = mount();
  await ui.until('test-agent 1.2.3');
  await ui.until('REFUSED');
  expect(ui.frame()).toContain('untrusted');
  expect(ui.frame()).toContain('1 device online');
  await ui.until(/log ✓ verified #\d+/);
  expect(ui.frame()).toMatch(/run_gradle_task\s+O REFUSED .*PROJECT_NOT_TRUSTED/);
  expect(ui.frame()).toMatch(/install_apk\s+W error/);

  // A call appended by the other process appears without any key pressed.
  child.stdin!.write('call launch_app ok\n');
  await ui.until('launch_app');
  await ui.until(`verified #${store.lastSeq()}`);

  await ui.press('/', ...'outcome:refused', KEY.enter);
  await ui.until('Activity*');
  expect(ui.frame()).toContain('run_gradle_task');
  expect(ui.frame()).not.toContain('launch_app');
  await ui.press(KEY.escape);
  await ui.until('launch_app');

  await ui.press(KEY.enter);
  await ui.until('client   test-agent');
  await ui.press(KEY.escape, '?');
  await ui.until('this help');
  await ui.press('x');
  await ui.until('launch_app');
});

it('shows the running build with its current task, and the failed build diagnostics on Enter', async () => {
  const ui = mount();
  await ui.press('2');
  await ui.until('> :app:compileReleaseKotlin');
  expect(ui.frame()).toContain('▶ b-running');
  expect(ui.frame()).toMatch(/failed\s+1\.0s\s+1\/1/);
  await ui.press(KEY.down, KEY.enter);
  await ui.until('Diagnostics (1 errors, 1 warnings)');
  expect(ui.frame()).toContain('app/src/main/java/com/example/demo/Main.kt:12:5  Unresolved reference: fooBar');
  await ui.press(KEY.escape);
  await ui.until('E/W');
});

it('shows devices with installed builds and who installed them, crash groups and sessions', async () => {
  const ui = mount();
  await ui.press('3');
  await ui.until('emulator-5554');
  expect(ui.frame()).toMatch(/com\.example\.demo\s+1\.0\.7\s+build b-ok \(debug\) · agent test-agent/);
  expect(ui.frame()).toContain('API 34');
  await ui.press(KEY.tab);
  await ui.until('JAVA');
  expect(ui.frame()).toMatch(/2 JAVA\s+com\.example\.demo .*java\.lang\.IllegalStateException: boom/);
  expect(ui.frame()).toMatch(/1 ANR/);
  // Newest crash first: the ANR, then the Java group.
  await ui.press(KEY.down, KEY.enter);
  await ui.until('FATAL EXCEPTION: main');
  // Read from the logcat plugin's crashes read model (crash_groups, crashes) and the newest crash event.
  expect(ui.frame()).toContain('devices emulator-5554');
  expect(ui.frame()).toMatch(/JAVA com\.example\.demo\s+×2\s+group [0-9a-f]+/);
  await ui.press(KEY.escape, '5');
  await ui.until('debug session');
  expect(ui.frame()).toMatch(/MCP test-agent 1\.2\.3\s+pid \d+\s+\d+ calls/);
  await ui.press('6');
  await ui.until('logcat store not available');
});

it('shows debug sessions with their state and opens one: timeline and crashes', async () => {
  const ui = mount();
  await ui.press('5');
  // The install of com.example.demo (build b-ok) began a session; the crashes after it on that device count in it.
  await ui.until(/ds-\d+\s+open\s+com\.example\.demo\s+emulator-5554\s+0\s+3\s+b-ok \(debug\)/);
  await ui.press(KEY.enter);
  await ui.until('Timeline, newest first');
  expect(ui.frame()).toMatch(/ds-\d+ {2}com\.example\.demo on emulator-5554 {2}open/);
  expect(ui.frame()).toContain('Crashes (3)');
  expect(ui.frame()).toMatch(/java IllegalStateException|java java\.lang\.IllegalStateException: boom/);
  await ui.press(KEY.escape);
  await ui.until('debug session');
});

it('approves the shared run configurations after a confirmation, recorded with the TUI as actor', async () => {
  const shared = join(project, '.droidwright', 'run-configurations.json');
  mkdirSync(dirname(shared), { recursive: true });
  writeFileSync(
    shared,
    `${JSON.stringify({ configurations: [{ name: 'smoke', module: ':app', variant: 'debug' }] })}\n`,
  );
  const ui = mount();
  await ui.press('5');
  await ui.until('shared run configurations: NOT APPROVED (a approves)  smoke');
  await ui.press('a');
  await ui.until('y  yes, do it');
  expect(ui.frame()).toContain('Approve the shared run configurations in');
  await ui.press('y');
  await ui.until('Approved 1 shared run configuration');
  await ui.until('shared run configurations: approved  smoke');
  const [approval] = store.query({ types: ['run_configurations.approved'], limit: 1 });
  expect(approval!.actor).toMatchObject({ kind: 'tui', pid: process.pid });
  expect(approval!.data).toMatchObject({ configurations: ['smoke'] });
  await ui.press('a');
  await ui.until('is already approved');
});

it('trusts the project after a confirmation, recorded with the TUI as actor', async () => {
  const ui = mount();
  await ui.until('untrusted');
  await ui.press('t');
  await ui.until('y  yes, do it');
  expect(ui.frame()).toContain(`Trust ${project}?`);
  await ui.press('n');
  await ui.until('Nothing done.');
  await ui.press('t', 'y');
  await ui.until(/^TRUSTED/m);
  const [grant] = store.query({ types: ['project.trusted'], limit: 1 });
  expect(grant!.actor.kind).toBe('tui');
  expect(grant!.actor.pid).toBe(process.pid);
  expect(grant!.data).toMatchObject({ root: project, confirmed: 'tui' });
});

it('cancels the running build after a confirmation, recorded with the TUI as actor', async () => {
  const ui = mount();
  await ui.press('2');
  await ui.until('▶ b-running');
  await ui.press('c');
  await ui.until('Cancel build b-running');
  await ui.press('y');
  await ui.until('Cancellation of build b-running requested');
  const [request] = store.query({ types: ['build.cancel_requested'], limit: 1 });
  expect(request!.actor.kind).toBe('tui');
  expect(request!.data).toMatchObject({ build_id: 'b-running', via: 'tui' });
});

/** Sends a command to the appender and waits for its answer line. */
async function tell(command: string, answer: RegExp): Promise<void> {
  const before = childOutput.length;
  child.stdin!.write(`${command}\n`);
  await waitFor(() => answer.test(childOutput.slice(before)), { what: `the appender answering ${command}` });
}

it('tails the device log pidcat-style from logcat.db, mine by default, with p, d, / and following', async () => {
  await tell('log emulator-5554 com.example.demo I ActivityManager Start proc 4242:com.example.demo', /line \d+/);
  await tell('log emulator-5554 com.other.app D OtherTag a line of another app', /line \d+/);
  await tell('log emulator-5554 com.example.demo E AndroidRuntime FATAL EXCEPTION: main', /line \d+/);
  await tell('log emulator-5556 com.example.demo W Choreographer Skipped 42 frames', /line \d+/);
  const ui = mount(dashboardLogSource(container));
  await ui.press('6');
  await ui.until('package mine');
  await ui.until('FATAL EXCEPTION: main');
  // Oldest first, newest at the bottom, as a tail; another app's line is not "mine".
  expect(ui.frame()).toMatch(/ActivityManager\s+I\s+Start proc 4242[\s\S]*AndroidRuntime\s+E\s+FATAL EXCEPTION: main/);
  expect(ui.frame()).not.toContain('another app');
  expect(ui.frame()).toContain('emulator-5554 (d: 1 more)');
  expect(ui.frame()).toContain('▼ following');

  // A line appended by another process arrives at the bottom while following.
  await tell('log emulator-5554 com.example.demo I MainActivity resumed after the first batch', /line \d+/);
  await ui.until('resumed after the first batch');

  await ui.press('p');
  await ui.until('package all');
  await ui.until('a line of another app');
  await ui.press('/', ...'level:E', KEY.enter);
  await ui.until('/level:E');
  await waitFor(() => !ui.frame().includes('Start proc'), { what: 'the level filter applied' });
  expect(ui.frame()).toContain('FATAL EXCEPTION: main');
  await ui.press(KEY.escape);
  await ui.until('Start proc');

  // k holds the list still; a new line waits until G follows the tail again.
  await ui.press('k');
  await ui.until('‖ paused (G follows)');
  await tell('log emulator-5554 com.example.demo I MainActivity arrived while paused', /line \d+/);
  await new Promise((resolve) => setTimeout(resolve, 800));
  expect(ui.frame()).not.toContain('arrived while paused');
  await ui.press('G');
  await ui.until('arrived while paused');

  await ui.press('d');
  await ui.until('Skipped 42 frames');
  expect(ui.frame()).toContain('emulator-5556');
  await ui.press(KEY.enter);
  await ui.until('com.example.demo  pid 4242');
});

it('handles every key of a chunk: keys typed fast or sent together are not lost', async () => {
  const ui = mount();
  await ui.until('REFUSED');
  // One write: panel 2, down to the failed build, Enter for its detail.
  await ui.press(`2j${KEY.enter}`);
  await ui.until('Diagnostics (1 errors, 1 warnings)');
  await ui.press(`${KEY.escape}`, `1/tool:install${KEY.enter}`);
  await ui.until('Activity*');
  expect(ui.frame()).toContain('install_apk');
  expect(ui.frame()).not.toContain('list_devices');
  // ESC and a key in one chunk (how tmux sends Escape then t): Escape clears the filter, t asks about trust.
  await ui.press(`${KEY.escape}t`);
  await ui.until('y  yes, do it');
  expect(ui.frame()).not.toContain('Activity*');
  await ui.press('n');
  await ui.until('Nothing done.');
});

it('starts and stops logcat for the selected device through LogcatStreams when it is bound, and hides it otherwise', async () => {
  const calls: string[] = [];
  let running = false;
  // A recording control in place of the worker; dashboardActions wires the real LogcatStreams the same way.
  const logcat = {
    start: async (serial: string) => {
      calls.push(`start ${serial}`);
      running = true;
      return `logcat for ${serial} started (pid 1).`;
    },
    stop: async (serial: string) => {
      calls.push(`stop ${serial}`);
      running = false;
      return `logcat for ${serial} stopped.`;
    },
    running: () => running,
  };
  const ui = mount({ actions: { ...dashboardActions(container, project), logcat } });
  await ui.press('3');
  await ui.until('l logcat on/off');
  await ui.press('l');
  await ui.until('logcat for emulator-5554 started');
  await ui.press('l');
  await ui.until('logcat for emulator-5554 stopped');
  expect(calls).toEqual(['start emulator-5554', 'stop emulator-5554']);

  const { logcat: _bound, ...withoutLogcat } = dashboardActions(container, project);
  const without = mount({ actions: withoutLogcat });
  await without.press('3');
  await without.until('emulator-5554');
  expect(without.frame()).not.toContain('logcat on/off');
  await without.press('?');
  await without.until('this help');
  expect(without.frame()).not.toMatch(/^\s+l\s/m);
});

it('redraws at most once per frame however fast another process appends', async () => {
  const sources = sourcesWith();
  const model = new DashboardModel(sources);
  model.start({ verify: false });
  cleanups.push(() => {
    model.close();
    sources.stream.close();
  });
  let frames = 0;
  model.subscribe(() => frames++);
  const flood = spawn(process.execPath, [appender.path, 'flood', '2000', '2'], {
    env: { ...process.env, DROIDWRIGHT_HOME: temp.home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  trackPid(flood.pid!);
  const started = Date.now();
  let out = '';
  flood.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  await new Promise((resolve) => flood.on('exit', resolve));
  untrackPid(flood.pid!);
  const last = Number(/done (\d+)/.exec(out)?.[1]);
  await waitFor(() => model.stats().appliedSeq >= last, { what: `the model reaching seq ${last}` });
  const elapsed = Date.now() - started;
  expect(model.snapshot().activity.length).toBeGreaterThanOrEqual(500);
  expect(frames).toBeLessThanOrEqual(Math.ceil(elapsed / FRAME_MS) + 2);
});
