import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdbService } from '../../../src/android/adb-service.js';
import { adbHostRequest } from '../../support/adb-server.js';
import { freePort, isPortFree } from '../../support/free-port.js';
import { androidContainer } from './support.js';
import { sleep } from '../../support/wait.js';

describe('adb server discovery and start', () => {
  it('starts the server on ANDROID_ADB_SERVER_PORT when it is down, then talks to it', async () => {
    const port = await freePort();
    const home = mkdtempSync(join(tmpdir(), 'droidwright-test-adbstart-'));
    const ctx = androidContainer({ home, adbPort: port });
    try {
      expect(await ctx.container.get(AdbService).listDevices()).toEqual([]);
      expect(await isPortFree(port)).toBe(false);
    } finally {
      ctx.store.close();
      // `adb start-server` daemonizes, so its pid is not ours to signal: ask the server itself to exit.
      await adbHostRequest(port, 'host:kill', 2000).catch(() => undefined);
      const deadline = Date.now() + 5000;
      while (!(await isPortFree(port)) && Date.now() < deadline) await sleep(50);
    }
    expect(await isPortFree(port)).toBe(true);
  });

  it('is ADB_UNAVAILABLE with the reason when the server cannot be started', async () => {
    const home = mkdtempSync(join(tmpdir(), 'droidwright-test-noadb-'));
    const fakeAdb = join(home, 'adb');
    writeFileSync(
      fakeAdb,
      '#!/bin/sh\necho "could not install *smartsocket* listener: Address already in use" >&2\nexit 1\n',
    );
    chmodSync(fakeAdb, 0o755);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ adbPath: fakeAdb }));
    const ctx = androidContainer({ home, adbPort: await freePort() });
    try {
      await expect(ctx.container.get(AdbService).listDevices()).rejects.toMatchObject({
        code: 'ADB_UNAVAILABLE',
        message: expect.stringContaining('Address already in use'),
      });
    } finally {
      ctx.store.close();
    }
  });
});
