import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway DROIDWRIGHT_HOME (the `droidwright-test-` prefix is what jest-setup recognises). */
export function createTempHome(label = 'home'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), `droidwright-test-${label}-`));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * A minimal Android Gradle project on disk: settings with an `:app` include, an app module applying
 * com.android.application, a library module, and an executable gradlew that only prints.
 */
export function createFakeGradleProject(
  parent: string,
  name = 'project',
  options: { applicationId?: string } = {},
): string {
  const root = join(parent, name);
  mkdirSync(join(root, 'app'), { recursive: true });
  mkdirSync(join(root, 'lib'), { recursive: true });
  mkdirSync(join(root, 'gradle', 'wrapper'), { recursive: true });
  writeFileSync(join(root, 'settings.gradle.kts'), 'rootProject.name = "demo"\ninclude(":app", ":lib")\n');
  writeFileSync(
    join(root, 'app', 'build.gradle.kts'),
    `plugins {\n    id("com.android.application")\n}\nandroid {\n    namespace = "com.example.demo"\n    defaultConfig {\n        applicationId = "${options.applicationId ?? 'com.example.demo'}"\n    }\n}\n`,
  );
  writeFileSync(join(root, 'lib', 'build.gradle.kts'), 'plugins {\n    id("com.android.library")\n}\n');
  writeFileSync(
    join(root, 'gradle', 'wrapper', 'gradle-wrapper.properties'),
    'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.7-bin.zip\n',
  );
  writeFileSync(join(root, 'gradlew'), '#!/bin/sh\necho "fake gradlew $*"\n');
  chmodSync(join(root, 'gradlew'), 0o755);
  return root;
}
