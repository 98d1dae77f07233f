import { ToolRegistry } from '../kernel/tool-registry.js';
import { runtimeOptions, withContainer, writeOut } from './cli-support.js';
import { renderToolReference } from './tool-reference.js';

/** `droidwright docs`: the tool reference in Markdown on stdout (the source of docs/tools.md). */
export async function runDocsCommand(): Promise<number> {
  const text = await withContainer(runtimeOptions(), (container) => renderToolReference(container.get(ToolRegistry)));
  await writeOut(text);
  return 0;
}
