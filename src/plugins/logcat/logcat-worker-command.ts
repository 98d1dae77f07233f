import { createContainer, disposeContainer } from '../../kernel/composition-root.js';
import { AdbService } from '../../android/adb-service.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { resolveHome } from '../../kernel/paths.js';
import { storeOption } from '../../kernel/store-location.js';
import { Settings } from '../../kernel/settings.js';
import { UsageError } from '../../kernel/usage-error.js';
import type { CommandInput } from '../../cli/command-spec.js';
import { validateSerial } from '../../kernel/validation.js';
import { pluginModules } from '../index.js';
import { CrashSink } from './services/crash-sink.js';
import { LogLineStore } from './services/log-line-store.js';
import { LogcatWorker } from './services/logcat-worker.js';

/**
 * `droidwright logcat-worker <serial>` (hidden): started detached by `LogcatStreams.ensure`, one per device. Streams
 * the device's log into the line store until asked to stop, the device stays away, nobody reads, or a signal; anything
 * it prints goes to logcat-workers/<serial>.log in the data directory.
 */
export async function runLogcatWorkerCommand({ positionals }: CommandInput): Promise<number> {
  const [serial] = positionals as [string];
  try {
    validateSerial(serial, 'serial');
  } catch (error) {
    throw new UsageError(`logcat-worker: ${(error as Error).message}`);
  }
  const home = resolveHome(process.env);
  const container = createContainer(
    { home, ...storeOption(process.env), cwd: process.cwd(), readOnly: false, env: process.env },
    pluginModules,
  );
  let code = 1;
  try {
    const lines = container.get<LogLineStore>(LogLineStore);
    const worker = new LogcatWorker({
      adb: container.get(AdbService),
      events: container.get<EventStoreProvider>(EventStoreProvider),
      lines,
      crashes: container.isBound(CrashSink) ? container.get<CrashSink>(CrashSink) : null,
      settings: container.get(Settings).get(),
    });
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
      process.on(signal, () => worker.stop('signal', `received ${signal}`));
    const outcome = await worker.run(serial);
    if (outcome) {
      process.stderr.write(
        `${new Date().toISOString()} logcat worker for ${serial} stopped (${outcome.reason}${outcome.detail ? `: ${outcome.detail}` : ''}): read ${outcome.counts.read}, stored ${outcome.counts.stored}, evicted ${outcome.counts.evicted}, dropped ${outcome.counts.dropped}\n`,
      );
      code = outcome.reason === 'error' ? 1 : 0;
    } else {
      process.stderr.write(`${new Date().toISOString()} another logcat worker streams ${serial}; this one exits.\n`);
      code = 0;
    }
    lines.close();
  } catch (error) {
    process.stderr.write(
      `${new Date().toISOString()} logcat worker for ${serial} failed: ${(error as Error).message}\n`,
    );
    code = 1;
  } finally {
    disposeContainer(container);
  }
  // Nothing this process opened (adb sockets, timers) may keep it alive after the end is recorded.
  process.exit(code);
}
