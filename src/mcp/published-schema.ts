import { z } from 'zod';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** zod's `.int()` adds these bounds to every integer; they say nothing a client needs and cost bytes. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Removes what costs bytes and tells a client nothing, in place. */
function slim(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) slim(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const bound of ['minimum', 'maximum'] as const)
    if (SAFE_INTEGER_BOUNDS.has(record[bound] as number)) delete record[bound];
  // String length bounds are ~5 % of the list and never what a model gets wrong; the server still enforces
  // them and refuses a value outside them naming the field and the bound.
  if (record.type === 'string') {
    delete record.maxLength;
    if (record.minLength === 1) delete record.minLength;
  }
  for (const [key, value] of Object.entries(record)) {
    // A property named "description" is a field, not prose: only its schema is slimmed.
    if (key === 'properties' && value && typeof value === 'object') {
      for (const field of Object.values(value)) slim(field);
    } else {
      slim(value);
    }
  }
}

/**
 * The JSON Schema a client sees for a tool's input or output; tools/list with every toolset must stay
 * small, because it is read at every start and SDK clients compile a validator per output schema.
 * - Inputs come from the registry's strict schema, so they say `additionalProperties: false`, and keep
 *   every field's description: that is how a model learns what to pass. zod's safe-integer bounds on every
 *   `.int()` and string length bounds are dropped (the server enforces them, naming the bound when refused).
 * - Outputs describe success only (an error result carries no structuredContent) and name the fields a
 *   result has, without constraining them: `{ type: 'object', properties: { field: {} } }`. That is true of
 *   every result and is what an Ajv client compiles at almost no cost; field types, required fields and
 *   enums cost a fresh SDK client ~5 ms each to compile (types and required fields of the top level alone
 *   took ~250 ms for the 63 tools), which is most of a start. What each field holds is in the tool reference
 *   (docs/tools.md) and in each result's text.
 */
export function publishedSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  if (io === 'output')
    return { type: 'object', properties: Object.fromEntries(Object.keys(schema.shape).map((field) => [field, {}])) };
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  slim(json);
  return json as Tool['inputSchema'];
}

/**
 * The annotations a client sees: the tool's own `title` already names it, and `destructiveHint` means something
 * only when `readOnlyHint` is false (MCP 2025-11-25, ToolAnnotations), so neither is repeated for every tool.
 */
export function publishedAnnotations(annotations: ToolAnnotations): ToolAnnotations {
  const { title: _title, ...hints } = annotations;
  if (hints.readOnlyHint) delete hints.destructiveHint;
  return hints;
}
