import type { Actor } from '../shared/actor.js';
import type { AnyToolDefinition } from './tool-definition.js';

export interface ToolCall {
  readonly tool: AnyToolDefinition;
  /** Arguments after schema validation (defaults applied). */
  readonly args: Record<string, unknown>;
  readonly actor: Actor;
}

/**
 * A check the MCP adapter runs once per call, after argument validation and before the handler, like
 * a middleware: project trust for every O tool (ProjectTrustPolicy), package scope for every tool that
 * declares `packageScope` (the android layer's PackageScopePolicy). Tools do not repeat these checks.
 * Bind with `bind(ToolCallPolicy).to(...)`; every binding runs. To refuse, throw InvalidArgumentsError
 * or ToolError with a code and a message saying what to do next: the caller gets an `isError` result
 * and the refusal is recorded in the audit log.
 */
export const ToolCallPolicy = Symbol.for('droidwright.ToolCallPolicy');
export interface ToolCallPolicy {
  check(call: ToolCall): void | Promise<void>;
}

/** Runs every policy in order; the first refusal throws. */
export async function checkToolCall(policies: readonly ToolCallPolicy[], call: ToolCall): Promise<void> {
  for (const policy of policies) await policy.check(call);
}
