import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AdbDeviceEntry } from '../../../src/android/adb-service.js';
import { loadGradleProject } from '../../../src/android/gradle-project-model.js';
import {
  assembleTask,
  deriveRunConfigurations,
  derivedName,
} from '../../../src/android/run-configurations/run-configuration.js';
import { RunConfigurationApprovals } from '../../../src/android/run-configurations/run-configuration-approvals.js';
import {
  configurationProblem,
  RunConfigurationCatalog,
} from '../../../src/android/run-configurations/run-configuration-catalog.js';
import { resolveRunTarget } from '../../../src/android/run-configurations/run-target.js';
import {
  parseSharedRunConfigurations,
  readSharedRunConfigurations,
} from '../../../src/android/run-configurations/shared-run-configurations-file.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { ToolError } from '../../../src/kernel/errors.js';
import { pluginModules } from '../../../src/plugins/index.js';
import type { Actor } from '../../../src/shared/actor.js';

const FIXTURES = resolve('test/fixtures/projects');
const person: Actor = { kind: 'cli', pid: 4242 };

function sharedFile(configurations: unknown[], extra: Record<string, unknown> = {}): Buffer {
  return Buffer.from(JSON.stringify({ configurations, ...extra }, null, 2));
}

function problemOf(bytes: Buffer | string): string {
  try {
    parseSharedRunConfigurations('/p/.droidwright/run-configurations.json', Buffer.from(bytes));
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('CONFIGURATION_INVALID');
    return (error as ToolError).message;
  }
  throw new Error('expected the file to be refused');
}

describe('derived run configurations', () => {
  it('gives one per application module and variant, named after both, with the default launch and target', () => {
    const project = loadGradleProject(join(FIXTURES, 'kts-flavors'));
    const { configurations, capped } = deriveRunConfigurations(project);
    expect(capped).toBe(false);
    const app = project.modules.find((m) => m.path === ':app')!;
    // The library module (:core) gives none: it has no APK to run.
    expect(configurations.map((c) => c.name)).toEqual(app.variants.map((v) => `app-${v.name}`));
    expect(configurations[0]).toMatchObject({
      module: ':app',
      launch: { kind: 'default' },
      target: { kind: 'last_used' },
      logcatFilter: 'package:mine',
      shared: false,
    });
  });

  it('names modules and tasks by their Gradle path', () => {
    expect(derivedName(':feature:home', 'demoDebug')).toBe('feature-home-demoDebug');
    expect(derivedName(':', 'debug')).toBe('debug');
    expect(assembleTask(':app', 'demoPlayDebug')).toBe(':app:assembleDemoPlayDebug');
    expect(assembleTask(':', 'release')).toBe('assembleRelease');
  });
});

