/** A bad command line (unknown flag, unknown toolset, missing path). The CLI prints it and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
