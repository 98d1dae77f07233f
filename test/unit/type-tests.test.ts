import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// tsc proves the files in test/types: each `@ts-expect-error` line there must fail to compile, or the
// typecheck step (`npm run typecheck`, part of `npm test`) fails. This test keeps that proof in the suite:
// deleting a file, its directives, or the typecheck's reach over test/ fails here instead of passing unnoticed.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The reason written after each `// @ts-expect-error` directive, and the line it applies to. */
function expectedErrors(file: string): { reason: string; line: string }[] {
  const lines = readFileSync(join(root, 'test', 'types', file), 'utf8').split('\n');
  return lines.flatMap((line, i) => {
    const match = /^\s*\/\/ @ts-expect-error (.+)$/.exec(line);
    return match ? [{ reason: match[1]!, line: lines[i + 1]! }] : [];
  });
}

test('tsc must reject a misspelled event definition and data of the wrong shape, in tools and in the store', () => {
  const expected = expectedErrors('typed-append.ts');
  const reasons = expected.map((e) => e.reason);
  expect(reasons.filter((r) => r === 'misspelled event definition name')).toHaveLength(2);
  expect(reasons.filter((r) => r.startsWith('wrong data shape')).length).toBeGreaterThanOrEqual(4);
  expect(reasons).toContain('a type string is not a definition');
  for (const { line } of expected) expect(line).toMatch(/^\s*(store\.)?append\(/);
});

test('tsc must accept toolsets listing tools without a cast, and still tie handlers to their schemas', () => {
  const reasons = expectedErrors('tool-definitions.ts').map((e) => e.reason);
  expect(reasons).toEqual([
    'a toolset lists tools, not their factories',
    "the handler's data must satisfy the output schema",
    "the handler's arguments are the input schema's fields",
  ]);
  const source = readFileSync(join(root, 'test', 'types', 'tool-definitions.ts'), 'utf8');
  const code = source.split('\n').filter((line) => !line.trim().startsWith('//'));
  expect(code.filter((line) => line.includes(' as '))).toEqual([]);
  expect(source).toContain('tools: () => [getSerial, countThings]');
});

test('npm test runs the typecheck, and the typecheck covers test/types', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.typecheck).toBe('tsc -p tsconfig.json --noEmit');
  expect(pkg.scripts.test).toContain('npm run typecheck');
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
  expect(tsconfig.include).toContain('test/**/*');
});
