import { z } from 'zod';
import {
  annotationsForKind,
  defineTool,
  type AnyToolDefinition,
  type ToolKind,
  type ToolsetName,
} from '../../../src/kernel/tool-definition.js';
import { ToolRegistry, ToolRegistryError } from '../../../src/kernel/tool-registry.js';
import type { ToolsetContribution } from '../../../src/kernel/toolset-contribution.js';

function tool(overrides: Partial<AnyToolDefinition> & { name: string }): AnyToolDefinition {
  return defineTool({
    toolset: 'core',
    kind: 'R',
    title: 'A tool',
    description: 'Does a thing.',
    input: z.object({ serial: z.string().describe('A serial.') }),
    output: z.object({ ok: z.boolean().describe('Whether it worked.') }),
    handler: async () => ({ data: { ok: true }, summary: 'ok' }),
    ...overrides,
  } as AnyToolDefinition) as AnyToolDefinition;
}

function set(name: string, tools: AnyToolDefinition[]): ToolsetContribution {
  return { name: name as ToolsetName, description: `${name} tools`, tools: () => tools };
}

function fails(contributions: ToolsetContribution[], pattern: RegExp): void {
  expect(() => new ToolRegistry(contributions)).toThrow(ToolRegistryError);
  expect(() => new ToolRegistry(contributions)).toThrow(pattern);
}

describe('ToolRegistry', () => {
  test('lists, filters and computes annotations from the kind', () => {
    const registry = new ToolRegistry([
      set('build', [
        tool({ name: 'run_gradle_task', toolset: 'build', kind: 'O' }),
        tool({ name: 'get_build_status', toolset: 'build' }),
      ]),
      set('core', [tool({ name: 'get_project_info' }), tool({ name: 'install_apk', kind: 'D' })]),
    ]);
    expect(registry.toolsets().map((t) => t.name)).toEqual(['core', 'build']);
    expect(registry.list().map((t) => t.definition.name)).toEqual([
      'get_project_info',
      'install_apk',
      'run_gradle_task',
      'get_build_status',
    ]);
    expect(registry.list({ readOnly: true }).map((t) => t.definition.name)).toEqual([
      'get_project_info',
      'get_build_status',
    ]);
    expect(registry.list({ toolsets: ['build'] }).map((t) => t.definition.name)).toEqual([
      'run_gradle_task',
      'get_build_status',
    ]);
    for (const kind of ['R', 'W', 'D', 'O'] as ToolKind[]) {
      const r = new ToolRegistry([set('core', [tool({ name: 'get_x', kind })])]);
      expect(r.get('get_x')!.annotations).toEqual(annotationsForKind(kind, 'A tool'));
    }
    expect(registry.get('run_gradle_task')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(registry.get('nope')).toBeUndefined();
  });

  test('an empty registry is valid', () => {
    expect(new ToolRegistry([]).list()).toEqual([]);
  });

  test('refuses duplicate names across toolsets', () => {
    fails(
      [set('core', [tool({ name: 'get_x' })]), set('build', [tool({ name: 'get_x', toolset: 'build' })])],
      /duplicate tool name "get_x"/,
    );
  });

  test('refuses a tool whose toolset is not its contribution or not a known toolset', () => {
    fails([set('core', [tool({ name: 'get_x', toolset: 'ui' })])], /declares toolset "ui"/);
    fails([set('misc', [tool({ name: 'get_x', toolset: 'misc' as ToolsetName })])], /toolset "misc" is not one of/);
    fails([set('core', []), set('core', [])], /contributed twice/);
  });

  test('refuses names that are not snake_case or do not start with a verb', () => {
    fails([set('core', [tool({ name: 'getThing' })])], /snake_case/);
    fails([set('core', [tool({ name: 'get-thing' })])], /snake_case/);
    fails([set('core', [tool({ name: 'device_list' })])], /start with a verb/);
  });

  test('refuses a missing output schema and undescribed fields', () => {
    fails(
      [set('core', [tool({ name: 'get_x', output: undefined as unknown as z.ZodObject })])],
      /missing output schema/,
    );
    fails(
      [set('core', [tool({ name: 'get_x', input: z.object({ serial: z.string() }) })])],
      /input field\(s\) without a description: serial/,
    );
    fails(
      [
        set('core', [
          tool({
            name: 'get_x',
            input: z.object({ opt: z.object({ deep: z.number() }).optional().describe('Options.') }),
          }),
        ]),
      ],
      /opt\.deep/,
    );
    fails(
      [set('core', [tool({ name: 'get_x', output: z.object({ ok: z.boolean() }) })])],
      /output field\(s\) without a description: ok/,
    );
    fails([set('core', [tool({ name: 'get_x', sensitive: ['password'] })])], /sensitive field "password"/);
  });

  test('refuses a package scope naming a field the input does not have; strict inputs refuse unknown keys', () => {
    const scoped = (allowField: string) =>
      tool({
        name: 'stop_x',
        kind: 'D',
        input: z.object({
          package: z.string().describe('Package.'),
          allow_foreign_package: z.boolean().optional().describe('Allow.'),
        }),
        packageScope: { field: 'package', allowField },
      });
    fails([set('core', [scoped('allow_foreign')])], /packageScope names "allow_foreign", which is not an input field/);
    const registry = new ToolRegistry([set('core', [scoped('allow_foreign_package')])]);
    const input = registry.get('stop_x')!.input;
    expect(input.safeParse({ package: 'a.b' }).success).toBe(true);
    const unknown = input.safeParse({ package: 'a.b', device: 'x' });
    expect(unknown.success).toBe(false);
    expect(unknown.error!.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['device'] });
  });

  test('refuses declared annotations that disagree with the kind, and unknown kinds', () => {
    const lying = {
      ...tool({ name: 'stop_app', kind: 'D' }),
      annotations: { readOnlyHint: true },
    } as AnyToolDefinition;
    fails([set('core', [lying])], /readOnlyHint=true disagrees with kind D/);
    fails([set('core', [tool({ name: 'get_x', kind: 'X' as ToolKind })])], /kind must be one of/);
  });
});
