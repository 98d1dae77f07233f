import type { EventDefinition } from './event-definition.js';

/** Lowercase dotted name of at least two snake_case segments: `build.finished`, `mcp.tool_called`. */
const EVENT_TYPE_SHAPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * Past participles that do not end in "-ed". The last word of an event type must be past tense,
 * because an event records something that already happened; a command-like name (`build.start`)
 * is the usual mistake this catches.
 */
const IRREGULAR_PAST = new Set([
  'begun',
  'bound',
  'broken',
  'brought',
  'built',
  'caught',
  'chosen',
  'come',
  'cut',
  'dealt',
  'done',
  'drawn',
  'driven',
  'fed',
  'felt',
  'fled',
  'found',
  'forgotten',
  'frozen',
  'given',
  'gone',
  'got',
  'gotten',
  'held',
  'hidden',
  'hit',
  'hung',
  'kept',
  'known',
  'laid',
  'led',
  'left',
  'lent',
  'lost',
  'made',
  'meant',
  'met',
  'overridden',
  'paid',
  'put',
  'quit',
  'read',
  'rebuilt',
  'rerun',
  'reset',
  'rewritten',
  'run',
  'said',
  'seen',
  'sent',
  'set',
  'shown',
  'shut',
  'sold',
  'spent',
  'split',
  'spun',
  'stood',
  'struck',
  'stuck',
  'taken',
  'taught',
  'thrown',
  'told',
  'torn',
  'understood',
  'undone',
  'unset',
  'upset',
  'withdrawn',
  'woken',
  'won',
  'written',
]);

export class EventValidationError extends Error {
  override readonly name = 'EventValidationError';
  constructor(
    message: string,
    /** The event type the failure is about (may be an unknown or malformed name). */
    readonly eventType?: string,
    /** Paths of the offending fields, e.g. `data.exit_code`, `stream`. */
    readonly paths: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * Whole names that record a verdict already reached in a term of art that is not a participle: Android calls the
 * system's ANR report "Application Not Responding", and agents and humans search for that phrase.
 */
const TERM_OF_ART_TYPES = new Set(['app.not_responding']);

/** Why `type` is not an acceptable event type name, or undefined when it is. */
export function eventTypeNameProblem(type: string): string | undefined {
  if (!EVENT_TYPE_SHAPE.test(type)) {
    return `"${type}" is not a lowercase dotted name of snake_case segments (e.g. "build.finished", "mcp.tool_called")`;
  }
  if (TERM_OF_ART_TYPES.has(type)) return undefined;
  const lastWord =
    type
      .slice(type.lastIndexOf('.') + 1)
      .split('_')
      .pop() ?? '';
  if (!lastWord.endsWith('ed') && !IRREGULAR_PAST.has(lastWord)) {
    return `"${type}" does not end in a past-tense word ("${lastWord}"); name what happened, e.g. "build.started" rather than "build.start"`;
  }
  return undefined;
}

/** Every event type the log accepts, each with the zod schema of its `data`. */
export class EventCatalog {
  private readonly byType = new Map<string, EventDefinition>();

  constructor(definitions: readonly EventDefinition[]) {
    for (const def of definitions) {
      const problem = eventTypeNameProblem(def.type);
      if (problem) throw new EventValidationError(`Event catalog: ${problem}.`, def.type);
      if (this.byType.has(def.type)) {
        throw new EventValidationError(
          `Event catalog: "${def.type}" is declared twice. Each event type is declared once, by the plugin that owns it.`,
          def.type,
        );
      }
      if (!Number.isInteger(def.version) || def.version < 1) {
        throw new EventValidationError(
          `Event catalog: "${def.type}" has version ${def.version}; use a positive integer.`,
          def.type,
        );
      }
      if (typeof def.schema?.safeParse !== 'function') {
        throw new EventValidationError(`Event catalog: "${def.type}" has no zod schema.`, def.type);
      }
      this.byType.set(def.type, def);
    }
  }

  get(type: string): EventDefinition | undefined {
    return this.byType.get(type);
  }

  types(): string[] {
    return [...this.byType.keys()].sort();
  }

  /** Returns the parsed data, or throws EventValidationError naming the type and the offending paths. */
  validate(type: string, data: unknown): unknown {
    const def = this.byType.get(type);
    if (!def) {
      throw new EventValidationError(
        `Unknown event type "${type}". Declare it with defineEvent in the owning plugin's *.events.ts and contribute it through EventContribution.`,
        type,
      );
    }
    const result = def.schema.safeParse(data);
    if (result.success) return result.data;
    const issues = result.error.issues.slice(0, 5).map((issue) => ({
      path: formatPath(['data', ...issue.path]),
      message: issue.message,
    }));
    const detail = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    const more =
      result.error.issues.length > issues.length ? ` (+${result.error.issues.length - issues.length} more)` : '';
    return this.fail(
      type,
      `Event "${type}" has invalid data: ${detail}${more}. Nothing was written.`,
      issues.map((i) => i.path),
    );
  }

  private fail(type: string, message: string, paths: string[]): never {
    throw new EventValidationError(message, type, paths);
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}
