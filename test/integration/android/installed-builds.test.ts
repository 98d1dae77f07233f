import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceInspector } from '../../../src/android/device-inspector.js';
import { devicesProjection, readDevices } from '../../../src/android/devices.projection.js';
import { ToolError } from '../../../src/kernel/errors.js';
import { createToolContext } from '../../../src/kernel/tool-context.js';
import { createStderrLogger } from '../../../src/kernel/logger.js';
import {
  installedBuildsProjection,
  readInstalledBuilds,
} from '../../../src/plugins/device-admin/installed-builds.projection.js';
import { buildHistoryProjection } from '../../../src/plugins/build/build-history.projection.js';
import { ApkInstaller } from '../../../src/plugins/device-admin/services/apk-installer.js';
import { createInstallApkTool } from '../../../src/plugins/device-admin/tools/install-apk.tool.js';
import { apkPathOf } from '../../../src/sim/android/package-manager.js';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { trackPid, untrackPid } from '../../support/process-tracker.js';
import { isAlive } from '../../support/wait.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject } from '../../support/temp-home.js';
import { androidContainer } from './support.js';
import { BuildFinished, BuildStarted } from '../../../src/plugins/build/build.events.js';
import { assembleStartedData, successfulBuildData } from '../../support/build-events.js';

