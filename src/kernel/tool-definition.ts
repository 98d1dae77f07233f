import type { z } from 'zod';
import type { Actor } from '../shared/actor.js';
import type { EventAppender } from '../events/event-definition.js';

/** R reads only; W changes state; D destroys or replaces state; O runs project code. */
export type ToolKind = 'R' | 'W' | 'D' | 'O';

export const TOOLSET_NAMES = ['core', 'build', 'logcat', 'ui', 'device-admin'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly openWorldHint: boolean;
}

/** The annotations a tool of a given kind must carry; the registry refuses tools that disagree. */
export function annotationsForKind(kind: ToolKind, title: string): ToolAnnotations {
  switch (kind) {
    case 'R':
      return { title, readOnlyHint: true, destructiveHint: false, openWorldHint: false };
    case 'W':
      return { title, readOnlyHint: false, destructiveHint: false, openWorldHint: false };
    case 'D':
      return { title, readOnlyHint: false, destructiveHint: true, openWorldHint: false };
    case 'O':
      return { title, readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  }
}

export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface Logger {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

export interface ToolContext {
  readonly actor: Actor;
  /** Aborted when the client cancels the request (notifications/cancelled) or the session ends. */
  readonly signal: AbortSignal;
  /** Sends notifications/progress when the client asked for it; a no-op otherwise. */
  progress(update: ProgressUpdate): Promise<void>;
  /** Appends an event to the log with this call's actor filled in. */
  readonly append: EventAppender;
  readonly logger: Logger;
}

export interface ToolResult<O> {
  /** Must satisfy the tool's output schema; becomes `structuredContent`. */
  readonly data: O;
  /** One short line for the text content and the audit log (trimmed to 120 bytes there). */
  readonly summary: string;
  /** Images sent after the text (base64), e.g. a screenshot; counted in the response bound like the rest. */
  readonly images?: readonly { readonly data: string; readonly mimeType: 'image/png' | 'image/jpeg' }[];
}

/**
 * A tool that acts on one app declares where its package is, and the package-scope policy refuses a
 * package outside the selected project before the handler runs, unless `allowField` is true. Both
 * fields must be input fields (the registry checks at start-up).
 */
export interface PackageScopeDeclaration {
  /** The input field holding the application id, e.g. `package`. */
  readonly field: string;
  /** The boolean input field that lets the caller act on a package outside the project. */
  readonly allowField: string;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** snake_case, verb first, unique across toolsets. */
  readonly name: string;
  readonly toolset: ToolsetName;
  readonly kind: ToolKind;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  /** Input fields whose values are replaced by length + hash in the audit log. */
  readonly sensitive?: readonly string[];
  /** Set on tools that stop, restart or change an app: the package-scope policy guards them. */
  readonly packageScope?: PackageScopeDeclaration;
  handler(args: z.infer<I>, ctx: ToolContext): Promise<ToolResult<z.infer<O>>>;
}

/** Identity function that keeps the handler's argument and result types tied to the schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  def: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return def;
}

/**
 * A tool of any schemas, as toolsets list them and the registry holds them. Every `ToolDefinition<I, O>`
 * is assignable to it without a cast because `handler` is declared with method syntax, whose parameter
 * TypeScript checks bivariantly (test/types/tool-definitions.ts fails if it becomes a function property).
 * That is sound as long as a handler is only handed arguments its own `input` schema parsed.
 */
export interface AnyToolDefinition extends Omit<ToolDefinition, 'handler'> {
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult<Record<string, unknown>>>;
}
