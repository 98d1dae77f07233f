import { parseSimArguments } from '../../../../src/sim/sim-command.js';

describe('droidwright sim arguments', () => {
  it('defaults to a free TCP port announced to the adb server from the environment', () => {
    expect(parseSimArguments([], { ANDROID_ADB_SERVER_PORT: '5999' })).toEqual({
      device: { androidOptions: {}, trace: false, port: 0 },
      adbPort: 5999,
      adbServer: false,
      json: false,
    });
    expect(parseSimArguments([], {}).adbPort).toBe(5037);
  });

  it('maps device flags onto the Android factory options', () => {
    const { device, adbPort } = parseSimArguments(
      [
        '--emulator-port',
        '5557',
        '--avd',
        'Pixel_7_API_34',
        '--model',
        'Pixel 7',
        '--api',
        '34',
        '--scenario',
        'app.json',
        '--locked',
        '--screen-off',
        '--seed',
        '7',
        '--trace',
        '--no-connect',
      ],
      {},
    );
    expect(device).toEqual({
      emulatorPort: 5557,
      trace: true,
      androidOptions: {
        avd: 'Pixel_7_API_34',
        model: 'Pixel 7',
        api: 34,
        scenario: 'app.json',
        locked: true,
        screenOff: true,
        seed: 7,
      },
    });
    expect(adbPort).toBeNull();
  });

  it("takes the emulator's even console port as -port does, and still the odd adb port", () => {
    expect(parseSimArguments(['--emulator-port', '5570'], {}).device).toMatchObject({ emulatorPort: 5571 });
    expect(parseSimArguments(['--emulator-port', '5571'], {}).device).toMatchObject({ emulatorPort: 5571 });
    expect(parseSimArguments(['--emulator-port', '65534'], {}).device).toMatchObject({ emulatorPort: 65535 });
    const privateServer = parseSimArguments(['--emulator-port', '5570', '--adb-server', '--json'], {});
    expect(privateServer).toMatchObject({ adbPort: null, adbServer: true, json: true });
  });

  it.each([
    [['--port', '1', '--emulator-port', '5555'], /not both/],
    [['--emulator-port', '80'], /whole number from 1024/],
    [['--adb-server', '--adb-port', '5037'], /leave out --adb-port/],
    [['--adb-server', '--no-connect'], /leave out --adb-port and --no-connect/],
    [['--port', 'abc'], /whole number/],
    [['--api', '3'], /whole number from 21/],
    [['--bogus'], /Unknown option/],
    [['stray'], /takes no arguments/],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseSimArguments(argv as string[], {})).toThrow(message);
    try {
      parseSimArguments(argv as string[], {});
    } catch (error) {
      expect((error as Error).name).toBe('UsageError');
    }
  });
});
