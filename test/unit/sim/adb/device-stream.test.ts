import { DeviceStream } from '../../../../src/sim/adb/device-stream.js';

interface Sent {
  command: string;
  arg0: number;
  arg1: number;
  payload?: Buffer;
}

function makeStream(maxPayload = 16) {
  const sent: Sent[] = [];
  let closedCalls = 0;
  const stream = new DeviceStream(
    7,
    42,
    maxPayload,
    (command, arg0, arg1, payload) => sent.push({ command, arg0, arg1, payload }),
    () => closedCalls++,
  );
  return { stream, sent, closedCalls: () => closedCalls };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('DeviceStream flow control', () => {
  it('keeps one WRTE unacknowledged at a time and merges writes queued behind it', async () => {
    const { stream, sent } = makeStream(16);
    void stream.write(Buffer.from('a'));
    void stream.write(Buffer.from('b'));
    void stream.write(Buffer.from('c'));
    expect(sent.map((p) => p.payload?.toString())).toEqual(['a']);
    expect(sent[0]).toMatchObject({ command: 'WRTE', arg0: 7, arg1: 42 });
    stream.onOkay();
    expect(sent.map((p) => p.payload?.toString())).toEqual(['a', 'bc']);
  });

  it('splits writes larger than the host maximum', () => {
    const { stream, sent } = makeStream(4);
    void stream.write(Buffer.from('0123456789'));
    stream.onOkay();
    stream.onOkay();
    expect(sent.map((p) => p.payload?.toString())).toEqual(['0123', '4567', '89']);
  });

  it('blocks a writer once a pipe-sized backlog waits for the host', async () => {
    const { stream } = makeStream(1024);
    void stream.write(Buffer.alloc(1024));
    let resolved = false;
    void stream.write(Buffer.alloc(70 * 1024)).then(() => (resolved = true));
    await flush();
    expect(resolved).toBe(false);
    for (let i = 0; i < 10; i++) stream.onOkay();
    await flush();
    expect(resolved).toBe(true);
  });

  it('sends CLSE only after the last WRTE was acknowledged', async () => {
    const { stream, sent, closedCalls } = makeStream();
    void stream.write(Buffer.from('bye'));
    const closing = stream.close();
    await flush();
    expect(sent.map((p) => p.command)).toEqual(['WRTE']);
    stream.onOkay();
    await closing;
    expect(sent.map((p) => p.command)).toEqual(['WRTE', 'CLSE']);
    expect(sent[1]).toMatchObject({ arg0: 7, arg1: 42 });
    expect(closedCalls()).toBe(1);
    expect(stream.signal.aborted).toBe(true);
  });

  it('aborts the signal and rejects writes when the host closes', async () => {
    const { stream, sent } = makeStream(1024);
    void stream.write(Buffer.alloc(1024));
    const blocked = stream.write(Buffer.alloc(100 * 1024));
    stream.onHostClose('closed by the host');
    await expect(blocked).rejects.toThrow(/closed by the host/);
    await expect(stream.write(Buffer.from('late'))).rejects.toThrow(/closed/);
    expect(stream.signal.aborted).toBe(true);
    await stream.close();
    expect(sent.filter((p) => p.command === 'CLSE')).toHaveLength(0);
  });

  it('acknowledges host writes and delivers them in order until the host closes', async () => {
    const { stream, sent } = makeStream();
    stream.onWrite(Buffer.from('one '));
    stream.onWrite(Buffer.from('two'));
    expect(sent.filter((p) => p.command === 'OKAY')).toHaveLength(2);
    stream.onHostClose('closed by the host');
    const chunks: string[] = [];
    for await (const chunk of stream.input) chunks.push(chunk.toString());
    expect(chunks.join('')).toBe('one two');
  });

  it('holds back its OKAY while more than a megabyte of host input is unread', async () => {
    const { stream, sent } = makeStream();
    const okays = () => sent.filter((p) => p.command === 'OKAY').length;
    stream.onWrite(Buffer.alloc(1024 * 1024));
    stream.onWrite(Buffer.alloc(1024));
    expect(okays()).toBe(1);
    const iterator = stream.input[Symbol.asyncIterator]();
    await iterator.next();
    expect(okays()).toBe(2);
  });
});
