import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseApplicationId, parseIncludes, ProjectInspector } from '../../../src/plugins/core/services/project-inspector.js';
import { createFakeGradleProject } from '../../support/temp-home.js';

describe('project inspector', () => {
  test('parses include statements in Kotlin and Groovy settings, ignoring comments', () => {
    expect(parseIncludes('include(":app", ":feature:login")\ninclude ":lib"\n// include(":old")\ninclude \'legacy\'')).toEqual([':app', ':feature:login', ':lib', ':legacy']);
  });

  test('reads literal applicationId and namespace', () => {
    expect(parseApplicationId('android { namespace = "a.b"\n defaultConfig { applicationId = "a.b.c" } }')).toEqual({ applicationId: 'a.b.c', namespace: 'a.b' });
    expect(parseApplicationId("android { defaultConfig { applicationId 'x.y' } }")).toEqual({ applicationId: 'x.y', namespace: null });
    expect(parseApplicationId('android { defaultConfig { applicationId = computeId() } }').applicationId).toBeNull();
  });

  test('finds application modules (plugin id or version-catalog alias), not libraries, never outside the root', () => {
    const dir = mkdtempSync(join(tmpdir(), 'droidwright-test-inspect-'));
    try {
      const root = createFakeGradleProject(dir);
      mkdirSync(join(root, 'wear'));
      writeFileSync(join(root, 'wear', 'build.gradle.kts'), 'plugins { alias(libs.plugins.android.application) }\n');
      mkdirSync(join(dir, 'outside'));
      writeFileSync(join(dir, 'outside', 'build.gradle'), "apply plugin: 'com.android.application'\n");
      writeFileSync(join(root, 'settings.gradle.kts'), 'include(":app", ":lib", ":wear", ":..:outside")\n');
      const modules = new ProjectInspector().applicationModules(root);
      expect(modules.map((m) => m.path)).toEqual([':app', ':wear']);
      expect(modules[0]).toMatchObject({ dir: join(root, 'app'), application_id: 'com.example.demo', namespace: 'com.example.demo' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
