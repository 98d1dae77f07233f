import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { ToolRegistry } from '../../../src/kernel/tool-registry.js';
import { renderToolReference } from '../../../src/cli/tool-reference.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { REPO_ROOT } from '../../support/mcp-client.js';

test('docs/tools.md is the reference generated from the registry (regenerate with `npm run docs`)', () => {
  const home = process.env.DROIDWRIGHT_HOME!;
  const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, pluginModules);
  try {
    const generated = renderToolReference(container.get(ToolRegistry));
    const committed = readFileSync(join(REPO_ROOT, 'docs', 'tools.md'), 'utf8');
    expect(committed).toBe(generated);
    for (const tool of container.get(ToolRegistry).list()) expect(generated).toContain(`### ${tool.definition.name}`);
  } finally {
    disposeContainer(container);
  }
});
