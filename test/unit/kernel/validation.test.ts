import { execFileSync } from 'node:child_process';
import { InvalidArgumentsError } from '../../../src/kernel/errors.js';
import {
  quoteShellArg,
  validateCoordinates,
  validateGradleTaskName,
  validatePackageName,
  validatePermission,
  validateSerial,
  validateTextLength,
} from '../../../src/kernel/validation.js';

function rejection(fn: () => unknown): InvalidArgumentsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    return error as InvalidArgumentsError;
  }
  throw new Error('expected a rejection');
}

describe('validators', () => {
  test('serials', () => {
    for (const ok of ['emulator-5554', '192.168.1.7:5555', 'R58M12ABCDE', 'adb-XYZ._adb-tls-connect._tcp'])
      expect(validateSerial(ok)).toBe(ok);
    for (const bad of ['', '-s', 'a b', 'x;reboot', 'a'.repeat(129), 'emu$(id)']) {
      const e = rejection(() => validateSerial(bad));
      expect(e.field).toBe('device_serial');
      expect(e.code).toBe('INVALID_ARGUMENT');
    }
  });

  test('package names', () => {
    for (const ok of ['com.example.app', 'android', 'com.example_1.App']) expect(validatePackageName(ok)).toBe(ok);
    for (const bad of ['', '1com.x', 'com..x', 'com.x;rm', 'com.x ', '.com', 'com.-x'])
      expect(rejection(() => validatePackageName(bad)).field).toBe('package');
  });

  test('permissions', () => {
    expect(validatePermission('android.permission.CAMERA')).toBe('android.permission.CAMERA');
    for (const bad of ['CAMERA', 'android.permission.CAMERA;x', '', 'a..b']) rejection(() => validatePermission(bad));
  });

  test('gradle task names refuse flags and shell characters', () => {
    for (const ok of ['assembleDebug', ':app:testDebugUnitTest', 'lint-fix', 'a.b_c'])
      expect(validateGradleTaskName(ok)).toBe(ok);
    expect(rejection(() => validateGradleTaskName('--init-script=/tmp/x')).message).toMatch(/not a Gradle option/);
    for (const bad of ['', 'a b', 'a;b', 'x'.repeat(257), '-x', 'a$b']) rejection(() => validateGradleTaskName(bad));
  });

  test('coordinates and text length', () => {
    expect(validateCoordinates(0, 32767)).toEqual({ x: 0, y: 32767 });
    expect(rejection(() => validateCoordinates(-1, 5)).field).toBe('x');
    expect(rejection(() => validateCoordinates(5, 1.5)).field).toBe('y');
    expect(rejection(() => validateCoordinates(5, 40000)).field).toBe('y');
    expect(validateTextLength('😀😀', 2)).toBe('😀😀');
    expect(rejection(() => validateTextLength('abc', 2)).message).toMatch(/at most 2/);
    expect(rejection(() => validateTextLength('a\0b', 10)).message).toMatch(/NUL/);
  });
});

describe('quoteShellArg', () => {
  const adversarial = [
    '',
    'plain',
    'two words',
    'a;reboot',
    'x && rm -rf /',
    '$(id)',
    '`id`',
    'line1\nline2',
    '-rf',
    "it's",
    "'",
    "''",
    '"double"',
    '\\back\\slash',
    'glob*?[a]',
    '日本語 ✓ émoji 😀',
    '$HOME ${PATH} $1',
    'tab\there',
    'mixed \'"$(`x`)"\' end',
  ];

  test.each(adversarial)('%j comes back as exactly one identical argument from /bin/sh', (value) => {
    const quoted = quoteShellArg(value);
    // The device shell re-parses the line; /bin/sh on the host parses it the same way.
    const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${quoted}`]);
    const args = out.toString('utf8').split('\0');
    args.pop();
    expect(args).toEqual([value]);
  });

  test('NUL is refused (it cannot be passed as an argument)', () => {
    expect(() => quoteShellArg('a\0b')).toThrow(InvalidArgumentsError);
  });
});
