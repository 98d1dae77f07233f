import { chooseDevice } from '../../../src/android/device-selector.js';
import { ToolError } from '../../../src/kernel/errors.js';
import { InvalidArgumentsError } from '../../../src/kernel/errors.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ToolError || error instanceof InvalidArgumentsError) return error.code;
    throw error;
  }
  return 'none';
}

describe('chooseDevice', () => {
  const one = [{ serial: 'emulator-5554', state: 'device' }];
  const two = [
    { serial: 'emulator-5554', state: 'device' },
    { serial: '127.0.0.1:40001', state: 'device' },
  ];

  it('uses the only online device when no serial is given', () => {
    expect(chooseDevice(one, undefined)).toBe('emulator-5554');
    expect(chooseDevice([...one, { serial: 'X1', state: 'offline' }], undefined)).toBe('emulator-5554');
  });

  it('never guesses between several online devices', () => {
    try {
      chooseDevice(two, undefined);
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as ToolError).code).toBe('MULTIPLE_DEVICES');
      expect((error as ToolError).message).toContain('127.0.0.1:40001');
      expect((error as ToolError).message).toContain('device_serial');
    }
  });

  it('reports NO_DEVICE with a hint, naming what adb sees', () => {
    expect(codeOf(() => chooseDevice([], undefined))).toBe('NO_DEVICE');
    try {
      chooseDevice([{ serial: 'ABC', state: 'offline' }], undefined);
    } catch (error) {
      expect((error as ToolError).message).toContain('ABC (offline)');
      expect((error as ToolError).message).toMatch(/droidwright sim/);
    }
    expect(codeOf(() => chooseDevice([{ serial: 'ABC', state: 'unauthorized' }], undefined))).toBe(
      'DEVICE_UNAUTHORIZED',
    );
  });

  it('checks an explicit serial is listed and online', () => {
    expect(chooseDevice(two, '127.0.0.1:40001')).toBe('127.0.0.1:40001');
    expect(codeOf(() => chooseDevice(two, 'emulator-5556'))).toBe('DEVICE_NOT_FOUND');
    expect(codeOf(() => chooseDevice([{ serial: 'R58', state: 'offline' }], 'R58'))).toBe('DEVICE_OFFLINE');
    expect(codeOf(() => chooseDevice([{ serial: 'R58', state: 'unauthorized' }], 'R58'))).toBe('DEVICE_UNAUTHORIZED');
  });

  it('refuses hostile serials before looking at the list', () => {
    for (const bad of ['-s', 'a;id', 'a b', '$(id)', 'x\ny', '']) {
      expect(codeOf(() => chooseDevice(one, bad))).toBe('INVALID_ARGUMENT');
    }
  });
});
