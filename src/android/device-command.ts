import { quoteShellArg } from '../kernel/validation.js';

/*
 * A command line for the DEVICE shell. The only way to build one is the `sh` template tag, which
 * quotes every interpolated value with the kernel's quoteShellArg: the literal parts are ours, the
 * values are hostile, and no code path can splice a value in unquoted.
 */

const BRAND: unique symbol = Symbol('DeviceCommand');

export interface DeviceCommand {
  readonly text: string;
  readonly [BRAND]: true;
}

export type DeviceCommandValue = string | number | DeviceCommand | readonly string[];

function isDeviceCommand(value: unknown): value is DeviceCommand {
  return typeof value === 'object' && value !== null && (value as DeviceCommand)[BRAND] === true;
}

function render(value: DeviceCommandValue): string {
  if (isDeviceCommand(value)) return value.text;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw new TypeError(`A device command number must be a safe integer (got ${value}).`);
    return String(value);
  }
  if (Array.isArray(value)) return value.map((v: string) => quoteShellArg(v)).join(' ');
  return quoteShellArg(value as string);
}

/** `sh\`pm grant ${pkg} ${permission}\`` → `pm grant 'com.x' 'android.permission.CAMERA'`. */
export function sh(literals: TemplateStringsArray, ...values: DeviceCommandValue[]): DeviceCommand {
  let text = literals[0]!;
  values.forEach((value, i) => {
    text += render(value) + literals[i + 1]!;
  });
  return { text, [BRAND]: true };
}

/** Joins commands with a separator literal (`; `, ` && `), keeping them device commands. */
export function joinCommands(commands: readonly DeviceCommand[], separator: '; ' | ' && ' | ' || '): DeviceCommand {
  return { text: commands.map((c) => c.text).join(separator), [BRAND]: true };
}
