import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { validateGradleTaskName } from '../../../kernel/validation.js';

/*
 * What an agent may ask Gradle to do. Tasks that publish, upload, promote or uninstall act outside the
 * machine (or on the user's device data) and are refused unless the user set allowUnrestrictedGradle.
 * Gradle accepts abbreviations (`pRB` runs publishReleaseBundle when unique), so the check matches
 * camel-case word prefixes in both directions instead of comparing names.
 *
 * Options: only a fixed allow-list. Anything that points Gradle at other code or other files
 * (`--init-script`, `-I`, `-b`, `-c`, `-p`, `-D…`, `--include-build`, `-g`) or sends data elsewhere
 * (`--scan`) is refused; `--console` is ours.
 */

/** Flags passed through as they are. */
export const ALLOWED_FLAGS = [
  '--stacktrace',
  '--full-stacktrace',
  '--info',
  '--warn',
  '--quiet',
  '--offline',
  '--rerun-tasks',
  '--continue',
  '--dry-run',
  '--build-cache',
  '--no-build-cache',
  '--configuration-cache',
  '--no-configuration-cache',
  '--parallel',
  '--no-parallel',
  '--refresh-dependencies',
  '--no-daemon',
] as const;

/** `-Pkey=value`: a project property. Keys that configure Gradle, AGP or Kotlin themselves are refused (see below). */
const PROPERTY = /^-P([A-Za-z][A-Za-z0-9_.-]{0,127})=([^\0\r\n]{0,512})$/;

/**
 * Property keys that make Gradle or its plugins load or run something of the caller's choosing
 * (`android.aapt2FromMavenOverride=/any/binary`, `kotlin.daemon.jvmargs=-javaagent:…`) or change
 * Gradle itself. A project's own properties (`-PversionCode=42`) pass.
 */
const REFUSED_PROPERTY_KEYS = [
  /^systemProp\./i,
  /^android\.injected\./i,
  /^android\.aapt2FromMavenOverride$/i,
  /^android\..*(?:override|path|location|dir)$/i,
  /^kotlin\.(?:daemon|compiler|native)\./i,
  /^kotlin\.native\.home$/i,
  /^compose\.kotlinCompilerPlugin/i,
  /^ksp\..*(?:path|dir)/i,
];

/** Instrumentation runner arguments are passed to the device, where paths are device paths. */
const DEVICE_ARGUMENT_KEYS = /^android\.testInstrumentationRunnerArguments\./;

/** A value that names a file system location, a URL to a file, or a JVM/agent option. */
function suspiciousPropertyValue(value: string): boolean {
  return (
    /^(?:\/|~|[A-Za-z]:[\\/]|\\\\|file:)/i.test(value) ||
    /(?:^|[\\/])\.\.(?:[\\/]|$)/.test(value) ||
    /(?:^|\s)-(?:javaagent|agentlib|agentpath|X|D)/.test(value)
  );
}

/**
 * A test filter. It must not start with `-`: Gradle's command-line parser passes `--tests` through to the
 * test task without its value and reads the next argument as an option of its own (`-Iinit.gradle`).
 */
