import { detectCrashes } from '../../src/android/logcat/crash-detector.js';
import { parseLogcatText } from '../../src/android/logcat/logcat-text-parser.js';
import { createContainer, disposeContainer } from '../../src/kernel/composition-root.js';
import { pluginModules } from '../../src/plugins/index.js';
import { CrashSink } from '../../src/plugins/logcat/services/crash-sink.js';
import type { TestAdbServer } from './adb-server.js';

/**
 * What the logcat worker does with a device's stream, done once over the device's whole log: crash blocks of
 * `pkg` through the detector into the crash sink, so a test gets the crash events without a running worker.
 * Returns how many crashes were recorded.
 */
export async function recordDeviceCrashes(
  adb: TestAdbServer,
  serial: string,
  pkg: string,
  where: { home: string; project: string },
): Promise<number> {
  const dump = await adb.adb(['-s', serial, 'logcat', '-d', '-v', 'threadtime', '-b', 'main,system,crash']);
  const { entries } = parseLogcatText(dump.stdout, { year: new Date().getUTCFullYear() });
  const reports = detectCrashes(entries).filter((r) => r.package === pkg);
  const container = createContainer(
    { home: where.home, cwd: where.project, readOnly: false, env: process.env },
    pluginModules,
  );
  try {
    const sink = container.get<CrashSink>(CrashSink);
    for (const report of reports) sink.record(serial, report, { first: null, last: null });
  } finally {
    disposeContainer(container);
  }
  return reports.length;
}
