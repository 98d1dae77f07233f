import type { ShellIO, ShellMode, SimulatedAndroid } from '../../../src/sim/simulated-android.js';

/** Wraps an Android to count commands still running, so a test can see a closed stream end its command. */
export function countingAndroid<A extends SimulatedAndroid>(inner: A): A & { readonly running: number } {
  let running = 0;
  const wrapper = Object.create(inner) as A & { running: number };
  Object.defineProperty(wrapper, 'running', { get: () => running });
  wrapper.exec = async (commandLine: string, io: ShellIO, mode: ShellMode) => {
    running++;
    try {
      return await inner.exec(commandLine, io, mode);
    } finally {
      running--;
    }
  };
  return wrapper;
}