describe('the shared file', () => {
  it('reads launches, targets and filters, with defaults for what it leaves out', () => {
    const file = parseSharedRunConfigurations(
      '/p/f.json',
      sharedFile([
        { name: 'detail', module: 'app', variant: 'debug', launch: { activity: '.NoteDetailActivity' }, target: 'ask' },
        { name: 'link', module: ':app', variant: 'debug', launch: { deep_link: ' notes://note/1 ' } },
        { name: 'pixel', module: ':app', variant: 'debug', target: { avd: 'Pixel_8_API_35' }, launch: 'none' },
        {
          name: 'phone',
          module: ':app',
          variant: 'debug',
          target: { serial: 'R58M12ABCDE' },
          logcat_filter: 'tag:Net',
        },
      ]),
    );
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file.configurations.map((c) => [c.name, c.module, c.launch, c.target, c.logcatFilter, c.shared])).toEqual([
      ['detail', ':app', { kind: 'activity', activity: '.NoteDetailActivity' }, { kind: 'ask' }, 'package:mine', true],
      ['link', ':app', { kind: 'deep_link', uri: 'notes://note/1' }, { kind: 'last_used' }, 'package:mine', true],
      ['pixel', ':app', { kind: 'none' }, { kind: 'avd', avd: 'Pixel_8_API_35' }, 'package:mine', true],
      ['phone', ':app', { kind: 'default' }, { kind: 'serial', serial: 'R58M12ABCDE' }, 'tag:Net', true],
    ]);
  });

  it.each([
    ['an unknown key', [{ name: 'a', module: ':app', variant: 'debug', lunch: 'none' }], /configurations\[0\].*lunch/],
    [
      'a flag for an activity',
      [{ name: 'a', module: ':app', variant: 'debug', launch: { activity: '-n x/.Y' } }],
      /configurations\[0\]\.launch/,
    ],
    [
      'a javascript: link',
      [{ name: 'a', module: ':app', variant: 'debug', launch: { deep_link: 'javascript:alert(1)' } }],
      /configurations\[0\]\.launch/,
    ],
    [
      'a serial with a shell word',
      [{ name: 'a', module: ':app', variant: 'debug', target: { serial: 'x; reboot' } }],
      /configurations\[0\]\.target/,
    ],
    [
      'a name used twice',
      [
        { name: 'a', module: ':app', variant: 'debug' },
        { name: 'a', module: ':app', variant: 'release' },
      ],
      /configurations\[1\]\.name: "a" is used twice/,
    ],
    ['a module path with ..', [{ name: 'a', module: '../x', variant: 'debug' }], /configurations\[0\]\.module/],
  ])('refuses %s, naming the file and the field', (_label, configurations, expected) => {
    const message = problemOf(sharedFile(configurations));
    expect(message).toContain('/p/.droidwright/run-configurations.json');
    expect(message).toMatch(expected);
  });

  it('refuses text that is not JSON without quoting it, and a missing list', () => {
    expect(problemOf('{"configurations": [ secret-token ]}')).toMatch(/not valid JSON/);
    expect(problemOf('{"configurations": [ secret-token ]}')).not.toContain('secret-token');
    expect(problemOf('{}')).toMatch(/configurations/);
  });

  describe('on disk', () => {
    let parent: string;
    let root: string;
    beforeEach(() => {
      parent = mkdtempSync(join(tmpdir(), 'droidwright-runconfig-'));
      root = join(parent, 'project');
      mkdirSync(join(root, '.droidwright'), { recursive: true });
    });
    afterEach(() => rmSync(parent, { recursive: true, force: true }));

    it('is absent when the project has none', () => {
      rmSync(join(root, '.droidwright'), { recursive: true });
      expect(readSharedRunConfigurations(root)).toBeNull();
    });

    it('refuses a link out of the project and an oversized file', () => {
      writeFileSync(join(parent, 'outside.json'), '{"configurations": []}');
      symlinkSync(join(parent, 'outside.json'), join(root, '.droidwright', 'run-configurations.json'));
      expect(() => readSharedRunConfigurations(root)).toThrow(/leads outside the project/);
      rmSync(join(root, '.droidwright', 'run-configurations.json'));
      writeFileSync(join(root, '.droidwright', 'run-configurations.json'), ' '.repeat(300 * 1024));
      expect(() => readSharedRunConfigurations(root)).toThrow(/at most 262144 are read/);
    });
  });
});

describe('approval of the shared file', () => {
  let parent: string;
  let root: string;
  let home: string;
  let container: ReturnType<typeof createContainer>;

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'droidwright-runconfig-approval-'));
    root = join(parent, 'project');
    cpSync(join(FIXTURES, 'kts-flavors'), root, { recursive: true });
    mkdirSync(join(root, '.droidwright'));
    home = join(parent, 'home');
    container = createContainer({ home, cwd: root, readOnly: false, env: process.env }, pluginModules);
  });
  afterEach(() => {
    disposeContainer(container);
    rmSync(parent, { recursive: true, force: true });
  });

  const write = (configurations: unknown[]) =>
    writeFileSync(join(root, '.droidwright', 'run-configurations.json'), sharedFile(configurations));

  it('lets a shared configuration run only while the approved content is the file’s', () => {
    const approvals = container.get(RunConfigurationApprovals);
    const catalog = container.get(RunConfigurationCatalog);
    write([{ name: 'staging', module: ':app', variant: 'demoPlayStaging', target: 'ask' }]);

    expect(approvals.state(root).status).toBe('not_approved');
    expect(() => catalog.requireRunnable(root, 'staging')).toThrow(/has not approved .*runconfig approve/s);
    // Derived configurations never need it.
    expect(catalog.requireRunnable(root, 'app-demoPlayDebug').task).toBe(':app:assembleDemoPlayDebug');

    expect(approvals.approve(root, person).recorded).toBe(true);
    expect(approvals.approve(root, person).recorded).toBe(false);
    expect(catalog.requireRunnable(root, 'staging').task).toBe(':app:assembleDemoPlayStaging');

    write([{ name: 'staging', module: ':app', variant: 'demoPlayStaging', target: 'last_used' }]);
    const state = approvals.state(root);
    expect(state.status).toBe('stale');
    let refusal: unknown;
    try {
      catalog.requireRunnable(root, 'staging');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ToolError);
    expect((refusal as ToolError).code).toBe('CONFIGURATION_NOT_APPROVED');
    expect((refusal as ToolError).message).toMatch(/changed since cli \(pid 4242\) approved it/);
    expect((refusal as ToolError).message).toContain(
      `droidwright runconfig approve --project ${state.path.replace(/\/\.droidwright.*$/, '')}`,
    );
  });

  it('refuses to approve content that changed since it was reviewed, an invalid file, or none', () => {
    const approvals = container.get(RunConfigurationApprovals);
    expect(() => approvals.approve(root, person)).toThrow(/nothing to approve/);
    write([{ name: 'a', module: ':app', variant: 'demoPlayDebug' }]);
    expect(() => approvals.approve(root, person, '0'.repeat(64))).toThrow(/changed while it was being reviewed/);
    writeFileSync(join(root, '.droidwright', 'run-configurations.json'), '{"configurations": 3}');
    expect(() => approvals.approve(root, person)).toThrow(/configurations/);
    expect(approvals.latestApproval(root)).toBeNull();
  });

  it('says which module or variant a shared configuration names that the project lacks', () => {
    write([
      { name: 'gone', module: ':app', variant: 'demoPlayNightly' },
      { name: 'lib', module: ':core', variant: 'debug' },
    ]);
    container.get(RunConfigurationApprovals).approve(root, person);
    const catalog = container.get(RunConfigurationCatalog);
    const set = catalog.load(root);
    expect(configurationProblem(set, catalog.find(set, 'gone'))?.message).toMatch(/variant "demoPlayNightly"/);
    expect(configurationProblem(set, catalog.find(set, 'lib'))?.message).toMatch(/not an application module/);
    expect(() => catalog.find(set, 'nope')).toThrow(/No run configuration named "nope".*gone, lib, app-/s);
  });
});

