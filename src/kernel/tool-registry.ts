import { z } from 'zod';
import {
  annotationsForKind,
  TOOLSET_NAMES,
  type AnyToolDefinition,
  type ToolAnnotations,
  type ToolKind,
  type ToolsetName,
} from './tool-definition.js';
import type { ToolsetContribution } from './toolset-contribution.js';

/** Verbs a tool name may start with. Add one here when a new tool genuinely needs it. */
export const TOOL_VERBS = [
  'get',
  'list',
  'find',
  'query',
  'search',
  'read',
  'run',
  'start',
  'stop',
  'cancel',
  'clear',
  'set',
  'open',
  'close',
  'install',
  'uninstall',
  'launch',
  'restart',
  'grant',
  'revoke',
  'compare',
  'wait',
  'assert',
  'tap',
  'type',
  'swipe',
  'scroll',
  'press',
  'send',
  'hide',
  'show',
  'take',
  'capture',
  'dump',
  'fill',
  'long',
  'drag',
  'pull',
  'push',
  'build',
  'reset',
  'rotate',
  'enable',
  'disable',
  'watch',
  'explain',
  'describe',
  'check',
  'mark',
  'retrace',
  'kill',
  'force',
  'record',
  'create',
  'delete',
  'update',
  'connect',
  'disconnect',
  'reboot',
  'screenshot',
  'inspect',
  'analyze',
  // The ui toolset's names put their toolset first where the verb alone is ambiguous (ui_tap, ui_wait_for_idle).
  'ui',
] as const;

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const KINDS: readonly ToolKind[] = ['R', 'W', 'D', 'O'];

export interface RegisteredTool {
  readonly definition: AnyToolDefinition;
  readonly annotations: ToolAnnotations;
  /**
   * The definition's input made strict: an unknown argument key is refused, naming it, for every tool
   * alike (agents pass keys a tool does not take and believe they were used).
   */
  readonly input: z.ZodObject;
}

export interface ToolsetInfo {
  readonly name: ToolsetName;
  readonly description: string;
  readonly tools: readonly RegisteredTool[];
}

export interface ToolFilter {
  /** Only these toolsets; all when absent. */
  readonly toolsets?: readonly string[];
  /** Only R tools. */
  readonly readOnly?: boolean;
}

export class ToolRegistryError extends Error {
  override readonly name = 'ToolRegistryError';
}

function descriptionOf(schema: z.ZodType): string | undefined {
  return schema.description ?? (z.globalRegistry.get(schema)?.description as string | undefined);
}

/** Unwraps optional/default/nullable/pipe wrappers to reach the schema that holds nested fields. */
function innerSchema(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 10; depth++) {
    const def = (
      current as unknown as {
        _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType } };
      }
    )._zod.def;
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'array' && def.element) current = def.element;
    else break;
  }
  return current;
}

/** Every field of an object schema, recursively through nested objects and arrays of objects. */
function undescribedFields(shape: Record<string, z.ZodType>, prefix: string, recurse: boolean): string[] {
  const missing: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const path = `${prefix}${key}`;
    if (!descriptionOf(field)) missing.push(path);
    if (recurse) {
      const inner = innerSchema(field);
      if (inner instanceof z.ZodObject)
        missing.push(...undescribedFields(inner.shape as Record<string, z.ZodType>, `${path}.`, true));
    }
  }
  return missing;
}

