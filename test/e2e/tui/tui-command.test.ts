import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { CLI, type CliEnv, type McpTestClient, runCli, startMcpClient } from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { TmuxSession } from '../../support/tmux-session.js';
import { isAlive, waitFor } from '../../support/wait.js';

const ESC = String.fromCharCode(27);
/** Any SGR sequence (bold and inverse stay without colors), and one that sets a foreground color (30–38, 90–97). */
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`);
const COLOR_SGR = new RegExp(`${ESC}\\[([0-9;]*;)?(3[0-8]|9[0-7])[;m]`);

describe('droidwright tui in a terminal (tmux)', () => {
  const temp = createTempHome('e2e-tui');
  let env: CliEnv;
  let project: string;
  let tmux: TmuxSession | undefined;
  let mcp: McpTestClient | undefined;
  // The dashboard and the MCP server ask adb for devices; without a server of the test's own, adb would fork a
  // daemon on this port that outlives the test.
  let adb: TestAdbServer | undefined;

  const tuiEnv = (extra: Record<string, string> = {}) => ({
    DROIDWRIGHT_HOME: env.home,
    ANDROID_ADB_SERVER_PORT: String(env.adbPort),
    TERM: 'xterm-256color',
    ...extra,
  });

  beforeAll(async () => {
    adb = await startAdbServer();
    env = { home: join(temp.home, 'data'), adbPort: adb.port };
    project = createFakeGradleProject(temp.home, 'demo');
    mkdirSync(join(project, '.droidwright'));
    writeFileSync(
      join(project, '.droidwright', 'run-configurations.json'),
      `${JSON.stringify({ configurations: [{ name: 'smoke', module: ':app', variant: 'debug' }] })}\n`,
    );
  });
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    tmux?.stop();
    tmux = undefined;
  });
  afterAll(async () => {
    await adb?.stop();
    temp.cleanup();
  });

  test('without a terminal it says to run it in one and exits 2', async () => {
    const result = await runCli(env, ['tui'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/run it in a terminal/);
    expect(result.stdout).toBe('');
  });

  test('a person trusts the project from the dashboard and an MCP session sees it; keys, resize and quit', async () => {
    tmux = TmuxSession.start({ command: [process.execPath, CLI, 'tui'], cwd: project, env: tuiEnv() });
    await tmux.waitForText(/^droidwright .*demo\s+\? help · q quit$/m);
    await tmux.waitForText(/^untrusted /m);
    await tmux.waitForText(/log ✓ verified #\d+/);
    let screen = tmux.capture();
    const lines = screen.split('\n');
    // 80×24: everything fits, nothing wraps.
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(screen).toContain(' 1 Activity ');
    expect(screen).toContain('No tool calls yet');

    mcp = await startMcpClient(env, [], { cwd: project, clientName: 'e2e-agent' });
    await tmux.waitForText('MCP 1: e2e-agent 1.2.3');
    const before = await mcp.client.callTool({ name: 'get_project_info', arguments: {} });
    expect((before.structuredContent as { trusted: boolean }).trusted).toBe(false);
    await tmux.waitForText(/get_project_info\s+R ok/);
    const refused = await mcp.client.callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDebug' } });
    expect(refused.isError).toBe(true);
    await tmux.waitForText(/run_gradle_task\s+O REFUSED/);

    tmux.send('t');
    await tmux.waitForText('y  yes, do it');
    tmux.send('y');
    await tmux.waitForText(/^TRUSTED /m);
    await tmux.waitForText('Trusted ');
    const after = await mcp.client.callTool({ name: 'get_project_info', arguments: {} });
    expect((after.structuredContent as { trusted: boolean }).trusted).toBe(true);

    const db = new Database(join(env.home, 'events.db'), { readonly: true });
    try {
      const grant = db.prepare("SELECT actor, data FROM events WHERE type = 'project.trusted'").get() as {
        actor: string;
        data: string;
      };
      expect(JSON.parse(grant.actor)).toMatchObject({ kind: 'tui', pid: expect.any(Number) });
      expect(JSON.parse(grant.data)).toMatchObject({ root: project, confirmed: 'tui' });
    } finally {
      db.close();
    }

    // The project's shared run configurations, approved from the dashboard and seen approved by the MCP session.
    const listed = async () =>
      (
        (await mcp!.client.callTool({ name: 'list_run_configurations', arguments: {} })).structuredContent as {
          shared_file: { status: string };
        }
      ).shared_file.status;
    expect(await listed()).toBe('not_approved');
    tmux.send('5');
    await tmux.waitForText('shared run configurations: NOT APPROVED (a approves)  smoke');
    tmux.send('a');
    await tmux.waitForText('y  yes, do it');
    tmux.send('y');
    await tmux.waitForText('shared run configurations: approved  smoke');
    expect(await listed()).toBe('approved');

    // Panels by number, Tab and Shift-Tab; a filter; Enter and Esc; help.
    tmux.send('2');
    await tmux.waitForText('No build running.');
    tmux.send('Tab');
    await tmux.waitForText('No devices recorded yet.');
    tmux.send('BTab');
    await tmux.waitForText('No build running.');
    tmux.send('1');
    await tmux.waitForText('time     client');
    // Several keys in one send-keys reach the dashboard as one chunk of stdin: each of them counts.
    tmux.tmux('send-keys', '-t', '0', '3', '2', '/', 'outcome:refused', 'Enter');
    await tmux.waitForText('Builds*');
    tmux.tmux('send-keys', '-t', '0', 'Escape', '1', '/', 'outcome:refused', 'Enter');
    await tmux.waitForText(/ 2 Builds {2}/);
    await tmux.waitForText('Activity*');
    screen = tmux.capture();
    expect(screen).toMatch(/run_gradle_task/);
    expect(screen).not.toMatch(/get_project_info/);
    tmux.send('Enter');
    await tmux.waitForText('outcome  refused  PROJECT_NOT_TRUSTED');
    tmux.send('Escape');
    tmux.send('Escape');
    await tmux.waitForText(/get_project_info\s+R ok/);
    tmux.send('?');
    await tmux.waitForText('this help');
    tmux.send('Escape');
    await tmux.waitForText(/get_project_info\s+R ok/);

    // The title, written once (Ink's <Static>), is on the first line again after each resize, and only once.
    const whole = (rows: number) => () => {
      const text = tmux!.capture().split('\n');
      return (
        text[0]?.startsWith('droidwright ') &&
        text.filter((line) => line.startsWith('droidwright ')).length === 1 &&
        /^(TRUSTED|untrusted) /.test(text[1] ?? '') &&
        text[2]?.startsWith(' 1 Activity') &&
        // The footer on the last line but one (cut to the width at 60 columns), nothing below it.
        /q quit|…$/.test(text[rows - 2] ?? '') &&
        (text[rows - 1] ?? '') === ''
      );
    };
    tmux.resize(120, 30);
    await waitFor(whole(30), { what: 'title, status and the footer on line 29 after resizing to 120×30' });
    tmux.resize(100, 29);
    await waitFor(whole(29), { what: 'the whole screen after shrinking by one row' });
    tmux.resize(60, 15);
    await waitFor(whole(15), { what: 'the whole screen at 60×15' });
    tmux.resize(80, 24);
    await waitFor(whole(24), { what: 'the footer back on line 23 at 80×24' });
    expect(
      tmux
        .capture()
        .split('\n')
        .every((line) => line.length <= 80),
    ).toBe(true);

    const pid = tmux.panePid();
    tmux.send('q');
    await waitFor(() => tmux!.paneDead(), { what: 'droidwright tui exiting on q' });
    // It exited rather than being killed. tmux fills in the status or signal once it has reaped the child, which
    // under load can come after the pane reads dead (the child is a zombie meanwhile, and counts as gone).
    await waitFor(() => !isAlive(pid), { what: 'droidwright tui gone' });
    const ending = tmux.tmux('display-message', '-p', '-t', '0', '#{pane_dead_status} #{pane_dead_signal}').trim();
    expect(['', '0']).toContain(ending);
  });

  test('NO_COLOR turns colors off, FORCE_COLOR keeps them', async () => {
    tmux = TmuxSession.start({ command: [process.execPath, CLI, 'tui'], cwd: project, env: tuiEnv({ NO_COLOR: '1' }) });
    await tmux.waitForText(/log ✓ verified/);
    const styled = tmux.capture(true);
    expect(styled).toMatch(SGR);
    expect(styled).not.toMatch(COLOR_SGR);
    tmux.send('q');
    await waitFor(() => tmux!.paneDead(), { what: 'quit' });
    tmux.stop();

    tmux = TmuxSession.start({
      command: [process.execPath, CLI, 'tui'],
      cwd: project,
      env: tuiEnv({ NO_COLOR: '1', FORCE_COLOR: '1' }),
    });
    await tmux.waitForText(/log ✓ verified/);
    expect(tmux.capture(true)).toMatch(COLOR_SGR);
  });
});
