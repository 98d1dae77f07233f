import type { ShellIO } from '../../../../src/sim/simulated-android.js';
import {
  createSimulatedAndroid,
  type SimulatedAndroidHandle,
  type SimulatedAndroidOptions,
} from '../../../../src/sim/android/create-simulated-android.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  out: Buffer;
}

/** An in-memory ShellIO: collects output, feeds optional stdin, aborts on demand. */
export function memoryIO(stdin: Buffer[] = [], controller = new AbortController()) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const io: ShellIO = {
    stdin: (async function* () {
      for (const chunk of stdin) yield chunk;
    })(),
    async stdout(d) {
      out.push(Buffer.from(d));
    },
    async stderr(d) {
      err.push(Buffer.from(d));
    },
    signal: controller.signal,
  };
  return { io, controller, stdout: () => Buffer.concat(out), stderr: () => Buffer.concat(err).toString('utf8') };
}

export async function run(android: SimulatedAndroidHandle, line: string, stdin: Buffer[] = []): Promise<RunResult> {
  const m = memoryIO(stdin);
  const code = await android.exec(line, m.io, 'shell_v2');
  const out = m.stdout();
  return { code, stdout: out.toString('utf8'), stderr: m.stderr(), out };
}

/** A fake clock the test advances by hand. */
export function fakeClock(start = Date.UTC(2024, 4, 17, 10, 30, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

export function newDevice(options: SimulatedAndroidOptions = {}): SimulatedAndroidHandle {
  return createSimulatedAndroid({ backgroundLogRate: 0, ...options });
}
