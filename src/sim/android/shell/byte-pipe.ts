/** An in-process pipe between two commands of a pipeline: unbounded, ordered, and breakable by its reader. */
export class BytePipe implements AsyncIterable<Buffer> {
  private readonly chunks: Buffer[] = [];
  private closed = false;
  private wake: (() => void) | null = null;
  private readonly broken = new AbortController();

  /** Aborted when the reading side is done (the writer's SIGPIPE). */
  get brokenSignal(): AbortSignal {
    return this.broken.signal;
  }

  write(data: Buffer | string): void {
    if (this.closed || this.broken.signal.aborted) return;
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.notify();
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  breakPipe(): void {
    this.chunks.length = 0;
    this.broken.abort();
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      if (this.chunks.length > 0) {
        yield this.chunks.shift()!;
        continue;
      }
      if (this.closed || this.broken.signal.aborted) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

export async function readAll(stream: AsyncIterable<Buffer>, signal?: AbortSignal): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) {
    parts.push(chunk);
    if (signal?.aborted) break;
  }
  return Buffer.concat(parts);
}

/** Splits a byte stream into text lines (without the newline); a final unterminated line is yielded too. */
export async function* readLines(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stream) {
    rest += chunk.toString('utf8');
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, nl);
      rest = rest.slice(nl + 1);
    }
  }
  if (rest) yield rest;
}

export const EMPTY_STDIN: AsyncIterable<Buffer> = {
  async *[Symbol.asyncIterator]() {},
};
