import { readFileSync } from 'node:fs';
import type { ServedTools } from './toolset-selection.js';

/**
 * What `initialize`, `tools/list` and `resources/list` publish, as plain JSON: written at build time from the
 * live registry (scripts/build.mjs → dist/tool-catalog.json, by tool-catalog-generator.ts) and read at start-up,
 * so `droidwright mcp` answers the handshake and the listing without evaluating zod, the SDK or any plugin.
 * Nothing here imports them: this module is on the start-up path.
 */
export interface ToolCatalog {
  /** droidwright's version when the catalog was written; the server refuses a catalog of another version. */
  readonly version: string;
  /** The MCP SDK's protocol versions, so the handshake answers exactly as the SDK's Server would. */
  readonly protocol: { readonly latest: string; readonly supported: readonly string[] };
  /** Every contributed toolset in canonical order, each with its tools in contribution order. */
  readonly toolsets: readonly CatalogToolset[];
}

export interface CatalogToolset {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly CatalogTool[];
}

/** One tool as `tools/list` publishes it, with the kind the served-tools filter needs. */
export interface CatalogTool {
  readonly name: string;
  readonly kind: 'R' | 'W' | 'D' | 'O';
  readonly published: PublishedTool;
}

export interface PublishedTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly annotations: Record<string, unknown>;
}

/** The capabilities the server announces in `initialize`, whichever path answers it. */
export const SERVER_CAPABILITIES = { tools: {}, resources: {}, prompts: {} } as const;

/** The catalog's tools this session serves, in the order tools/list gives them. */
export function servedCatalogTools(catalog: ToolCatalog, served: ServedTools): CatalogTool[] {
  return catalog.toolsets
    .filter((set) => served.toolsets.includes(set.name))
    .flatMap((set) => set.tools)
    .filter((tool) => !served.readOnly || tool.kind === 'R');
}

/** The catalog file beside the bundle. */
export const CATALOG_FILE = 'tool-catalog.json';

/**
 * Reads the build's catalog (dist/tool-catalog.json); undefined when there is none or it was written for another
 * version, and the caller then builds the listing from the live registry instead.
 */
export function readToolCatalog(url: URL, version: string): ToolCatalog | undefined {
  let catalog: ToolCatalog;
  try {
    catalog = JSON.parse(readFileSync(url, 'utf8')) as ToolCatalog;
  } catch {
    return undefined;
  }
  return catalog.version === version && Array.isArray(catalog.toolsets) ? catalog : undefined;
}
