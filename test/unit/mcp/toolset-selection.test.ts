import { z } from 'zod';
import { defineTool, type AnyToolDefinition, type ToolsetName } from '../../../src/kernel/tool-definition.js';
import { ToolRegistry } from '../../../src/kernel/tool-registry.js';
import { UsageError } from '../../../src/kernel/usage-error.js';
import { buildInstructions, toolsetSummaries } from '../../../src/mcp/instructions.js';
import { describeZodIssues, toolErrorResult } from '../../../src/mcp/mcp-session.js';
import { resolveServedTools } from '../../../src/mcp/toolset-selection.js';
import { InvalidArgumentsError, ToolError } from '../../../src/kernel/errors.js';

function tool(name: string, toolset: ToolsetName, kind: 'R' | 'W' | 'O'): AnyToolDefinition {
  return defineTool({
    name,
    toolset,
    kind,
    title: name,
    description: 'd',
    input: z.object({}),
    output: z.object({ ok: z.boolean().describe('ok') }),
    handler: async () => ({ data: { ok: true }, summary: 'ok' }),
  });
}

const registry = new ToolRegistry([
  { name: 'core', description: 'Core things.', tools: () => [tool('get_project_info', 'core', 'R')] },
  {
    name: 'build',
    description: 'Builds.',
    tools: () => [tool('run_gradle_task', 'build', 'O'), tool('get_build_status', 'build', 'R')],
  },
]);

describe('--toolsets and --read-only', () => {
  test('default serves every contributed toolset', () => {
    expect(resolveServedTools(registry, undefined, false)).toEqual({
      toolsets: ['core', 'build'],
      hidden: [],
      readOnly: false,
    });
  });

  test('a subset hides the rest, in canonical order', () => {
    expect(resolveServedTools(registry, ['build', ' core'], true)).toEqual({
      toolsets: ['core', 'build'],
      hidden: [],
      readOnly: true,
    });
    expect(resolveServedTools(registry, ['core'], false).hidden).toEqual(['build']);
  });

  test('unknown or empty names are usage errors listing the valid names', () => {
    expect(() => resolveServedTools(registry, ['bogus'], false)).toThrow(UsageError);
    expect(() => resolveServedTools(registry, ['bogus'], false)).toThrow(
      /Unknown toolset: bogus\. Valid toolsets: core, build\./,
    );
    expect(() => resolveServedTools(registry, [''], false)).toThrow(/comma-separated list/);
    expect(() => resolveServedTools(registry, ['core', ''], false)).toThrow(UsageError);
  });

  test('instructions name served and hidden toolsets, the flag to enable them, errors and trust', () => {
    const text = buildInstructions(toolsetSummaries(registry), resolveServedTools(registry, ['core'], true), '/p');
    expect(text).toContain('Project: /p');
    expect(text).toContain('- core (1 tool): Core things.');
    expect(text).toContain('Hidden toolsets: build');
    expect(text).toContain('--toolsets core,build');
    expect(text).toContain('--read-only');
    expect(text).toContain('PROJECT_NOT_TRUSTED');
    expect(text).toContain('droidwright trust');
  });
});

describe('error mapping', () => {
  test('zod issues name the field and the rule', () => {
    const result = z.object({ limit: z.number().max(5), name: z.string() }).safeParse({ limit: 9 });
    expect(result.success).toBe(false);
    const { message, field } = describeZodIssues(result.error!);
    expect(field).toBe('limit');
    expect(message).toMatch(/^limit: .*5.*; name: /);
  });

  test('a ToolError becomes an isError result: the message and code as text, the code in _meta, no structuredContent', () => {
    const result = toolErrorResult(new ToolError('NO_DEVICE', 'No device. Start an emulator.', { tried: 2 }));
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'No device. Start an emulator. (error_code: NO_DEVICE)' }]);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta).toEqual({ error_code: 'NO_DEVICE', details: { tried: 2 } });
  });

  test('an InvalidArgumentsError names its field in _meta', () => {
    const result = toolErrorResult(new InvalidArgumentsError('limit must be at most 5.', 'INVALID_ARGUMENT', 'limit'));
    expect(result._meta).toEqual({ error_code: 'INVALID_ARGUMENT', field: 'limit' });
  });

  test('an unknown key is named in the message and as the field', () => {
    const result = z.strictObject({ limit: z.number() }).safeParse({ limit: 1, device_serial: 'x' });
    const { message, field } = describeZodIssues(result.error!);
    expect(message).toMatch(/^unknown argument "device_serial": this tool does not take it; remove it/);
    expect(field).toBe('device_serial');
  });
});
