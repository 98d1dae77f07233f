import { mkdirSync, mkdtempSync } from 'node:fs';
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
import { ApkInstaller } from '../../../src/plugins/device-admin/services/apk-installer.js';
import { createInstallApkTool } from '../../../src/plugins/device-admin/tools/install-apk.tool.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject } from '../../support/temp-home.js';
import { androidContainer } from './support.js';
import { BuildFinished } from '../../../src/plugins/build/build.events.js';

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

  function buildFinished(buildId: string, apk: { path: string; sha256: string; size: number }) {
    ctx.append(
      BuildFinished,
      {
        build_id: buildId,
        status: 'success',
        duration_ms: 1000,
        exit_code: 0,
        signal: null,
        reason: null,
        cancelled_by: null,
        diagnostic_counts: { error: 0, warning: 0, info: 0 },
        diagnostics: [],
        diagnostics_total: 0,
        apks: [
          {
            path: apk.path,
            module: ':app',
            variant: 'debug',
            sha256: apk.sha256,
            size: apk.size,
            package: 'com.example.notes',
            version_code: 20,
            version_name: '2.0',
          },
        ],
        mappings: [],
        tests: null,
        log: { path: '/tmp/x.log', sha256: 'a'.repeat(64), bytes: 1, lines: 1, truncated_lines: 0 },
      },
      {
        stream: `build:${buildId}`,
        correlation: `build:${buildId}`,
      },
    );
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
    const live = readInstalledBuilds(ctx.store.db);
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
    const liveInstalls = readInstalledBuilds(ctx.store.db);
    const liveDevices = readDevices(ctx.store.db);
    expect(liveInstalls).toHaveLength(1);
    ctx.store.rebuildProjections([installedBuildsProjection.name, devicesProjection.name]);
    expect(readInstalledBuilds(ctx.store.db)).toEqual(liveInstalls);
    expect(readDevices(ctx.store.db)).toEqual(liveDevices);
  });

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
