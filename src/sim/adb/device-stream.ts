/**
 * One adb stream on the device side: the host OPENed it, we answered OKAY, and from then on
 * WRTE/OKAY pairs carry the bytes. adb's flow control allows one unacknowledged WRTE per stream
 * in each direction, which is what gives a fast device backpressure from a slow reader.
 */

/** What a service (shell, exec, sync) sees of its stream. */
export interface ServiceStream {
  /** Largest payload one WRTE may carry; services that frame their output keep frames within it. */
  readonly maxPayload: number;
  /** Aborted when the host closes the stream, the connection drops or the device stops. */
  readonly signal: AbortSignal;
  /** Bytes the host writes; ends when the host closes the stream. Consume it once. */
  readonly input: AsyncIterable<Buffer>;
  /**
   * Queues bytes for the host. Resolves at once while less than a pipe's worth (64 KiB) waits for the
   * host, otherwise once the host's acknowledgements drained the queue below that. Rejects once the stream closed.
   */
  write(data: Buffer): Promise<void>;
}

export type PacketSender = (command: 'OKAY' | 'WRTE' | 'CLSE', arg0: number, arg1: number, payload?: Buffer) => void;

interface BlockedWriter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Bytes a command may have queued before its writes block, like the pipe between a command and adbd.
 * Small writes queued behind an unacknowledged WRTE leave together in the next one.
 */
const OUTPUT_HIGH_WATER = 64 * 1024;

/** Host bytes buffered beyond this delay our OKAY, so a host can't fill our memory faster than a service reads. */
const INPUT_HIGH_WATER = 1024 * 1024;

export class StreamClosedError extends Error {
  override readonly name = 'AbortError';
  constructor(reason: string) {
    super(`adb stream closed: ${reason}`);
  }
}

export class DeviceStream implements ServiceStream {
  private readonly abort = new AbortController();
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private blocked: BlockedWriter[] = [];
  private inFlight = false;
  private idleWaiters: Array<() => void> = [];

  private readonly inputQueue: Buffer[] = [];
  private inputBytes = 0;
  private inputEnded = false;
  private ackOwed = false;
  private inputWaiter: (() => void) | null = null;
  private inputTaken = false;

  /** Closed by either side: nothing more goes on the wire for this stream. */
  private closed = false;

  constructor(
    readonly localId: number,
    readonly remoteId: number,
    readonly maxPayload: number,
    private readonly send: PacketSender,
    private readonly onClosed: (stream: DeviceStream) => void,
  ) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  write(data: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new StreamClosedError('closed before the write'));
    if (data.length === 0) return Promise.resolve();
    this.queue.push(data);
    this.queuedBytes += data.length;
    this.pump();
    if (this.queuedBytes <= OUTPUT_HIGH_WATER) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.blocked.push({ resolve, reject }));
  }

  get input(): AsyncIterable<Buffer> {
    if (this.inputTaken) throw new Error('the input of an adb stream can be consumed only once');
    this.inputTaken = true;
    return { [Symbol.asyncIterator]: () => this.inputIterator() };
  }

  /** The host acknowledged our last WRTE. */
  onOkay(): void {
    this.inFlight = false;
    this.pump();
  }

  /** The host wrote to us. */
  onWrite(payload: Buffer): void {
    if (this.closed) return;
    this.inputQueue.push(payload);
    this.inputBytes += payload.length;
    if (this.inputBytes <= INPUT_HIGH_WATER) this.send('OKAY', this.localId, this.remoteId);
    else this.ackOwed = true;
    this.wakeInput();
  }

  /** The host closed the stream (or the connection went away): stop producing now. */
  onHostClose(reason: string): void {
    if (this.closed) return;
    this.finish(reason);
  }

  /** The service is done: send CLSE once every queued byte has been acknowledged. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.idle();
    if (this.closed) return;
    this.send('CLSE', this.localId, this.remoteId);
    this.finish('closed by the device');
  }

  private finish(reason: string): void {
    this.closed = true;
    const error = new StreamClosedError(reason);
    this.queue.length = 0;
    this.queuedBytes = 0;
    for (const writer of this.blocked.splice(0)) writer.reject(error);
    this.inputEnded = true;
    this.wakeInput();
    for (const wake of this.idleWaiters.splice(0)) wake();
    this.abort.abort(error);
    this.onClosed(this);
  }

  private pump(): void {
    if (this.inFlight || this.closed) return;
    if (this.queuedBytes === 0) {
      for (const wake of this.idleWaiters.splice(0)) wake();
      return;
    }
    this.inFlight = true;
    this.send('WRTE', this.localId, this.remoteId, this.takeChunk());
    if (this.queuedBytes <= OUTPUT_HIGH_WATER) for (const writer of this.blocked.splice(0)) writer.resolve();
  }

  /** Up to maxPayload queued bytes, merging small writes and splitting large ones. */
  private takeChunk(): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    let whole = 0;
    // One splice at the end: shifting a queue of thousands of tiny writes one by one is quadratic.
    while (whole < this.queue.length && size < this.maxPayload) {
      const head = this.queue[whole];
      const room = this.maxPayload - size;
      if (head.length <= room) {
        parts.push(head);
        size += head.length;
        whole++;
      } else {
        parts.push(head.subarray(0, room));
        size += room;
        this.queue[whole] = head.subarray(room);
        break;
      }
    }
    this.queue.splice(0, whole);
    this.queuedBytes -= size;
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
  }

  private idle(): Promise<void> {
    if (this.closed || (!this.inFlight && this.queuedBytes === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeInput(): void {
    const wake = this.inputWaiter;
    this.inputWaiter = null;
    wake?.();
  }

  private async *inputIterator(): AsyncGenerator<Buffer> {
    for (;;) {
      const next = this.inputQueue.shift();
      if (next) {
        this.inputBytes -= next.length;
        if (this.ackOwed && this.inputBytes <= INPUT_HIGH_WATER && !this.closed) {
          this.ackOwed = false;
          this.send('OKAY', this.localId, this.remoteId);
        }
        yield next;
        continue;
      }
      if (this.inputEnded) return;
      await new Promise<void>((resolve) => (this.inputWaiter = resolve));
    }
  }
}
