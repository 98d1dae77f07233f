import type { Logger } from './tool-definition.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function threshold(env: NodeJS.ProcessEnv): number {
  const wanted = env.DROIDWRIGHT_LOG_LEVEL as Level | undefined;
  return wanted && wanted in ORDER ? ORDER[wanted] : ORDER.info;
}

/**
 * Logs to stderr, never stdout: in `droidwright mcp` stdout carries only JSON-RPC. One line per entry;
 * `DROIDWRIGHT_LOG_LEVEL=debug` shows debug lines.
 */
export function createStderrLogger(scope: string, env: NodeJS.ProcessEnv = process.env): Logger {
  const min = threshold(env);
  const write = (level: Level, message: string, extra?: Record<string, unknown>): void => {
    if (ORDER[level] < min) return;
    let suffix = '';
    if (extra && Object.keys(extra).length > 0) {
      try {
        suffix = ` ${JSON.stringify(extra)}`;
      } catch {
        suffix = ' [unserializable details]';
      }
    }
    process.stderr.write(`droidwright ${level} [${scope}] ${message}${suffix}\n`);
  };
  return {
    debug: (message, extra) => write('debug', message, extra),
    info: (message, extra) => write('info', message, extra),
    warn: (message, extra) => write('warn', message, extra),
    error: (message, extra) => write('error', message, extra),
  };
}
