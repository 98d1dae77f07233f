import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectInspector } from '../../../src/plugins/core/services/project-inspector.js';
import { createFakeGradleProject } from '../../support/temp-home.js';

describe('project inspector', () => {
  test('finds application modules (plugin id or version-catalog alias), not libraries or `apply false` declarations, never outside the root', () => {
    const dir = mkdtempSync(join(tmpdir(), 'droidwright-test-inspect-'));
    try {
      const root = createFakeGradleProject(dir);
      mkdirSync(join(root, 'wear'));
      writeFileSync(join(root, 'wear', 'build.gradle.kts'), 'plugins { alias(libs.plugins.android.application) }\n');
      mkdirSync(join(dir, 'outside'));
      writeFileSync(join(dir, 'outside', 'build.gradle'), "apply plugin: 'com.android.application'\n");
      writeFileSync(join(root, 'settings.gradle.kts'), 'include(":app", ":lib", ":wear", ":..:outside")\n');
      writeFileSync(
        join(root, 'build.gradle.kts'),
        'plugins {\n    id("com.android.application") version "8.7.3" apply false\n}\n',
      );
      const modules = new ProjectInspector().applicationModules(root);
      expect(modules.map((m) => m.path)).toEqual([':app', ':wear']);
      expect(modules[0]).toMatchObject({
        dir: join(root, 'app'),
        application_id: 'com.example.demo',
        namespace: 'com.example.demo',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
