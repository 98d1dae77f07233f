/**
 * Work the process owns beyond any one request (a running build) that must finish and be recorded
 * before `droidwright mcp` exits. Bind with `bind(ShutdownParticipant).toService(...)`; the server
 * awaits every participant after the session ends and before it closes the event log.
 */
export const ShutdownParticipant = Symbol.for('droidwright.ShutdownParticipant');
export interface ShutdownParticipant {
  /**
   * `session-ended`: the client went away; let the work finish. `signal`: the process was told to stop
   * (SIGTERM/SIGINT/SIGHUP); stop the work, record that, then resolve.
   */
  shutdown(reason: 'session-ended' | 'signal'): Promise<void>;
}
