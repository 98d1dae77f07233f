/** A single-consumer async queue of byte chunks, used as a command's stdin. */
export class ByteQueue implements AsyncIterable<Buffer> {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private waiter: (() => void) | null = null;

  push(chunk: Buffer): void {
    if (this.ended || chunk.length === 0) return;
    this.chunks.push(chunk);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for (;;) {
      const next = this.chunks.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private wake(): void {
    const wake = this.waiter;
    this.waiter = null;
    wake?.();
  }
}

/** Reads exact byte counts from a chunked source; the sync protocol's framing ignores chunk boundaries. */
export class ByteReader {
  private readonly iterator: AsyncIterator<Buffer>;
  private buffered: Buffer[] = [];
  private length = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Resolves with exactly `n` bytes, or null when the source ends first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.length < n) {
      const next = await this.iterator.next();
      if (next.done) return null;
      this.buffered.push(next.value);
      this.length += next.value.length;
    }
    const joined = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
    const out = joined.subarray(0, n);
    const rest = joined.subarray(n);
    this.buffered = rest.length ? [rest] : [];
    this.length = rest.length;
    return out;
  }
}
