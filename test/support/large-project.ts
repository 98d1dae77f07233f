import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes an Android project whose `:app` declares `flavorsPerDimension.length` flavor dimensions with
 * the given flavor counts and two build types: the variant count is their product × 2 (e.g. [12, 12,
 * 24] gives 6,912; seven dimensions of ten give 20,000,000). Returns the project root.
 */
export function writeManyVariantsProject(root: string, flavorsPerDimension: readonly number[]): string {
  mkdirSync(join(root, 'app'), { recursive: true });
  mkdirSync(join(root, 'gradle', 'wrapper'), { recursive: true });
  writeFileSync(join(root, 'settings.gradle.kts'), 'rootProject.name = "many"\ninclude(":app")\n');
  const dimensions = flavorsPerDimension.map((_, d) => `dim${d}`);
  const flavors = flavorsPerDimension.flatMap((count, d) =>
    Array.from(
      { length: count },
      (_, i) =>
        `        create("d${d}f${i}") {\n            dimension = "dim${d}"\n            applicationIdSuffix = ".d${d}f${i}"\n        }`,
    ),
  );
  writeFileSync(
    join(root, 'app', 'build.gradle.kts'),
    [
      'plugins {',
      '    id("com.android.application")',
      '}',
      'android {',
      '    namespace = "com.example.many"',
      '    defaultConfig {',
      '        applicationId = "com.example.many"',
      '    }',
      `    flavorDimensions += listOf(${dimensions.map((d) => `"${d}"`).join(', ')})`,
      '    productFlavors {',
      ...flavors,
      '    }',
      '}',
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'gradlew'), '#!/bin/sh\necho "gradle stand-in"\n', { mode: 0o755 });
  return root;
}
