import { createServer } from 'node:net';

/** True when `port` can be bound on 127.0.0.1 right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export { freePort } from '../../src/android/adb-server-process.js';

/**
 * An odd port in adb's emulator scan range (5555–5585) whose console port (port-1) is free too.
 * Starts at a random slot so parallel test files rarely race for the same pair.
 */
export async function freeOddEmulatorPort(): Promise<number> {
  const slots = 16;
  const start = Math.floor(Math.random() * slots);
  for (let i = 0; i < slots; i++) {
    const port = 5555 + 2 * ((start + i) % slots);
    if ((await isPortFree(port)) && (await isPortFree(port - 1))) return port;
  }
  throw new Error('No free emulator port pair in 5554–5585; stop running emulators or simulated devices.');
}
