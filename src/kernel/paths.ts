import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The data directory: `$DROIDWRIGHT_HOME`, else `~/.droidwright`. Always absolute. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.DROIDWRIGHT_HOME?.trim();
  return resolve(fromEnv ? fromEnv : join(homedir(), '.droidwright'));
}

export function eventsDbPath(home: string): string {
  return join(home, 'events.db');
}

/** The device log lines (logcat), kept apart from the audit log: device output, not activity. */
export function logcatDbPath(home: string): string {
  return join(home, 'logcat.db');
}

export function buildLogsDir(home: string): string {
  return join(home, 'build-logs');
}

export function settingsPath(home: string): string {
  return join(home, 'settings.json');
}
