import type { Actor } from '../shared/actor.js';
import type { AnyToolDefinition } from './tool-definition.js';

export interface ToolCall {
  readonly tool: AnyToolDefinition;
  /** Arguments after schema validation (defaults applied). */
  readonly args: Record<string, unknown>;
  readonly actor: Actor;
}

/**
 * A check that runs after argument validation and before every handler (project trust for O tools,
 * package scope for D tools on apps, …). Bind with `bind(ToolCallPolicy).toConstantValue(...)`; every
 * binding runs. To refuse, throw InvalidArgumentsError (JSON-RPC invalid params, e.g. code
 * PROJECT_NOT_TRUSTED) or ToolError (an isError result). Refusals are recorded in the audit log.
 * A tool may equally refuse inside its handler before it spawns anything; the adapter records both.
 */
export const ToolCallPolicy = Symbol.for('droidwright.ToolCallPolicy');
export interface ToolCallPolicy {
  check(call: ToolCall): void | Promise<void>;
}
