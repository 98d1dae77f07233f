import type { CrashReport } from '../../../android/logcat/crash-detector.js';

/** Where the logcat worker hands each crash, ANR or native crash it finds in a device's stream. */
export const CrashSink = Symbol.for('droidwright.logcat.CrashSink');
export interface CrashSink {
  /**
   * Records one crash as an event (`app.crashed`, `app.native_crashed` or `app.not_responding`) in the log,
   * linked to the build installed on the device. `firstLineSeq`/`lastLineSeq` are the line store's seqs of the
   * block's first and last entries (null when the lines were not stored). Never throws for a report it cannot
   * link; it records the crash without a build.
   */
  record(deviceSerial: string, report: CrashReport, lineSeqs: { first: number | null; last: number | null }): void;
}
