import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { systemActor } from '../../../src/shared/actor.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { BuildFinished, BuildStarted } from '../../../src/plugins/build/build.events.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { assembleStartedData, successfulBuildData } from '../../support/build-events.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { type McpTestClient, startMcpClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

/*
 * The installer finds its build through the lookup the build plugin binds, which every process loads:
 * serving only the device-admin tools must not lose the link.
 */
describe('install_apk with only the device-admin toolset served', () => {
  const home = createTempHome('install-link-e2e');
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;
  let mcp: McpTestClient | undefined;

  beforeAll(async () => {
    adb = await startAdbServer();
    phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  });
  afterAll(async () => {
    await mcp?.close();
    await phone?.stop();
    await adb?.stop();
    home.cleanup();
  });

  it('links the install to the build that wrote the APK', async () => {
    const project = realpathSync(createFakeGradleProject(home.home, 'notes', { applicationId: 'com.example.notes' }));
    const outputs = join(project, 'app', 'build', 'outputs', 'apk', 'debug');
    mkdirSync(outputs, { recursive: true });
    const apk = await buildTestApk({ packageName: 'com.example.notes', versionCode: 30, outDir: outputs });

    // A build recorded as the build worker records it, by a process with every plugin loaded.
    const container = createContainer(
      { home: home.home, cwd: project, readOnly: false, env: process.env },
      pluginModules,
    );
    try {
      const store = container.get<EventStoreProvider>(EventStoreProvider)();
      const meta = { stream: 'build:b-1', actor: systemActor() };
      const logPath = join(home.home, 'b-1.log');
      store.append(
        BuildStarted,
        assembleStartedData({ buildId: 'b-1', projectRoot: project, variant: 'debug', logPath }),
        meta,
      );
      const { path, sha256, size } = apk;
      const record = {
        path,
        sha256,
        size,
        module: ':app',
        variant: 'debug',
        package: 'com.example.notes',
        version_code: 30,
        version_name: null,
      };
      store.append(BuildFinished, successfulBuildData({ buildId: 'b-1', apks: [record], logPath }), meta);
    } finally {
      disposeContainer(container);
    }

    mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, [
      '--project',
      project,
      '--toolsets',
      'device-admin',
    ]);
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('install_apk');
    expect(names).not.toContain('list_build_history');
    const result = await mcp.client.callTool({
      name: 'install_apk',
      arguments: { apk_path: apk.path, device_serial: phone.serial },
    });
    expect(result.isError ? JSON.stringify(result.content) : '').toBe('');
    expect(result.structuredContent).toMatchObject({
      build_id: 'b-1',
      variant: 'debug',
      module: ':app',
      apk_sha256: apk.sha256,
    });
  });
});
