import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { RegisteredTool, ToolRegistry } from '../kernel/tool-registry.js';
import { droidwrightVersion } from '../kernel/version.js';
import { publishedAnnotations, publishedSchema } from './published-schema.js';
import type { CatalogTool, ToolCatalog } from './tool-catalog.js';

/** One registered tool exactly as `tools/list` publishes it. */
export function publishTool(tool: RegisteredTool): Tool {
  const def = tool.definition;
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: publishedSchema(tool.input, 'input'),
    outputSchema: publishedSchema(def.output, 'output') as Tool['outputSchema'],
    annotations: publishedAnnotations(tool.annotations),
  };
}

/**
 * The catalog a registry publishes: what scripts/build.mjs writes to dist/tool-catalog.json, and what a session
 * built on a live container lists, so both paths publish the same bytes (test/e2e/mcp/tool-catalog.test.ts).
 */
export function catalogFromRegistry(registry: ToolRegistry): ToolCatalog {
  return {
    version: droidwrightVersion(),
    protocol: { latest: LATEST_PROTOCOL_VERSION, supported: [...SUPPORTED_PROTOCOL_VERSIONS] },
    toolsets: registry.toolsets().map((set) => ({
      name: set.name,
      description: set.description,
      tools: set.tools.map(
        (tool): CatalogTool => ({
          name: tool.definition.name,
          kind: tool.definition.kind,
          published: publishTool(tool) as CatalogTool['published'],
        }),
      ),
    })),
  };
}
