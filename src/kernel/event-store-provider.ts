import type { EventStore } from '../events/event-store.js';

/**
 * Opens the event store on first call and returns the same instance afterwards. Inject this instead of
 * the store itself where a broken or locked database must not stop the object from being built
 * (toolsets, the MCP adapter): the failure then surfaces on use, as STORE_UNAVAILABLE.
 */
export const EventStoreProvider = Symbol.for('droidwright.EventStoreProvider');
export type EventStoreProvider = () => EventStore;
