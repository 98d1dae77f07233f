/**
 * A read of the log was asked for with a filter or name the store cannot accept (a negative limit, an
 * unknown projection). `field` names the offending option so whoever reached the store through its own
 * arguments (a tool, a CLI command) can point at the argument it came from.
 */
export class EventQueryError extends Error {
  override readonly name = 'EventQueryError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}
