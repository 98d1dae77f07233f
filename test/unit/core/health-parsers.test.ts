import { createServer, type Server } from 'node:net';
import {
  parseAdbVersion,
  parseJavaVersion,
  parseSdkDir,
  probeAdbServer,
} from '../../../src/plugins/core/services/health-checker.js';
import { freePort } from '../../support/free-port.js';

describe('health check parsing', () => {
  test('java -version output', () => {
    expect(parseJavaVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime')).toEqual({
      version: '17.0.15',
      major: 17,
    });
    expect(parseJavaVersion('java version "1.8.0_392"')).toEqual({ version: '1.8.0_392', major: 8 });
    expect(parseJavaVersion('openjdk version "21" 2023-09-19')).toEqual({ version: '21', major: 21 });
    expect(parseJavaVersion('garbage')).toBeNull();
  });

  test('adb version output', () => {
    expect(
      parseAdbVersion(
        'Android Debug Bridge version 1.0.41\nVersion 29.0.6-debian\nInstalled as /usr/lib/android-sdk/platform-tools/adb',
      ),
    ).toBe('1.0.41 (29.0.6-debian)');
    expect(parseAdbVersion('nope')).toBeNull();
  });

  test('local.properties sdk.dir with escapes', () => {
    expect(parseSdkDir('#c\nsdk.dir=/home/me/Android/Sdk\n')).toBe('/home/me/Android/Sdk');
    expect(parseSdkDir('sdk.dir=C\\:\\\\Android\\\\sdk')).toBe('C:\\Android\\sdk');
    expect(parseSdkDir('ndk.dir=/x')).toBeNull();
  });

  describe('adb server probe (host:version over TCP, never starting a server)', () => {
    let server: Server | undefined;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    test('answers OKAY with the protocol version', async () => {
      server = createServer((socket) => {
        socket.once('data', (data) => {
          expect(data.toString()).toBe('000chost:version');
          socket.end('OKAY0004001f');
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
      const port = (server.address() as { port: number }).port;
      expect(await probeAdbServer(port)).toEqual({ reachable: true, version: 31 });
    });

    test('nothing listening → unreachable', async () => {
      expect(await probeAdbServer(await freePort())).toEqual({ reachable: false, version: null });
    });
  });
});