describe('installs linked to the builds that produced them', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let ctx: ReturnType<typeof androidContainer>;
  let root: string;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
    const home = mkdtempSync(join(tmpdir(), 'droidwright-test-installs-'));
    root = createFakeGradleProject(home, 'notes', { applicationId: 'com.example.notes' });
    ctx = androidContainer({ home, adbPort: adb.port, project: { root, selectedBy: 'flag' } });
  });
  afterAll(async () => {
    ctx?.store.close();
    await device?.stop();
    await adb?.stop();
  });

  function buildFinished(
    buildId: string,
    apk: { path: string; sha256: string; size: number },
    variant = 'debug',
    project = root,
  ) {
    const meta = { stream: `build:${buildId}`, correlation: `build:${buildId}` };
    ctx.append(
      BuildStarted,
      assembleStartedData({ buildId, projectRoot: project, variant, logPath: '/tmp/x.log' }),
      meta,
    );
    const { path, sha256, size } = apk;
    const record = {
      path,
      sha256,
      size,
      module: ':app',
      variant,
      package: 'com.example.notes',
      version_code: 20,
      version_name: '2.0',
    };
    ctx.append(BuildFinished, successfulBuildData({ buildId, apks: [record], logPath: '/tmp/x.log' }), meta);
  }

  it('records the newest build that lists the APK hash, and the read model survives a rebuild', async () => {
    const outputs = join(root, 'app', 'build', 'outputs', 'apk', 'debug');
    mkdirSync(outputs, { recursive: true });
    const apk = await buildTestApk({
      packageName: 'com.example.notes',
      versionCode: 20,
      versionName: '2.0',
      outDir: outputs,
    });
    buildFinished('b-old', apk);
    buildFinished('b-new', apk);

    const tool = createInstallApkTool({
      project: { root, selectedBy: 'flag' },
      devices: ctx.container.get(DeviceInspector),
      installer: ctx.container.get(ApkInstaller),
    });
    const toolCtx = createToolContext({
      actor: { kind: 'agent', session: 's-1', client: 'test', pid: process.pid },
      store: () => ctx.store,
      logger: createStderrLogger('test'),
    });
    const result = await tool.handler({ apk_path: apk.path }, toolCtx);
    expect(result.data).toMatchObject({
      build_id: 'b-new',
      variant: 'debug',
      module: ':app',
      apk_sha256: apk.sha256,
      version_code: 20,
    });

    const [installed] = ctx.store.query({ types: ['app.installed'] });
    expect(installed).toMatchObject({
      device: device.serial,
      package: 'com.example.notes',
      correlation: 'build:b-new',
      actor: expect.objectContaining({ session: 's-1' }),
    });
    const live = readInstalledBuilds(ctx.store);
    expect(live).toEqual([
      expect.objectContaining({
        device_serial: device.serial,
        package: 'com.example.notes',
        build_id: 'b-new',
        apk_sha256: apk.sha256,
        actor_session: 's-1',
      }),
    ]);

    // An APK no build recorded installs with build_id null and replaces the row.
    const other = join(root, 'app', 'build', 'outputs', 'apk', 'other');
    mkdirSync(other, { recursive: true });
    const unknown = await buildTestApk({ packageName: 'com.example.notes', versionCode: 21, outDir: other });
    expect(
      (await tool.handler({ apk_path: unknown.path, device_serial: device.serial }, toolCtx)).data.build_id,
    ).toBeNull();

    await ctx.container.get(DeviceInspector).listDevices(toolCtx);
    const liveInstalls = readInstalledBuilds(ctx.store);
    const liveDevices = readDevices(ctx.store);
    expect(liveInstalls).toHaveLength(1);
    const apkIndex = () => ctx.store.prepareRead('SELECT * FROM build_apks ORDER BY build_id, idx').all();
    const liveIndex = apkIndex();
    expect(liveIndex).toHaveLength(2);
    ctx.store.rebuildProjections([installedBuildsProjection.name, devicesProjection.name, buildHistoryProjection.name]);
    expect(readInstalledBuilds(ctx.store)).toEqual(liveInstalls);
    expect(readDevices(ctx.store)).toEqual(liveDevices);
    expect(apkIndex()).toEqual(liveIndex);
  });

  function installTool(container = ctx.container) {
    return createInstallApkTool({
      project: { root, selectedBy: 'flag' },
      devices: container.get(DeviceInspector),
      installer: container.get(ApkInstaller),
    });
  }
  function agentContext() {
    return createToolContext({
      actor: { kind: 'agent', session: 's-2', client: 'test', pid: process.pid },
      store: () => ctx.store,
      logger: createStderrLogger('test'),
    });
  }

  it('links a hash several variants share by the installed path, and names no build rather than guess', async () => {
    const free = join(root, 'app', 'build', 'outputs', 'apk', 'free', 'debug');
    const paid = join(root, 'app', 'build', 'outputs', 'apk', 'paid', 'debug');
    const loose = join(root, 'app', 'build', 'outputs', 'copied');
    for (const dir of [free, paid, loose]) mkdirSync(dir, { recursive: true });
    const apk = await buildTestApk({ packageName: 'com.example.notes', versionCode: 22, outDir: free });
    const paidPath = join(paid, 'app-paid-debug.apk');
    const loosePath = join(loose, 'app.apk');
    copyFileSync(apk.path, paidPath);
    copyFileSync(apk.path, loosePath);
    buildFinished('b-free', apk, 'freeDebug');
    buildFinished('b-paid', { ...apk, path: paidPath }, 'paidDebug');
    // Another project's newer build of the very same bytes at the same path is not this project's build.
    buildFinished('b-elsewhere', apk, 'freeDebug', join(tmpdir(), 'another-project'));

    const tool = installTool();
    const fromFree = (await tool.handler({ apk_path: apk.path }, agentContext())).data;
    expect(fromFree).toMatchObject({ build_id: 'b-free', variant: 'freeDebug' });
    expect(fromFree.build_link_note).toBeUndefined();
    const fromPaid = (await tool.handler({ apk_path: paidPath }, agentContext())).data;
    expect(fromPaid).toMatchObject({ build_id: 'b-paid', variant: 'paidDebug' });

    const fromCopy = await tool.handler({ apk_path: loosePath }, agentContext());
    expect(fromCopy.data).toMatchObject({ build_id: null, variant: null, module: ':app', apk_sha256: apk.sha256 });
    expect(fromCopy.data.build_link_note).toMatch(/freeDebug.*b-free|paidDebug.*b-paid/);
    expect(fromCopy.summary).toContain('not linked to a build');
    const [installed] = ctx.store.query({ types: ['app.installed'], order: 'desc', limit: 1 });
    expect(installed).toMatchObject({ correlation: null, data: expect.objectContaining({ build_id: null }) });
  });

  it('installs without the build plugin bound, naming no build', async () => {
    const bare = androidContainer({
      home: mkdtempSync(join(tmpdir(), 'droidwright-test-installs-bare-')),
      adbPort: adb.port,
      project: { root, selectedBy: 'flag' },
      withoutBuildLookup: true,
    });
    try {
      const outputs = join(root, 'app', 'build', 'outputs', 'apk', 'debug');
      const apk = await buildTestApk({ packageName: 'com.example.notes', versionCode: 23, outDir: outputs });
      const result = await installTool(bare.container).handler(
        { apk_path: apk.path, device_serial: device.serial },
        createToolContext({
          actor: { kind: 'cli', pid: process.pid },
          store: () => bare.store,
          logger: createStderrLogger('test'),
        }),
      );
      expect(result.data).toMatchObject({ build_id: null, apk_sha256: apk.sha256 });
    } finally {
      bare.store.close();
    }
  });

  it('hashes, records and pushes the same bytes while the path is swapped between files and links', async () => {
    const outputs = join(root, 'app', 'build', 'outputs', 'apk', 'race');
    mkdirSync(join(outputs, 'a'), { recursive: true });
    mkdirSync(join(outputs, 'b'), { recursive: true });
    // Same package and versionCode (so every install is allowed), different bytes.
    const a = await buildTestApk({
      packageName: 'com.example.race',
      versionCode: 5,
      versionName: 'a',
      outDir: join(outputs, 'a'),
    });
    const b = await buildTestApk({
      packageName: 'com.example.race',
      versionCode: 5,
      versionName: 'bb',
      outDir: join(outputs, 'b'),
    });
    expect(a.sha256).not.toBe(b.sha256);
    const target = join(outputs, 'app-race.apk');
    copyFileSync(a.path, target);
    // A separate process flips the path, atomically each time, through: a regular file with A's bytes,
    // a link to B, a link to A.
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [a, b, target] = process.argv.slice(1);
         const stage = target + '.stage';
         const pause = new Int32Array(new SharedArrayBuffer(4));
         for (let i = 0; ; i++) {
           try { fs.rmSync(stage, { force: true }); } catch {}
           const state = i % 3;
           if (state === 0) fs.copyFileSync(a, stage);
           else fs.symlinkSync(state === 1 ? b : a, stage);
           fs.renameSync(stage, target);
           Atomics.wait(pause, 0, 0, 1);
         }`,
        a.path,
        b.path,
        target,
      ],
      { stdio: 'ignore' },
    );
    trackPid(flipper.pid!);
    const tool = installTool();
    let mismatches = 0;
    let installs = 0;
    const refusals: string[] = [];
    try {
      for (let i = 0; i < 100; i++) {
        let data: { apk_sha256: string };
        try {
          data = (await tool.handler({ apk_path: target, device_serial: device.serial }, agentContext())).data;
        } catch (error) {
          refusals.push((error as Error).message);
          continue;
        }
        installs++;
        const android = (device.android as SimulatedAndroidHandle).state;
        const received = android.fs.readFile(apkPathOf(android.packages.get('com.example.race')!))!;
        const [recorded] = ctx.store.query({ types: ['app.installed'], order: 'desc', limit: 1 });
        const receivedSha = createHash('sha256').update(received).digest('hex');
        if (receivedSha !== data.apk_sha256 || (recorded!.data as { apk_sha256: string }).apk_sha256 !== receivedSha)
          mismatches++;
      }
    } finally {
      flipper.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 50));
      if (!isAlive(flipper.pid!)) untrackPid(flipper.pid!);
    }
    process.stderr.write(`install race: ${installs} installs, ${mismatches} mismatches, ${refusals.length} refusals\n`);
    expect(mismatches).toBe(0);
    expect(installs).toBeGreaterThanOrEqual(80);
    for (const message of refusals) expect(message).toMatch(/changed while it was being opened/);
  }, 120_000);

  it('refuses to install without a project', async () => {
    const tool = createInstallApkTool({
      project: { root: null, selectedBy: 'none' },
      devices: ctx.container.get(DeviceInspector),
      installer: ctx.container.get(ApkInstaller),
    });
    const toolCtx = createToolContext({
      actor: { kind: 'cli', pid: process.pid },
      store: () => ctx.store,
      logger: createStderrLogger('test'),
    });
    await expect(tool.handler({ apk_path: '/tmp/x.apk' }, toolCtx)).rejects.toEqual(expect.any(ToolError));
    await expect(tool.handler({ apk_path: '/tmp/x.apk' }, toolCtx)).rejects.toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
  });
});
