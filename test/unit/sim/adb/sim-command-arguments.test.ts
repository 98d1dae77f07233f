import { parseSimArguments } from '../../../../src/sim/sim-command.js';

describe('droidwright sim arguments', () => {
  it('defaults to a free TCP port announced to the adb server from the environment', () => {
    expect(parseSimArguments([], { ANDROID_ADB_SERVER_PORT: '5999' })).toEqual({
      device: { androidOptions: {}, trace: false, port: 0 },
      adbPort: 5999,
      help: false,
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

  it.each([
    [['--port', '1', '--emulator-port', '5555'], /not both/],
    [['--emulator-port', '5554'], /must be odd/],
    [['--port', 'abc'], /whole number/],
    [['--api', '3'], /whole number from 21/],
    [['--bogus'], /Unknown option/],
    [['stray'], /positional/i],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseSimArguments(argv as string[], {})).toThrow(message);
    try {
      parseSimArguments(argv as string[], {});
    } catch (error) {
      expect((error as Error).name).toBe('UsageError');
    }
  });
});
