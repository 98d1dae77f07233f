/**
 * The event log cannot be opened or written: not a database, corrupt, locked beyond the busy
 * timeout, unwritable, disk full, closed. The store knows nothing of tools: the MCP adapter maps this
 * to an actionable `isError` result with the error code in `code`, the CLI to a one-line failure.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'STORE_UNAVAILABLE';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

const NOT_A_LOG = new Set([
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_CORRUPT_VTAB',
  'SQLITE_CORRUPT_SEQUENCE',
  'SQLITE_CORRUPT_INDEX',
]);
const NO_ACCESS = new Set([
  'SQLITE_CANTOPEN',
  'SQLITE_PERM',
  'SQLITE_AUTH',
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EEXIST',
  'EISDIR',
  'ENOENT',
]);
const NO_SPACE = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

export function isBusyError(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_');
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Turns an environment failure (file, permissions, lock, disk) into a StoreUnavailableError that says
 * what to do; returns undefined for anything else (a bug, a constraint in a projection), which the
 * caller rethrows unchanged.
 */
export function storeFailure(error: unknown, path: string, busyTimeoutMs: number): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  const code = errorCode(error);
  const why = reasonOf(error);
  if (isBusyError(error)) {
    return new StoreUnavailableError(
      `The event log ${path} stayed locked by another process for more than ${busyTimeoutMs} ms. ` +
        `Look for a hung droidwright or sqlite3 process holding it (e.g. \`fuser ${path}\`) and stop it, or retry later.`,
      error,
    );
  }
  if (NOT_A_LOG.has(code) || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreUnavailableError(
      `${path} is not a readable droidwright event log (SQLite: ${why}). ` +
        `Move the file aside (e.g. \`mv ${path} ${path}.bad\`) so a new log is created, or set DROIDWRIGHT_HOME to another directory.`,
      error,
    );
  }
  if (NO_ACCESS.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) {
    return new StoreUnavailableError(
      `Cannot open the event log ${path} for writing (${code || 'error'}: ${why}). ` +
        `Make its directory and files writable by this user, or set DROIDWRIGHT_HOME to a writable directory.`,
      error,
    );
  }
  if (NO_SPACE.has(code)) {
    return new StoreUnavailableError(
      `The disk holding the event log ${path} is full (${why}). Free some space and retry.`,
      error,
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new StoreUnavailableError(
      `Input/output error on the event log ${path} (${code}: ${why}). Check the disk and the file system, then retry.`,
      error,
    );
  }
  return undefined;
}
