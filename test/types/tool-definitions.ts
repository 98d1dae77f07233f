// Compile-time checks, run by `npm run typecheck` (tsconfig includes test/**): toolsets list tools of
// different schemas as AnyToolDefinition without `as unknown as`, and defineTool still ties a handler to
// its schemas. Each `@ts-expect-error` line must fail to compile, or tsc reports the directive as unused.
// Jest never runs this file; test/unit/type-tests.test.ts keeps these lines from being deleted silently.
import { z } from 'zod';
import { type AnyToolDefinition, defineTool } from '../../src/kernel/tool-definition.js';
import type { ToolsetContribution } from '../../src/kernel/toolset-contribution.js';

const getSerial = defineTool({
  name: 'get_serial',
  toolset: 'core',
  kind: 'R',
  title: 'Get serial',
  description: 'Echoes a serial.',
  input: z.object({ serial: z.string().describe('A serial.') }),
  output: z.object({ serial: z.string().describe('The serial.') }),
  async handler(args) {
    return { data: { serial: args.serial }, summary: args.serial };
  },
});

const countThings = defineTool({
  name: 'count_things',
  toolset: 'build',
  kind: 'W',
  title: 'Count things',
  description: 'Counts.',
  input: z.object({ limit: z.number().int().optional().describe('At most this many.') }),
  output: z.object({ count: z.number().describe('How many.') }),
  // An arrow function property, as some tools write it.
  handler: async (args) => ({ data: { count: args.limit ?? 0 }, summary: 'counted' }),
});

export const toolset: ToolsetContribution = {
  name: 'core',
  description: 'Tools of different schemas in one list, without a cast.',
  tools: () => [getSerial, countThings],
};

export const listed: readonly AnyToolDefinition[] = [getSerial, countThings];

// @ts-expect-error a toolset lists tools, not their factories
export const notTools: readonly AnyToolDefinition[] = [() => getSerial];

export const wrongOutput = defineTool({
  name: 'get_wrong',
  toolset: 'core',
  kind: 'R',
  title: 'Wrong',
  description: 'Returns what its output schema does not allow.',
  input: z.object({}),
  output: z.object({ ok: z.boolean().describe('Whether it worked.') }),
  // @ts-expect-error the handler's data must satisfy the output schema
  async handler() {
    return { data: { ok: 'yes' }, summary: 'wrong' };
  },
});

export const wrongInput = defineTool({
  name: 'get_typo',
  toolset: 'core',
  kind: 'R',
  title: 'Typo',
  description: 'Reads an argument its input schema does not declare.',
  input: z.object({ serial: z.string().describe('A serial.') }),
  output: z.object({ serial: z.string().describe('The serial.') }),
  async handler(args) {
    // @ts-expect-error the handler's arguments are the input schema's fields
    return { data: { serial: args.serail }, summary: 'typo' };
  },
});
