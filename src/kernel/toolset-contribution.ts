import type { AnyToolDefinition, ToolsetName } from './tool-definition.js';

/** What a plugin contributes to the tool registry. Bind with `bind(ToolsetContribution).to(...)`. */
export const ToolsetContribution = Symbol.for('droidwright.ToolsetContribution');
export interface ToolsetContribution {
  readonly name: ToolsetName;
  /** One or two sentences; goes into the MCP `instructions` and the docs. */
  readonly description: string;
  tools(): readonly AnyToolDefinition[];
}
