import { z } from 'zod';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** zod's `.int()` adds these bounds to every integer; they say nothing a client needs and cost bytes. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Removes what costs bytes and tells a client nothing, in place; `forOutput` also drops field prose. */
function slim(node: unknown, forOutput: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) slim(item, forOutput);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const bound of ['minimum', 'maximum'] as const)
    if (SAFE_INTEGER_BOUNDS.has(record[bound] as number)) delete record[bound];
  if (forOutput) {
    if (typeof record.description === 'string') delete record.description;
    if (record.additionalProperties === false) delete record.additionalProperties;
  }
  for (const [key, value] of Object.entries(record)) {
    // A property named "description" is a field, not prose: only its schema is slimmed.
    if (key === 'properties' && value && typeof value === 'object') {
      for (const field of Object.values(value)) slim(field, forOutput);
    } else {
      slim(value, forOutput);
    }
  }
}

/**
 * The JSON Schema a client sees for a tool's input or output; tools/list with every toolset must stay
 * small (it is read at every start, and SDK clients compile a validator per output schema).
 * - Inputs come from the registry's strict schema, so they say `additionalProperties: false`, and keep
 *   every field's description: that is how a model learns what to pass.
 * - Outputs describe success only (an error result carries no structuredContent) and keep types,
 *   required fields and enums, which is what a client validates; the meaning of each output field is in
 *   the tool reference (docs/tools.md), and each result's text says what it holds. Field descriptions
 *   were about half of the whole listing.
 * - zod's safe-integer bounds on every `.int()` are dropped.
 */
export function publishedSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  slim(json, io === 'output');
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