describe('target resolution', () => {
  const online = (serial: string): AdbDeviceEntry => ({ serial, state: 'device' }) as AdbDeviceEntry;
  const situation = {
    devices: [online('emulator-5554'), online('R58M')],
    emulatorsByAvd: new Map([['Pixel_8', 'emulator-5554']]),
    lastUsed: null,
  };

  it('never starts an emulator: an AVD nobody runs is a hint to call launch_avd', () => {
    const r = resolveRunTarget({ kind: 'avd', avd: 'Tablet' }, situation);
    expect(r).toMatchObject({ ok: false, code: 'AVD_NOT_RUNNING', hint: 'call launch_avd {"name": "Tablet"}' });
    expect(resolveRunTarget({ kind: 'avd', avd: 'Pixel_8' }, situation)).toEqual({
      ok: true,
      serial: 'emulator-5554',
      resolvedBy: 'avd',
    });
  });

  it('asks for a device when several are online, and takes the only one otherwise', () => {
    const several = resolveRunTarget({ kind: 'ask' }, situation);
    expect(several).toMatchObject({ ok: false, code: 'MULTIPLE_DEVICES' });
    expect(!several.ok && several.message).toContain('emulator-5554, R58M');
    expect(resolveRunTarget({ kind: 'ask' }, { ...situation, devices: [online('R58M')] })).toMatchObject({
      ok: true,
      serial: 'R58M',
      resolvedBy: 'only_device',
    });
    expect(resolveRunTarget({ kind: 'ask' }, { ...situation, requested: 'R58M' })).toMatchObject({
      serial: 'R58M',
      resolvedBy: 'argument',
    });
  });

  it('goes back to the last device while it is online, else acts as ask', () => {
    expect(resolveRunTarget({ kind: 'last_used' }, { ...situation, lastUsed: 'R58M' })).toMatchObject({
      serial: 'R58M',
      resolvedBy: 'last_used',
    });
    expect(resolveRunTarget({ kind: 'last_used' }, { ...situation, lastUsed: 'gone' })).toMatchObject({
      ok: false,
      code: 'MULTIPLE_DEVICES',
    });
  });

  it('refuses a device_serial other than the one a serial target names', () => {
    expect(
      resolveRunTarget({ kind: 'serial', serial: 'R58M' }, { ...situation, requested: 'emulator-5554' }),
    ).toMatchObject({
      ok: false,
      code: 'INVALID_ARGUMENT',
    });
    expect(resolveRunTarget({ kind: 'serial', serial: 'nope' }, situation)).toMatchObject({
      ok: false,
      code: 'DEVICE_NOT_FOUND',
    });
  });
});
