import type { StoredEvent } from './event-definition.js';

/**
 * The onAppended listeners of one store and their delivery, shared by every store so they agree on
 * what a listener sees: this process's commits, after commit, in seq order, each listener isolated
 * from the others' failures.
 */
export class AppendedListeners {
  private readonly listeners = new Set<(e: StoredEvent) => void>();
  private readonly queue: StoredEvent[] = [];
  private delivering = false;

  constructor(private readonly onListenerError: (error: unknown, event: StoredEvent) => void) {}

  add(listener: (e: StoredEvent) => void): () => void {
    // Wrapped, so registering the same function twice gives two independent registrations.
    const entry = (e: StoredEvent) => listener(e);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** A listener that appends re-enters here; queuing keeps every listener seeing events in seq order. */
  deliver(events: readonly StoredEvent[]): void {
    this.queue.push(...events);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let e = this.queue.shift(); e; e = this.queue.shift()) {
        for (const listener of [...this.listeners]) {
          try {
            listener(e);
          } catch (error) {
            try {
              this.onListenerError(error, e);
            } catch {
              // A failing error reporter must not break the append either.
            }
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
