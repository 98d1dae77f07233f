/*
 * The device's UI Automator service as `uiautomator dump` meets it: one client at a time (a second one
 * gets "already registered", as on a phone while an instrumentation test or a uiautomator2 server runs),
 * a wait for the app to be idle that can fail, and knobs for tests to make either happen on demand.
 */

export type UiAutomatorFault =
  /** Another UI Automator client holds the service: every dump fails at once. */
  | 'already_registered'
  /** The app never settles: each dump waits `idleWaitMs`, then reports it could not get idle state. */
  | 'idle_timeout'
  /** The dump never returns (until the client hangs up). */
  | 'hang';

export const ALREADY_REGISTERED_TRACE =
  'java.lang.IllegalStateException: Error while connecting UiAutomation@3c1d2e0[id=-1, displayId=0, flags=0]\n' +
  '\tat android.app.UiAutomation.connectWithTimeout(UiAutomation.java:391)\n' +
  '\tat android.app.UiAutomation.connect(UiAutomation.java:356)\n' +
  '\tat com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java:95)\n' +
  '\tat com.android.commands.uiautomator.Launcher.main(Launcher.java:83)\n' +
  'Caused by: java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@a3c56b6already registered!\n' +
  '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3023)\n' +
  '\tat android.app.UiAutomationConnection.connect(UiAutomationConnection.java:125)\n';

export const IDLE_TIMEOUT_LINE = 'ERROR: could not get idle state.\n';

export class UiAutomatorService {
  private fault: { kind: UiAutomatorFault; remaining: number } | null = null;
  /** How long a dump takes (the accessibility tree walk of a real app takes 0.5–3 s). */
  dumpDelayMs = 0;
  /** How long a dump waits for idle before `idle_timeout` reports failure (a phone waits 10 s). */
  idleWaitMs = 0;
  private running = 0;
  /** Most dumps ever running at once: a test that two clients took turns expects 1. */
  maxConcurrent = 0;
  /** Dumps started (including refused ones). */
  dumps = 0;

  /** Makes the next `times` dumps fail as `kind` (every dump when `times` is omitted); null clears it. */
  setFault(kind: UiAutomatorFault | null, times = Number.POSITIVE_INFINITY): void {
    this.fault = kind === null ? null : { kind, remaining: times };
  }

  /** Registers a client for one dump: the fault it meets, or 'already_registered' while another dump runs. */
  begin(): UiAutomatorFault | null {
    this.dumps++;
    if (this.running > 0) return 'already_registered';
    let fault: UiAutomatorFault | null = null;
    if (this.fault && this.fault.remaining > 0) {
      fault = this.fault.kind;
      this.fault.remaining--;
      if (this.fault.remaining === 0) this.fault = null;
    }
    if (fault === 'already_registered') return fault;
    this.running++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
    return fault;
  }

  end(): void {
    this.running = Math.max(0, this.running - 1);
  }
}
