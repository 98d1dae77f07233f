import { EventQueryError } from '../events/event-query-error.js';
import { StoreUnavailableError } from '../events/store-unavailable-error.js';
import { InvalidArgumentsError, ToolError } from './errors.js';

/**
 * The event store throws its own errors (it knows nothing of tools); where one reaches a tool call it
 * becomes the error a model can act on: an unusable log is a STORE_UNAVAILABLE result, a filter the
 * store refused is invalid arguments naming the field. Anything else is returned unchanged.
 */
export function toolFacingError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return new ToolError('STORE_UNAVAILABLE', error.message);
  if (error instanceof EventQueryError)
    return new InvalidArgumentsError(error.message, 'INVALID_ARGUMENT', error.field);
  return error;
}
