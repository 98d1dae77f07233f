import 'reflect-metadata';
import { Container } from 'inversify';
import { androidModule } from '../../../src/android/android.module.js';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore } from '../../../src/events/event-store.js';
import type { EventAppender } from '../../../src/events/event-definition.js';
import { systemActor } from '../../../src/shared/actor.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { ProcessRunner } from '../../../src/kernel/process-runner.js';
import { SelectedProject, type ProjectSelection } from '../../../src/kernel/project-selection.js';
import { RuntimeOptions } from '../../../src/kernel/runtime-options.js';
import { Settings } from '../../../src/kernel/settings.js';
import { deviceEvents } from '../../../src/android/device.events.js';
import { devicesProjection } from '../../../src/android/devices.projection.js';
import { deviceAdminModule } from '../../../src/plugins/device-admin/device-admin.module.js';
import { deviceAdminEvents } from '../../../src/plugins/device-admin/device-admin.events.js';
import { installedBuildsProjection } from '../../../src/plugins/device-admin/installed-builds.projection.js';
import type { ExecutedCommand } from '../../../src/sim/android/shell/command.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { EXIT_SENTINEL } from '../../../src/android/adb-service.js';
import { buildEvents } from '../../../src/plugins/build/build.events.js';
import { buildHistoryProjection } from '../../../src/plugins/build/build-history.projection.js';
import { BuildArtifactIndex } from '../../../src/plugins/build/services/build-artifact-index.js';
import { BuildArtifactLookup } from '../../../src/kernel/build-artifact-lookup.js';

/**
 * A throwaway container with the Android services and the device-admin plugin against a real SQLite file,
 * plus the build history and the artifact lookup the build plugin binds (unless `withoutBuildLookup`).
 */
export function androidContainer(opts: {
  home: string;
  adbPort: number;
  project?: ProjectSelection;
  env?: NodeJS.ProcessEnv;
  withoutBuildLookup?: boolean;
}) {
  const container = new Container({ defaultScope: 'Singleton' });
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(opts.adbPort), ...opts.env };
  container
    .bind(RuntimeOptions)
    .toConstantValue({ home: opts.home, cwd: opts.home, readOnly: false, env } satisfies RuntimeOptions);
  container.bind(Settings).toSelf().inSingletonScope();
  container.bind(ProcessRunner).toSelf().inSingletonScope();
  container.bind(SelectedProject).toConstantValue(opts.project ?? { root: null, selectedBy: 'none' });
  const store = EventStore.open({
    path: `${opts.home}/events.db`,
    catalog: new EventCatalog([...deviceEvents, ...deviceAdminEvents, ...buildEvents]),
    projections: [devicesProjection, installedBuildsProjection, buildHistoryProjection],
  });
  container.bind(EventStoreProvider).toConstantValue(() => store);
  if (!opts.withoutBuildLookup) container.bind(BuildArtifactLookup).to(BuildArtifactIndex).inSingletonScope();
  container.load(androidModule, deviceAdminModule);
  const append: EventAppender = (definition, data, meta) =>
    store.append(definition, data, { ...meta, actor: meta.actor ?? systemActor() });
  return { container, store, append };
}

/** The commands a device ran, minus the exit-status echo droidwright appends to each. */
export function commandsRun(device: RunningSimulatedDevice, since = 0): (readonly string[])[] {
  const log = (device.android as unknown as { commandLog: readonly ExecutedCommand[] }).commandLog;
  return log
    .slice(since)
    .map((c) => c.argv)
    .filter((argv) => !(argv[0] === 'echo' && argv[1]?.startsWith(EXIT_SENTINEL)));
}

export function commandCount(device: RunningSimulatedDevice): number {
  return (device.android as unknown as { commandLog: readonly ExecutedCommand[] }).commandLog.length;
}