const TEST_FILTER = /^[A-Za-z0-9_.*$#[\]][A-Za-z0-9_.*$#\-[\] ]{0,255}$/;

export const MAX_TASKS = 20;
export const MAX_ARGS = 40;

/** `publishReleaseBundle` → publish, Release, Bundle; `publish-release` → publish, release. */
export function taskWords(name: string): string[] {
  return (
    name
      .split(/[-_.]+/)
      // Every capital starts a word, as in Gradle's abbreviation matching (`pRB` → p, R, B).
      .flatMap((part) => part.match(/[A-Z][a-z]*|[a-z]+|\d+/g) ?? [])
      .filter((w) => w.length > 0)
  );
}

function prefixEitherWay(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x.startsWith(y) || y.startsWith(x);
}

interface BlockRule {
  readonly label: string;
  readonly words: readonly string[];
  readonly where: 'prefix' | 'suffix' | 'contains';
  /** Words that must be present before a (possibly abbreviated) name counts as this rule; default 1. */
  readonly minWords?: number;
}

export const BLOCK_RULES: readonly BlockRule[] = [
  { label: 'publish*', words: ['publish'], where: 'prefix' },
  { label: 'promote*', words: ['promote'], where: 'prefix' },
  { label: 'uninstall*', words: ['uninstall'], where: 'prefix' },
  { label: 'closeAndRelease*', words: ['close', 'And', 'Release'], where: 'prefix' },
  { label: '*ToMavenCentral', words: ['To', 'Maven', 'Central'], where: 'suffix' },
  { label: '*PlayStore*', words: ['Play', 'Store'], where: 'contains' },
  // Plugins name their publishing tasks after themselves first (`crashlyticsUploadDistributionRelease`,
  // `artifactoryPublish`, `buildScanPublishPrevious`, `dockerPushImage`).
  { label: '*upload*', words: ['upload'], where: 'contains' },
  { label: '*publish*', words: ['publish'], where: 'contains' },
  { label: '*deploy*', words: ['deploy'], where: 'contains' },
  { label: '*push*', words: ['push'], where: 'contains' },
  // Firebase App Distribution; three words so that `aD` (assembleDebug) stays allowed while `aDU`/`aDUR` do not.
  { label: 'appDistributionUpload*', words: ['app', 'Distribution', 'Upload'], where: 'prefix', minWords: 3 },
  // Nexus staging, GitHub releases, JReleaser, Jib image pushes, Sonar analysis uploads.
  { label: 'closeRepository', words: ['close', 'Repository'], where: 'prefix', minWords: 2 },
  { label: 'releaseRepository', words: ['release', 'Repository'], where: 'prefix', minWords: 2 },
  { label: 'githubRelease*', words: ['github', 'Release'], where: 'prefix', minWords: 2 },
  { label: 'jreleaser*', words: ['jreleaser'], where: 'prefix' },
  { label: 'jib*', words: ['jib'], where: 'prefix' },
  { label: 'sonar*', words: ['sonar'], where: 'prefix' },
];

/**
 * Inside a name, a one-word rule needs the word itself or an abbreviation of at least three letters
 * (`Upload`, `Upl`) — not a one-letter one (`tDUT` = testDebugUnitTest), nor a longer word (`Uploader`).
 */
const MIN_INNER_WORD_LETTERS = 3;

/** Does the (possibly abbreviated) word list W match the rule's words starting at W[k]? */
function matchesAt(words: readonly string[], k: number, rule: BlockRule, minWords: number): boolean {
  const available = words.length - k;
  if (available < minWords) return false;
  const n = Math.min(available, rule.words.length);
  // An abbreviation may stop early (`releaseToMav` → releaseToMavenCentral) but not run past the rule
  // unless the rule is a prefix (anything may follow `publish…`) or a contains rule.
  if (rule.where === 'suffix' && available > rule.words.length) return false;
  for (let j = 0; j < n; j++) if (!prefixEitherWay(words[k + j]!, rule.words[j]!)) return false;
  return true;
}

/** The rule a task name (the part after the last `:`) falls under, or null. */
export function blockedBy(taskPath: string): string | null {
  const name = taskPath.slice(taskPath.lastIndexOf(':') + 1);
  // The release plugin's `release` tags, bumps and pushes; AGP has no task of that name.
  if (name.toLowerCase() === 'release') return 'release';
  const words = taskWords(name);
  if (words.length === 0) return null;
  for (const rule of BLOCK_RULES) {
    if (rule.where === 'prefix' && matchesAt(words, 0, rule, rule.minWords ?? 1)) return rule.label;
    if (rule.where === 'contains' && rule.words.length === 1) {
      if (prefixEitherWay(words[0]!, rule.words[0]!)) return rule.label;
      for (let k = 1; k < words.length; k++) {
        const word = words[k]!.toLowerCase();
        if (word.length >= MIN_INNER_WORD_LETTERS && rule.words[0]!.toLowerCase().startsWith(word)) return rule.label;
      }
      continue;
    }
    if (rule.where === 'suffix' || rule.where === 'contains') {
      // Two words at least (`ToMav`, `PS`), so a lone trailing `T` or `P` abbreviation does not block `assembleP`.
      for (let k = 1; k < words.length; k++)
        if (matchesAt(words, k, rule, Math.min(2, rule.words.length))) return rule.label;
      if (rule.where === 'contains' && words.length >= 2 && matchesAt(words, 0, rule, 2)) return rule.label;
    }
  }
  return null;
}

/** Validates task names and refuses blocked ones (unless unrestricted). */
export function checkTasks(tasks: readonly string[], unrestricted: boolean, field = 'task'): string[] {
  if (tasks.length === 0)
    throw new InvalidArgumentsError(
      `${field} must name at least one Gradle task (e.g. "assembleDebug").`,
      'INVALID_ARGUMENT',
      field,
    );
  if (tasks.length > MAX_TASKS)
    throw new InvalidArgumentsError(
      `At most ${MAX_TASKS} tasks per build (got ${tasks.length}).`,
      'INVALID_ARGUMENT',
      field,
    );
  for (const task of tasks) {
    validateGradleTaskName(task, field);
    const rule = unrestricted ? null : blockedBy(task);
    if (rule) {
      throw new InvalidArgumentsError(
        `Task "${task}" is blocked: it matches ${rule} (Gradle abbreviations included), which publishes, uploads, promotes or uninstalls. Run it yourself, or ask the user to set "allowUnrestrictedGradle": true in droidwright's settings.json.`,
        'TASK_BLOCKED',
        field,
      );
    }
  }
  return [...tasks];
}

/**
 * Validates extra arguments against the allow-list. `-x`/`--exclude-task` and `--tests` take the next
 * argument (checked as a task name / test filter).
 */
export function checkArgs(args: readonly string[], field = 'args'): string[] {
  if (args.length > MAX_ARGS)
    throw new InvalidArgumentsError(`At most ${MAX_ARGS} args (got ${args.length}).`, 'INVALID_ARGUMENT', field);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (typeof arg !== 'string' || arg.length === 0 || arg.length > 600) {
      throw new InvalidArgumentsError(
        `${field}[${i}] must be a non-empty string of at most 600 characters.`,
        'INVALID_ARGUMENT',
        field,
      );
    }
    if ((ALLOWED_FLAGS as readonly string[]).includes(arg)) {
      out.push(arg);
      continue;
    }
    if (arg === '-x' || arg === '--exclude-task' || arg === '--tests') {
      const value = args[i + 1];
      if (value === undefined)
        throw new InvalidArgumentsError(`${arg} needs a value after it in ${field}.`, 'INVALID_ARGUMENT', field);
      if (arg === '--tests') {
        if (!TEST_FILTER.test(value))
          throw new InvalidArgumentsError(
            `--tests filter may contain only letters, digits, ".", "*", "$", "#", "-", "[", "]" and spaces, and must not start with "-".`,
            'INVALID_ARGUMENT',
            field,
          );
      } else {
        validateGradleTaskName(value, field);
      }
      out.push(arg, value);
      i++;
      continue;
    }
    const excluded = /^--exclude-task=(.+)$/.exec(arg);
    if (excluded) {
      validateGradleTaskName(excluded[1]!, field);
      out.push(arg);
      continue;
    }
    const property = PROPERTY.exec(arg);
    if (property) {
      const [, key, value] = property as unknown as [string, string, string];
      if (/^org\.gradle\./i.test(key)) {
        throw new InvalidArgumentsError(
          `${field}: -P${key} configures Gradle itself and is not allowed; use the flags instead (--build-cache, --parallel, --offline, --configuration-cache and their --no- forms).`,
          'INVALID_ARGUMENT',
          field,
        );
      }
      if (!DEVICE_ARGUMENT_KEYS.test(key) && REFUSED_PROPERTY_KEYS.some((rule) => rule.test(key))) {
        throw new InvalidArgumentsError(
          `${field}: -P${key} configures Gradle, the Android Gradle Plugin or Kotlin themselves (it can make them run other code) and is not allowed. Pass only the project's own properties.`,
          'INVALID_ARGUMENT',
          field,
        );
      }
      if (!DEVICE_ARGUMENT_KEYS.test(key) && suspiciousPropertyValue(value)) {
        throw new InvalidArgumentsError(
          `${field}: the value of -P${key} looks like a file path or a JVM option ("${value.slice(0, 60)}"); property values that point outside the project are not passed. Set such values in the project's gradle.properties yourself.`,
          'INVALID_ARGUMENT',
          field,
        );
      }
      out.push(arg);
      continue;
    }
    throw new InvalidArgumentsError(
      `${field}: "${arg.slice(0, 80)}" is not allowed. Allowed: ${ALLOWED_FLAGS.join(', ')}, -x/--exclude-task <task>, --tests <filter>, -P<key>=<value>. Options that load other scripts or files (--init-script, -I, -b, -c, -p, -D, --include-build) are never passed.`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  return out;
}
