import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { logcatDbPath } from '../../kernel/paths.js';
import { RuntimeOptions } from '../../kernel/runtime-options.js';
import { Settings } from '../../kernel/settings.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { logcatEvents } from './logcat.events.js';
import { logcatTables } from './logcat-tables.js';
import {
  DetachedLogcatStreams,
  DetachedLogcatWorkerLauncher,
  LogcatWorkerLauncher,
} from './services/detached-logcat-streams.js';
import { LogcatStreams } from './services/logcat-streams.js';
import { LogcatToolset } from './logcat.toolset.js';
import { crashesProjection } from './crashes.projection.js';
import { CrashRecorder } from './services/crash-recorder.js';
import { CrashSink } from './services/crash-sink.js';
import { CrashHistory } from './services/crash-history.js';
import { CrashRetracer } from './services/crash-retracer.js';
import { LogLineStore } from './services/log-line-store.js';
import { SqliteLogLineStore } from './services/sqlite-log-line-store.js';

const logcatEventContribution: EventContribution = {
  events: () => logcatEvents,
  projections: () => [crashesProjection],
  tables: () => logcatTables,
};

export const logcatModule = new ContainerModule(({ bind }) => {
  bind(CrashRecorder).toSelf().inSingletonScope();
  bind<CrashSink>(CrashSink).toService(CrashRecorder);
  bind(CrashHistory).toSelf().inSingletonScope();
  bind(CrashRetracer).toSelf().inSingletonScope();
  bind(LogcatToolset).toSelf().inSingletonScope();
  bind<LogcatWorkerLauncher>(LogcatWorkerLauncher).to(DetachedLogcatWorkerLauncher).inSingletonScope();
  bind<LogcatStreams>(LogcatStreams).to(DetachedLogcatStreams).inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(LogcatToolset);
  bind<EventContribution>(EventContribution).toConstantValue(logcatEventContribution);
  // One store per process for the data directory's logcat.db; opened on first use, not here.
  bind(SqliteLogLineStore)
    .toDynamicValue((ctx) => {
      const settings = ctx.get(Settings);
      return new SqliteLogLineStore({
        path: logcatDbPath(ctx.get<RuntimeOptions>(RuntimeOptions).home),
        retention: () => ({
          maxLines: settings.get().logcatRetentionLines,
          maxBytes: settings.get().logcatRetentionBytes,
        }),
      });
    })
    .inSingletonScope();
  bind<LogLineStore>(LogLineStore).toService(SqliteLogLineStore);
});
