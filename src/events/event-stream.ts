import { Subject, filter, type Observable, type OperatorFunction } from 'rxjs';
import type { StoredEvent } from './event-definition.js';
import type { EventStore } from './event-store.js';
import { typeMatcher } from './glob.js';

export interface EventStreamOptions {
  /** How often to look for other processes' appends when no file change woke us. Default 200. */
  pollMs?: number;
  /** Deliver events after this seq first (asynchronously, so subscribers made right after creation get them). Default: only new events. */
  fromSeq?: number;
  /** Where a throwing `subscribe` handler is reported. Default: one line on stderr. */
  onSubscriberError?: (error: unknown, event: StoredEvent) => void;
}

export interface EventStream {
  /**
   * Hot: committed events in seq order, each once, from the moment of subscription (no replay).
   * RxJS keeps other subscribers running when one subscriber's callback throws, but reports that
   * error through `config.onUnhandledError`, which by default rethrows asynchronously and ends the
   * process. So either handle errors in your pipeline (`catchError`, an `error` callback and a
   * try/catch in `next`), or use `subscribe()` below, which does that for you.
   */
  readonly events$: Observable<StoredEvent>;
  /**
   * Isolated subscription: `handler` exceptions are caught and reported (never reaching RxJS or
   * other subscribers), and the subscription keeps receiving events. `types` narrows like `ofType`.
   * Returns the unsubscribe function.
   */
  subscribe(handler: (event: StoredEvent) => void, options?: { types?: readonly string[] }): () => void;
  close(): void;
}

const PAGE = 500;
/** Events delivered per tick before yielding, so a large `fromSeq` backlog cannot starve the event loop. */
const MAX_PER_TICK = 5000;

/**
 * Hot stream of committed events: this process's appends at once (via onAppended), other
 * processes' by tailing seq (a poll, woken early by the store's watchCommits: fs.watch on a SQLite
 * file, LISTEN on PostgreSQL), in seq order without duplicates.
 */
export function createEventStream(store: EventStore, options: EventStreamOptions = {}): EventStream {
  return new TailingEventStream(store, options);
}

/** Narrows a stream of events to the given types (exact names or `*` globs). */
export function ofType<D = unknown>(...types: string[]): OperatorFunction<StoredEvent, StoredEvent<D>> {
  const match = typeMatcher(types);
  return filter((event: StoredEvent): event is StoredEvent<D> => match(event.type));
}

class TailingEventStream implements EventStream {
  private readonly subject = new Subject<StoredEvent>();
  readonly events$ = this.subject.asObservable();
  /** Highest seq accepted for delivery; everything at or below it is queued or delivered. */
  private acceptedSeq: number;
  private readonly queue: StoredEvent[] = [];
  private draining = false;
  private wakeScheduled = false;
  private isClosed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly stopWatching: () => void;
  private readonly stopListening: () => void;
  private readonly onSubscriberError: (error: unknown, event: StoredEvent) => void;

  constructor(
    private readonly store: EventStore,
    options: EventStreamOptions,
  ) {
    this.onSubscriberError = options.onSubscriberError ?? reportSubscriberError;
    const last = store.lastSeq();
    this.acceptedSeq = Math.max(0, Math.min(options.fromSeq ?? last, last));
    this.stopListening = store.onAppended((event) => this.onOwnAppend(event));
    const pollMs = Math.max(10, options.pollMs ?? 200);
    this.timer = setInterval(() => this.poll(), pollMs);
    // A stream alone must not keep a CLI process alive; the TUI and servers have their own handles.
    this.timer.unref();
    this.stopWatching = store.watchCommits(() => this.wake());
    if (this.acceptedSeq < last) this.wake();
  }

  subscribe(handler: (event: StoredEvent) => void, options: { types?: readonly string[] } = {}): () => void {
    const match = options.types ? typeMatcher(options.types) : undefined;
    const subscription = this.events$.subscribe((event) => {
      if (match && !match(event.type)) return;
      try {
        handler(event);
      } catch (error) {
        try {
          this.onSubscriberError(error, event);
        } catch {
          // The reporter failing must not reach RxJS either.
        }
      }
    });
    return () => subscription.unsubscribe();
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.stopListening();
    clearInterval(this.timer);
    this.stopWatching();
    this.queue.length = 0;
    this.subject.complete();
  }

  private wake(): void {
    if (this.wakeScheduled || this.isClosed) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.poll();
    });
  }

  private onOwnAppend(event: StoredEvent): void {
    if (this.isClosed || event.seq <= this.acceptedSeq) return;
    // Another process appended in between: read the gap first so delivery stays in seq order.
    // If it cannot be read now, leave this event to the next poll, which delivers everything in order.
    if (event.seq === this.acceptedSeq + 1 || this.pull(event.seq - 1) === 'done') this.accept([event]);
    this.drain();
  }

  private poll(): void {
    if (this.isClosed) return;
    if (this.store.closed) {
      this.close();
      return;
    }
    const outcome = this.pull(Number.MAX_SAFE_INTEGER);
    this.drain();
    if (outcome === 'more') this.wake();
  }

  /** Reads committed events up to `toSeq` into the queue: all of them, some ('more' left), or none ('failed'). */
  private pull(toSeq: number): 'done' | 'more' | 'failed' {
    let read = 0;
    try {
      while (this.acceptedSeq < toSeq) {
        const page = this.store.readAfter(this.acceptedSeq, Math.min(PAGE, toSeq - this.acceptedSeq));
        this.accept(page);
        read += page.length;
        if (page.length < PAGE) return 'done';
        if (read >= MAX_PER_TICK) return 'more';
      }
      return 'done';
    } catch {
      // Locked beyond the timeout or closed underneath us: the next poll tries again (or closes).
      return 'failed';
    }
  }

  /** Ascending input; anything at or below what was already accepted is a duplicate. */
  private accept(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (event.seq <= this.acceptedSeq) continue;
      this.queue.push(event);
      this.acceptedSeq = event.seq;
    }
  }

  /** A subscriber that appends re-enters via onAppended; queuing keeps every subscriber in seq order. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let event = this.queue.shift(); event && !this.isClosed; event = this.queue.shift()) {
        try {
          this.subject.next(event);
        } catch (error) {
          // Only reachable with RxJS's deprecated synchronous error handling; keep the others going.
          this.onSubscriberError(error, event);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}

function reportSubscriberError(error: unknown, event: StoredEvent): void {
  const why = error instanceof Error ? error.message : String(error);
  process.stderr.write(`droidwright: an events$ subscriber failed on seq ${event.seq} (${event.type}): ${why}\n`);
}
