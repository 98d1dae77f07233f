import type { EventAppender } from '../events/event-definition.js';
import type { Actor } from '../shared/actor.js';
import type { EventStoreProvider } from './event-store-provider.js';
import type { Logger, ProgressUpdate, ToolContext } from './tool-definition.js';

export interface ToolContextInit {
  readonly actor: Actor;
  readonly store: EventStoreProvider;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  readonly progress?: (update: ProgressUpdate) => Promise<void>;
}

/**
 * The context a handler runs with. Used by the MCP adapter per call, and by the CLI/TUI when they run a
 * tool handler directly (with their own actor and no progress channel).
 */
export function createToolContext(init: ToolContextInit): ToolContext {
  const append: EventAppender = (definition, data, meta) =>
    init.store().append(definition, data, { ...meta, actor: meta.actor ?? init.actor });
  return {
    actor: init.actor,
    signal: init.signal ?? new AbortController().signal,
    progress: init.progress ?? (async () => {}),
    append,
    logger: init.logger,
  };
}