function checkTool(tool: AnyToolDefinition, contribution: ToolsetContribution): RegisteredTool {
  const where = `tool "${tool.name}" (toolset "${contribution.name}")`;
  if (!SNAKE_CASE.test(tool.name)) throw new ToolRegistryError(`${where}: name must be snake_case.`);
  const verb = tool.name.split('_')[0]!;
  if (!(TOOL_VERBS as readonly string[]).includes(verb)) {
    throw new ToolRegistryError(
      `${where}: name must start with a verb (got "${verb}"); if it is one, add it to TOOL_VERBS.`,
    );
  }
  if (tool.toolset !== contribution.name)
    throw new ToolRegistryError(
      `${where}: declares toolset "${tool.toolset}" but is contributed by "${contribution.name}".`,
    );
  if (!KINDS.includes(tool.kind)) throw new ToolRegistryError(`${where}: kind must be one of ${KINDS.join(', ')}.`);
  if (!tool.title?.trim()) throw new ToolRegistryError(`${where}: missing title.`);
  if (!tool.description?.trim()) throw new ToolRegistryError(`${where}: missing description.`);
  if (!(tool.input instanceof z.ZodObject)) throw new ToolRegistryError(`${where}: input must be a zod object schema.`);
  if (!(tool.output instanceof z.ZodObject))
    throw new ToolRegistryError(`${where}: missing output schema (a zod object).`);
  const missingIn = undescribedFields(tool.input.shape as Record<string, z.ZodType>, '', true);
  if (missingIn.length > 0)
    throw new ToolRegistryError(`${where}: input field(s) without a description: ${missingIn.join(', ')}.`);
  const missingOut = undescribedFields(tool.output.shape as Record<string, z.ZodType>, '', false);
  if (missingOut.length > 0)
    throw new ToolRegistryError(`${where}: output field(s) without a description: ${missingOut.join(', ')}.`);
  for (const field of tool.sensitive ?? []) {
    if (!(field in tool.input.shape))
      throw new ToolRegistryError(`${where}: sensitive field "${field}" is not an input field.`);
  }
  if (tool.packageScope) {
    for (const field of [tool.packageScope.field, tool.packageScope.allowField]) {
      if (!(field in tool.input.shape))
        throw new ToolRegistryError(`${where}: packageScope names "${field}", which is not an input field.`);
    }
  }
  const expected = annotationsForKind(tool.kind, tool.title);
  // A definition may carry its own annotations (e.g. copied from elsewhere); they must match the kind.
  const declared = (tool as { annotations?: Partial<ToolAnnotations> }).annotations;
  if (declared) {
    for (const hint of ['readOnlyHint', 'destructiveHint', 'openWorldHint'] as const) {
      if (declared[hint] !== undefined && declared[hint] !== expected[hint]) {
        throw new ToolRegistryError(
          `${where}: ${hint}=${declared[hint]} disagrees with kind ${tool.kind} (expects ${expected[hint]}).`,
        );
      }
    }
  }
  return { definition: tool, annotations: expected, input: tool.input.strict() };
}

/**
 * Every tool every plugin contributes, checked once at start so a malformed tool fails the process
 * rather than an agent's call.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, RegisteredTool>();
  private readonly sets: ToolsetInfo[] = [];

  constructor(contributions: readonly ToolsetContribution[]) {
    const seenSets = new Set<string>();
    for (const contribution of contributions) {
      if (!(TOOLSET_NAMES as readonly string[]).includes(contribution.name)) {
        throw new ToolRegistryError(`toolset "${contribution.name}" is not one of ${TOOLSET_NAMES.join(', ')}.`);
      }
      if (seenSets.has(contribution.name))
        throw new ToolRegistryError(`toolset "${contribution.name}" is contributed twice.`);
      seenSets.add(contribution.name);
      const tools: RegisteredTool[] = [];
      for (const tool of contribution.tools()) {
        const registered = checkTool(tool, contribution);
        const existing = this.byName.get(tool.name);
        if (existing) {
          throw new ToolRegistryError(
            `duplicate tool name "${tool.name}" in toolsets "${existing.definition.toolset}" and "${contribution.name}".`,
          );
        }
        this.byName.set(tool.name, registered);
        tools.push(registered);
      }
      this.sets.push({ name: contribution.name, description: contribution.description, tools });
    }
    this.sets.sort((a, b) => TOOLSET_NAMES.indexOf(a.name) - TOOLSET_NAMES.indexOf(b.name));
  }

  /** Tools in contribution order, optionally narrowed. */
  list(filter: ToolFilter = {}): RegisteredTool[] {
    return this.sets
      .filter((set) => !filter.toolsets || filter.toolsets.includes(set.name))
      .flatMap((set) => set.tools)
      .filter((tool) => !filter.readOnly || tool.definition.kind === 'R');
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  toolsets(): readonly ToolsetInfo[] {
    return this.sets;
  }
}
