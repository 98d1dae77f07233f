import { EventStore } from '../../../src/events/event-store.js';
import { AppInstalled } from '../../../src/plugins/device-admin/device-admin.events.js';
import { installedBuildsProjection } from '../../../src/plugins/device-admin/installed-builds.projection.js';
import { InstalledBuildIndex } from '../../../src/plugins/device-admin/services/installed-build-index.js';
import type { Actor } from '../../../src/shared/actor.js';
import { removeTempDirs, tempStorePath } from '../../support/event-store-fixtures.js';
import { pluginCatalog } from '../../support/projection-spec.js';

// A crash is tied to the build its recorder finds installed on the device: on a log shared by two laptops,
// laptop B's emulator-5554 is not laptop A's, so B's crash must never be tied to the build A installed.
describe('InstalledBuildIndex on a log shared by two machines', () => {
  const saved = process.env.DROIDWRIGHT_HOST;
  let store: EventStore;
  beforeEach(() => {
    store = EventStore.open({
      path: tempStorePath(),
      catalog: pluginCatalog(),
      projections: [installedBuildsProjection],
    });
  });
  afterEach(() => {
    store.close();
    if (saved === undefined) delete process.env.DROIDWRIGHT_HOST;
    else process.env.DROIDWRIGHT_HOST = saved;
  });
  afterAll(() => removeTempDirs());

  const install = (host: string | undefined, buildId: string, versionCode: number) => {
    const agent: Actor = { kind: 'agent', session: 's', client: 'jest', pid: process.pid };
    const actor = host === undefined ? agent : { ...agent, host };
    store.append(
      AppInstalled,
      {
        device_serial: 'emulator-5554',
        package: 'com.example.notes',
        apk_path: `/work/${buildId}/app-debug.apk`,
        apk_sha256: String(versionCode).repeat(64),
        apk_size: 1000,
        version_code: versionCode,
        version_name: null,
        build_id: buildId,
        module: ':app',
        variant: 'debug',
        duration_ms: 10,
      },
      { stream: 'device:emulator-5554', device: 'emulator-5554', package: 'com.example.notes', actor },
    );
  };
  const installedOn = (host: string) => {
    process.env.DROIDWRIGHT_HOST = host;
    return new InstalledBuildIndex(() => store).installedBuild('emulator-5554', 'com.example.notes')?.buildId ?? null;
  };

  it('answers each machine with its own install, and with an install from before hosts until it installs again', () => {
    install(undefined, 'b-old', 1);
    expect(installedOn('laptop-a')).toBe('b-old');
    install('laptop-a', 'b-a', 2);
    expect(installedOn('laptop-a')).toBe('b-a');
    expect(installedOn('laptop-b')).toBe('b-old');
    install('laptop-b', 'b-b', 3);
    expect([installedOn('laptop-a'), installedOn('laptop-b'), installedOn('laptop-c')]).toEqual([
      'b-a',
      'b-b',
      'b-old',
    ]);
    const rows = () => store.prepareRead('SELECT * FROM installed_builds ORDER BY host').all();
    const live = rows();
    expect(live).toHaveLength(3);
    store.rebuildProjections(['installed_builds']);
    expect(rows()).toEqual(live);
  });
});
