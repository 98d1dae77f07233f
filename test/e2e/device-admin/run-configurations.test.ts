/**
 * Run configurations through the real MCP client, the built CLI, a real adb server and the simulated phone, on
 * the demo project with the stand-in Gradle: run_run_configuration builds, installs and launches in one call
 * (phases as progress, the install recorded naming the configuration); a shared configuration is refused until
 * the user approves the file and again once it is edited; an AVD target that no emulator runs tells the agent to
 * call launch_avd and builds nothing; build_run_configuration returns the APK it wrote, or the current one when
 * Gradle wrote none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { invocations, replayCapture, setScenario } from '../../integration/build/fixture-project.js';
import { type CliEnv, type McpTestClient, runCli } from '../../support/mcp-client.js';
import { type NotesAppSession, startNotesAppSession } from '../../support/notes-app-session.js';
import { createTempHome } from '../../support/temp-home.js';
import { waitFor } from '../../support/wait.js';

const PACKAGE = 'com.example.notes';

type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

function data(result: Result): Record<string, any> {
  expect(result.isError ? JSON.stringify(result.content) : '').toBe('');
  return result.structuredContent!;
}

function refusal(result: Result): { code: unknown; message: string } {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result.structuredContent)}`);
  return { code: result._meta?.error_code, message: result.content.map((c) => c.text ?? '').join('\n') };
}

describe('run configurations over MCP', () => {
  const temp = createTempHome('runconfig-e2e');
  let phone: RunningSimulatedDevice;
  let mcp: McpTestClient | undefined;
  let env: CliEnv;
  let project: string;
  let session: NotesAppSession | undefined;

  const sharedPath = () => join(project, '.droidwright', 'run-configurations.json');
  const writeShared = (configurations: unknown[]) => {
    mkdirSync(join(project, '.droidwright'), { recursive: true });
    writeFileSync(sharedPath(), `${JSON.stringify({ configurations }, null, 2)}\n`);
  };
  const call = async (name: string, args: Record<string, unknown> = {}, options: Record<string, unknown> = {}) =>
    (await mcp!.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...options })) as Result;

  beforeAll(async () => {
    session = await startNotesAppSession(temp.home, (copy) => {
      project = copy;
      writeShared([
        {
          name: 'notes-screen',
          module: ':app',
          variant: 'debug',
          launch: { activity: '.NotesActivity' },
          target: 'ask',
        },
        { name: 'tablet', module: ':app', variant: 'debug', target: { avd: 'Tablet_API_35' } },
      ]);
    });
    ({ phone, env, project, mcp } = session);
  }, 60_000);

  afterAll(async () => {
    await session?.stop();
    temp.cleanup();
  });

  it('lists derived and shared configurations with their plans on the devices adb sees', async () => {
    const list = data(await call('list_run_configurations'));
    expect(list.shared_file).toMatchObject({ status: 'not_approved' });
    expect(list.shared_file.approve_command).toBe(`droidwright runconfig approve --project ${project}`);
    const byName = Object.fromEntries((list.configurations as Record<string, any>[]).map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['notes-screen', 'tablet', 'app-debug', 'app-release']);
    expect(byName['app-debug']).toMatchObject({
      task: ':app:assembleDebug',
      package: PACKAGE,
      shared: false,
      device_serial: phone.serial,
    });
    expect(byName['app-debug'].plan).toContain(`on ${phone.serial} (the only online device)`);
    expect(byName['notes-screen']).toMatchObject({
      approval: 'not_approved',
      error_code: 'CONFIGURATION_NOT_APPROVED',
    });
  });

  it('refuses an unapproved shared configuration before building anything', async () => {
    const error = refusal(await call('run_run_configuration', { name: 'notes-screen' }));
    expect(error.code).toBe('CONFIGURATION_NOT_APPROVED');
    expect(error.message).toContain('has not approved');
    expect(error.message).toContain(`droidwright runconfig approve --project ${project}`);
    expect(invocations(project)).toEqual([]);
  });

  it('builds, installs and launches a derived configuration in one call, each phase a progress step', async () => {
    const progress: { progress: number; message?: string }[] = [];
    const run = data(
      await call('run_run_configuration', { name: 'app-debug' }, { onprogress: (p: any) => progress.push(p) }),
    );
    expect(run).toMatchObject({
      configuration: 'app-debug',
      device_serial: phone.serial,
      device_chosen_by: 'only_device',
      task: ':app:assembleDebug',
      package: PACKAGE,
      apk_written_by_this_build: true,
      launch: 'default',
      logcat_filter: 'package:mine',
    });
    expect(run.component).toMatch(/^com\.example\.notes\//);
    expect(typeof run.total_ms).toBe('number');
    const phases = progress.map((p) => p.message?.split(':')[0]);
    expect(phases[0]).toBe('building');
    expect(phases).toEqual(expect.arrayContaining(['installing', 'launching', 'done']));
    expect(phases.indexOf('installing')).toBeLessThan(phases.indexOf('launching'));
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);

    const events = data(
      await call('query_events', {
        types: ['run_configuration.*', 'app.installed', 'app.launched', 'build.finished'],
        verbose: true,
        limit: 10,
      }),
    ).events as Record<string, any>[];
    const types = events.map((e) => e.type).reverse();
    expect(types).toEqual([
      'run_configuration.started',
      'build.finished',
      'app.installed',
      'app.launched',
      'run_configuration.finished',
    ]);
    const installed = events.find((e) => e.type === 'app.installed')!;
    expect(installed.data).toMatchObject({ run_configuration: 'app-debug', build_id: run.build_id, package: PACKAGE });
    expect(events.find((e) => e.type === 'run_configuration.finished')!.data).toMatchObject({ outcome: 'done' });

    // The device it ran on is now its "last used" one.
    const list = data(await call('list_run_configurations', { name: 'app-debug' }));
    expect(list.configurations[0]).toMatchObject({ last_device: phone.serial, device_serial: phone.serial });
    expect(list.configurations[0].plan).toContain('(last used)');
  }, 180_000);

  it('never starts an emulator: an AVD target that is not running tells the agent to call launch_avd', async () => {
    expect((await runCli(env, ['runconfig', 'approve', '--yes', '--project', project])).code).toBe(0);
    const before = invocations(project).length;
    const error = refusal(await call('run_run_configuration', { name: 'tablet' }));
    expect(error.code).toBe('AVD_NOT_RUNNING');
    expect(error.message).toContain('Call launch_avd with name "Tablet_API_35"');
    expect(invocations(project).length).toBe(before);
    const list = data(await call('list_run_configurations', { name: 'tablet' }));
    expect(list.configurations[0]).toMatchObject({
      approval: 'approved',
      error_code: 'AVD_NOT_RUNNING',
      hint: 'call launch_avd {"name": "Tablet_API_35"}',
    });
  });

  it('runs an approved shared configuration, and refuses it again once the file is edited', async () => {
    const run = data(await call('run_run_configuration', { name: 'notes-screen', device_serial: phone.serial }));
    expect(run).toMatchObject({ device_chosen_by: 'argument', component: `${PACKAGE}/.NotesActivity` });

    writeShared([
      { name: 'notes-screen', module: ':app', variant: 'debug', launch: { deep_link: 'https://evil.example/x' } },
    ]);
    const before = invocations(project).length;
    const error = refusal(await call('run_run_configuration', { name: 'notes-screen' }));
    expect(error.code).toBe('CONFIGURATION_NOT_APPROVED');
    expect(error.message).toMatch(/changed since cli \(pid \d+ on \S+\) approved it/);
    expect(error.message).toContain(`droidwright runconfig approve --project ${project}`);
    expect(refusal(await call('build_run_configuration', { name: 'notes-screen' })).code).toBe(
      'CONFIGURATION_NOT_APPROVED',
    );
    expect(invocations(project).length).toBe(before);

    // An agent's own shell cannot approve it.
    const fromAgent = await runCli({ ...env, extra: { CLAUDECODE: '1' } }, [
      'runconfig',
      'approve',
      '--yes',
      '--project',
      project,
    ]);
    expect(fromAgent.code).toBe(2);
    expect(fromAgent.stderr).toContain("AI coding tool's shell");
    const listed = await runCli(env, ['runconfig', 'list', '--project', project]);
    expect(listed.stdout).toContain('changed since it was approved');
    const json = JSON.parse((await runCli(env, ['runconfig', 'list', '--json', '--project', project])).stdout);
    expect(json.shared_file).toMatchObject({ status: 'stale', approved_by: expect.stringMatching(/^cli \(pid/) });
    expect(json.configurations[0]).toMatchObject({ name: 'notes-screen', launch: 'deep link https://evil.example/x' });
    expect((await runCli(env, ['runconfig'])).code).toBe(2);
  }, 180_000);

  it('builds a configuration and returns the APK it wrote, or the current one when Gradle wrote none', async () => {
    setScenario(project, 'success');
    const built = data(await call('build_run_configuration', { name: 'app-debug' }));
    expect(built).toMatchObject({ task: ':app:assembleDebug', package: PACKAGE, apk_written_by_this_build: true });
    expect(built.apk_path).toMatch(/app-debug\.apk$/);

    replayCapture(project, 'successful_build.txt');
    const again = data(await call('build_run_configuration', { name: 'app-debug' }));
    expect(again).toMatchObject({ apk_path: built.apk_path, apk_written_by_this_build: false });
    expect(again.build_id).not.toBe(built.build_id);
    expect(again.apk_note).toContain(
      `up to date and wrote no APK; this is the current one, written by build ${built.build_id}`,
    );
  }, 180_000);

  it('cancels the build when the request is cancelled, and installs nothing', async () => {
    setScenario(project, 'slow 2000');
    const since = new Date().toISOString();
    const before = invocations(project).length;
    const controller = new AbortController();
    const pending = call('run_run_configuration', { name: 'app-debug' }, { signal: controller.signal }).catch(
      (e: Error) => e,
    );
    await waitFor(async () => invocations(project).length > before);
    controller.abort('stop');
    await pending;
    const finished = await waitFor(async () => {
      const events = data(
        await call('query_events', { types: ['run_configuration.finished'], verbose: true, limit: 1 }),
      ).events as Record<string, any>[];
      return events[0]?.data.outcome === 'cancelled' && events[0];
    }, 60_000);
    expect(finished.data).toMatchObject({ configuration: 'app-debug', outcome: 'cancelled', install_ms: null });
    const installs = data(await call('query_events', { types: ['app.installed'], since, limit: 5 }));
    expect(installs.events).toEqual([]);
    setScenario(project, 'success');
  }, 120_000);
});
