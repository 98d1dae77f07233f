import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContainer, disposeContainer } from '../kernel/composition-root.js';
import { ToolRegistry } from '../kernel/tool-registry.js';
import { pluginModules } from '../plugins/index.js';
import type { ToolCatalog } from './tool-catalog.js';
import { catalogFromRegistry } from './tool-catalog-generator.js';

/**
 * The catalog every plugin's tools publish, from a container over all of them (scripts/build.mjs writes it to
 * dist/tool-catalog.json). What a tool publishes does not depend on the project, the data directory or the
 * environment, so neutral ones are used; nothing is opened.
 */
export function buildToolCatalog(): ToolCatalog {
  const home = join(tmpdir(), 'droidwright-tool-catalog-unused');
  const container = createContainer({ home, cwd: '/', readOnly: false, env: {} }, pluginModules);
  try {
    return catalogFromRegistry(container.get(ToolRegistry));
  } finally {
    disposeContainer(container);
  }
}
