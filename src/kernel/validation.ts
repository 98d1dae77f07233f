import { InvalidArgumentsError } from './errors.js';

/*
 * Shared validators for every argument that reaches a host process or the device shell. Quoting is the
 * guarantee; these checks are defence in depth and give the agent a precise reason when it is wrong.
 */

function reject(field: string, rule: string, value: unknown): never {
  const shown =
    typeof value === 'string' ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value) : String(value);
  throw new InvalidArgumentsError(`${field} ${rule} (got ${shown}).`, 'INVALID_ARGUMENT', field);
}

const SERIAL = /^[A-Za-z0-9._:-]+$/;
/** adb serials: `emulator-5554`, `192.168.1.7:5555`, `R58M12ABCDE`, mDNS names like `adb-XYZ._adb-tls-connect._tcp`. */
export function validateSerial(serial: string, field = 'device_serial'): string {
  if (typeof serial !== 'string' || serial.length === 0) reject(field, 'must be a non-empty adb serial', serial);
  if (serial.length > 128) reject(field, 'must be at most 128 characters', serial);
  if (serial.startsWith('-')) reject(field, 'must not start with "-"', serial);
  if (!SERIAL.test(serial)) reject(field, 'may contain only letters, digits, ".", "_", ":" and "-"', serial);
  return serial;
}

const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;
/** Android application ids / Java package names (`com.example.app`; `android` is valid too). */
export function validatePackageName(name: string, field = 'package'): string {
  if (typeof name !== 'string' || name.length === 0) reject(field, 'must be a non-empty package name', name);
  if (name.length > 255) reject(field, 'must be at most 255 characters', name);
  if (!PACKAGE.test(name))
    reject(
      field,
      'must be dot-separated segments that start with a letter and contain only letters, digits and "_" (e.g. com.example.app)',
      name,
    );
  return name;
}

const PERMISSION = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;
/** Fully-qualified permission names such as `android.permission.CAMERA`. */
export function validatePermission(permission: string, field = 'permission'): string {
  if (typeof permission !== 'string' || permission.length === 0)
    reject(field, 'must be a non-empty permission name', permission);
  if (permission.length > 255) reject(field, 'must be at most 255 characters', permission);
  if (!PERMISSION.test(permission))
    reject(field, 'must be a fully-qualified permission name such as android.permission.CAMERA', permission);
  return permission;
}

const GRADLE_TASK = /^[A-Za-z0-9:_.-]+$/;
/** A Gradle task path (`assembleDebug`, `:app:testDebugUnitTest`). Never a flag: a leading `-` is refused. */
export function validateGradleTaskName(task: string, field = 'task'): string {
  if (typeof task !== 'string' || task.length === 0) reject(field, 'must be a non-empty Gradle task name', task);
  if (task.length > 256) reject(field, 'must be at most 256 characters', task);
  if (task.startsWith('-')) reject(field, 'must be a task name, not a Gradle option (it starts with "-")', task);
  if (!GRADLE_TASK.test(task)) reject(field, 'may contain only letters, digits, ":", "_", "." and "-"', task);
  return task;
}

/** Largest screen coordinate accepted; far beyond any real display, small enough to reject garbage. */
export const MAX_COORDINATE = 32767;

export function validateCoordinates(
  x: number,
  y: number,
  fields: readonly [string, string] = ['x', 'y'],
): { x: number; y: number } {
  for (const [value, field] of [
    [x, fields[0]],
    [y, fields[1]],
  ] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value))
      reject(field, 'must be an integer pixel coordinate', value);
    if (value < 0 || value > MAX_COORDINATE) reject(field, `must be between 0 and ${MAX_COORDINATE}`, value);
  }
  return { x, y };
}

/** Length in Unicode code points, so an emoji counts once. */
export function validateTextLength(text: string, max: number, field = 'text'): string {
  if (typeof text !== 'string') reject(field, 'must be a string', text);
  if (text.includes('\0')) reject(field, 'must not contain NUL characters', text);
  const length = [...text].length;
  if (length > max)
    throw new InvalidArgumentsError(
      `${field} must be at most ${max} characters (got ${length}).`,
      'INVALID_ARGUMENT',
      field,
    );
  return text;
}

/**
 * Quotes one argument for the DEVICE shell (`adb shell` joins its arguments with spaces and the
 * device's sh parses the line again). Single quotes make every byte literal; a single quote itself
 * is closed, emitted inside double quotes, and reopened. The result is always exactly one word.
 */
export function quoteShellArg(s: string): string {
  if (s.includes('\0'))
    throw new InvalidArgumentsError('A shell argument must not contain NUL characters.', 'INVALID_ARGUMENT');
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}
