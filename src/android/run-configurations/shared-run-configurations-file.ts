import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { AVD_NAME } from '../avd-catalog.js';
import { validateDeepLink } from '../deep-link.js';
import { ToolError } from '../../kernel/errors.js';
import { validateSerial } from '../../kernel/validation.js';
import {
  DEFAULT_LAUNCH,
  DEFAULT_LOGCAT_FILTER,
  DEFAULT_TARGET,
  RUN_CONFIGURATION_NAME,
  type RunConfiguration,
  type RunLaunch,
  type RunTarget,
} from './run-configuration.js';

/** Where a project shares its run configurations, relative to its root (committed with the code). */
export const SHARED_FILE = join('.droidwright', 'run-configurations.json');
export const MAX_SHARED_FILE_BYTES = 256 * 1024;
export const MAX_SHARED_CONFIGURATIONS = 200;

const ACTIVITY = /^\.?[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const MODULE = /^:$|^:?[A-Za-z0-9_.-]+(?::[A-Za-z0-9_.-]+)*$/;
const VARIANT = /^[A-Za-z][A-Za-z0-9]{0,127}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A zod refinement from one of the kernel's validators (which throw with a message naming the rule). */
function validBy(check: (value: string) => unknown) {
  return (value: string, ctx: z.RefinementCtx) => {
    try {
      check(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^\S+ /, '') });
    }
  };
}

const LaunchSchema = z.union([
  z.enum(['default', 'none']),
  z.strictObject({
    activity: z
      .string()
      .max(255)
      .regex(ACTIVITY, 'must be an activity class name such as .MainActivity or com.example.app.MainActivity'),
  }),
  z.strictObject({ deep_link: z.string().superRefine(validBy((uri) => validateDeepLink(uri, 'deep_link'))) }),
]);

const TargetSchema = z.union([
  z.enum(['ask', 'last_used']),
  z.strictObject({ serial: z.string().superRefine(validBy((s) => validateSerial(s, 'serial'))) }),
  z.strictObject({
    avd: z.string().regex(AVD_NAME, 'must be an AVD name as list_avds shows it (letters, digits, . _ -)'),
  }),
]);

const ConfigurationSchema = z.strictObject({
  name: z
    .string()
    .regex(RUN_CONFIGURATION_NAME, 'must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  module: z.string().max(200).regex(MODULE, 'must be a Gradle module path such as ":app"'),
  variant: z.string().regex(VARIANT, 'must be a variant name such as "debug" or "demoDebug"'),
  launch: LaunchSchema.optional(),
  target: TargetSchema.optional(),
  logcat_filter: z
    .string()
    .max(200)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters')
    .optional(),
});

export const SharedRunConfigurationsSchema = z
  .strictObject({
    version: z.literal(1).optional(),
    configurations: z.array(ConfigurationSchema).max(MAX_SHARED_CONFIGURATIONS),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.configurations.forEach((c, i) => {
      if (seen.has(c.name))
        ctx.addIssue({ code: 'custom', path: ['configurations', i, 'name'], message: `"${c.name}" is used twice` });
      seen.add(c.name);
    });
  });

export type SharedRunConfigurationsJson = z.infer<typeof SharedRunConfigurationsSchema>;

export interface SharedRunConfigurations {
  /** Absolute path of the file. */
  readonly path: string;
  /** SHA-256 of its exact bytes: what an approval is recorded for. */
  readonly sha256: string;
  readonly configurations: readonly RunConfiguration[];
}

function invalid(path: string, message: string): ToolError {
  return new ToolError(
    'CONFIGURATION_INVALID',
    `${path}: ${message} Fix the file (its format is in the droidwright skill, section Run configurations); derived configurations still run.`,
  );
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** `configurations[2].launch.activity` from a zod issue path. */
function fieldOf(path: readonly PropertyKey[]): string {
  return (
    path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('') || '(top level)'
  );
}

function toLaunch(value: z.infer<typeof LaunchSchema> | undefined): RunLaunch {
  if (value === undefined) return DEFAULT_LAUNCH;
  if (value === 'default' || value === 'none') return { kind: value };
  if ('activity' in value) return { kind: 'activity', activity: value.activity };
  return { kind: 'deep_link', uri: value.deep_link.trim() };
}

function toTarget(value: z.infer<typeof TargetSchema> | undefined): RunTarget {
  if (value === undefined) return DEFAULT_TARGET;
  if (value === 'ask' || value === 'last_used') return { kind: value };
  if ('serial' in value) return { kind: 'serial', serial: value.serial };
  return { kind: 'avd', avd: value.avd };
}

/** Checks the file's text strictly; every problem names the file and the field. */
export function parseSharedRunConfigurations(path: string, bytes: Buffer): SharedRunConfigurations {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    // Node's message can quote the text; the position is enough to find the mistake.
    const at = /position (\d+)/.exec((error as Error).message);
    throw invalid(path, `not valid JSON${at ? ` (at byte ${at[1]})` : ''}.`);
  }
  const parsed = SharedRunConfigurationsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${fieldOf(issue.path)}: ${issue.message.slice(0, 300)}`)
      .join('; ');
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    throw invalid(path, `${problems}${more}.`);
  }
  return {
    path,
    sha256,
    configurations: parsed.data.configurations.map((c) => ({
      name: c.name,
      module: c.module.startsWith(':') ? c.module : `:${c.module}`,
      variant: c.variant,
      launch: toLaunch(c.launch),
      target: toTarget(c.target),
      logcatFilter: c.logcat_filter ?? DEFAULT_LOGCAT_FILTER,
      shared: true,
    })),
  };
}

/**
 * Reads the project's shared file: null when there is none. The file must be a regular file inside the
 * project (a link out of it is refused without reading it) and at most 256 KiB.
 */
export function readSharedRunConfigurations(projectRoot: string): SharedRunConfigurations | null {
  const path = join(projectRoot, SHARED_FILE);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw invalid(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  if (!inside(realpathSync(projectRoot), real)) throw invalid(path, `leads outside the project (to ${real}).`);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw invalid(path, `cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw invalid(path, 'is not a regular file.');
    if (stat.size > MAX_SHARED_FILE_BYTES)
      throw invalid(path, `is ${stat.size} bytes; at most ${MAX_SHARED_FILE_BYTES} are read.`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return parseSharedRunConfigurations(path, bytes.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}
