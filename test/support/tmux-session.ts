import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { agentEnvironmentMarkers } from '../../src/cli/trust-evidence.js';
import { trackPid, untrackPid } from './process-tracker.js';
import { waitFor } from './wait.js';

export const TMUX = '/usr/bin/tmux';

/**
 * A tmux server of our own (a private socket, `-L`), so a test never touches anyone's sessions, with one window
 * running `command`. Stop it with `stop()`: kill-server, then its PID if it lingers.
 */
export class TmuxSession {
  readonly socket = `dw-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  private serverPid: number | null = null;

  static start(options: {
    command: readonly string[];
    cwd: string;
    env: Record<string, string>;
    columns?: number;
    rows?: number;
  }): TmuxSession {
    const session = new TmuxSession();
    // AI coding tools' shell markers would make trust refuse: the person at this terminal is the test.
    const unset = agentEnvironmentMarkers(process.env).flatMap((name) => ['-u', name]);
    const assignments = Object.entries(options.env).map(([k, v]) => `${k}=${v}`);
    const shellCommand = ['exec', 'env', ...unset, ...assignments, ...options.command].map(quote).join(' ');
    session.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      String(options.columns ?? 80),
      '-y',
      String(options.rows ?? 24),
      '-c',
      options.cwd,
      shellCommand,
    );
    session.tmux('set-option', '-g', 'remain-on-exit', 'on');
    session.serverPid = Number(session.tmux('display-message', '-p', '#{pid}').trim());
    trackPid(session.serverPid);
    return session;
  }

  tmux(...args: string[]): string {
    return execFileSync(TMUX, ['-L', this.socket, ...args], { encoding: 'utf8', timeout: 10_000 });
  }

  /** The pane's text (with `escapes`, its colors and styles as SGR sequences). */
  capture(escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', '0');
  }

  /** Keys as tmux names them ("Enter", "Tab", "BTab", "Escape", "Down") or literal text with `literal`. */
  send(keys: string, literal = false): void {
    this.tmux('send-keys', '-t', '0', ...(literal ? ['-l'] : []), keys);
  }

  async waitForText(text: string | RegExp, timeoutMs = 20_000): Promise<string> {
    let last = '';
    try {
      return await waitFor(
        () => {
          last = this.capture();
          return (typeof text === 'string' ? last.includes(text) : text.test(last)) ? last : false;
        },
        { timeoutMs, intervalMs: 100, what: `${String(text)} in the pane` },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; the pane shows:\n${last}`);
    }
  }

  panePid(): number {
    return Number(this.tmux('display-message', '-p', '-t', '0', '#{pane_pid}').trim());
  }

  paneDead(): boolean {
    return this.tmux('display-message', '-p', '-t', '0', '#{pane_dead}').trim() === '1';
  }

  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', '0', '-x', String(columns), '-y', String(rows));
  }

  stop(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
    if (this.serverPid) {
      try {
        process.kill(this.serverPid, 'SIGKILL');
      } catch {
        // Exited with kill-server.
      }
      untrackPid(this.serverPid);
    }
  }
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
