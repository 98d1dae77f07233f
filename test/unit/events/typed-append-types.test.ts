import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// tsc proves test/types/typed-append.ts (each `@ts-expect-error` line must fail to compile, or the
// typecheck step fails). This test keeps that proof in the suite: deleting the file, the lines, or the
// typecheck's reach over test/ fails here instead of passing unnoticed.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const typeTest = readFileSync(join(root, 'test', 'types', 'typed-append.ts'), 'utf8');

function expectedErrors(): string[] {
  return [...typeTest.matchAll(/^\s*\/\/ @ts-expect-error (.+)$/gm)].map((m) => m[1]!);
}

test('the type test still expects tsc to reject misspelled event definitions and wrong data shapes', () => {
  const reasons = expectedErrors();
  expect(reasons.filter((r) => r === 'misspelled event definition name')).toHaveLength(2);
  expect(reasons.filter((r) => r.startsWith('wrong data shape')).length).toBeGreaterThanOrEqual(4);
  expect(reasons).toContain('a type string is not a definition');
  // Each directive is followed by the call it is about, with a definition as first argument (or the old form).
  const lines = typeTest.split('\n');
  const followers = lines.flatMap((line, i) => (/^\s*\/\/ @ts-expect-error /.test(line) ? [lines[i + 1]!] : []));
  expect(followers).toHaveLength(reasons.length);
  for (const call of followers) expect(call).toMatch(/^\s*(store\.)?append\(/);
});

test('npm run typecheck covers test/types', () => {
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(packageJson.scripts.typecheck).toBe('tsc -p tsconfig.json --noEmit');
  expect(packageJson.scripts.test).toContain('npm run typecheck');
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
  expect(tsconfig.include).toContain('test/**/*');
});
