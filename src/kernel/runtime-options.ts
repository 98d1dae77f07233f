/** How this process was started: data directory, working directory, and the `mcp` flags. */
export const RuntimeOptions = Symbol.for('droidwright.RuntimeOptions');
export interface RuntimeOptions {
  readonly home: string;
  readonly cwd: string;
  /** `--project`, when given. */
  readonly projectPath?: string;
  /** `--toolsets`; undefined serves every contributed toolset. */
  readonly toolsets?: readonly string[];
  /** `--read-only`: serve only R tools. */
  readonly readOnly: boolean;
  /** `--confirm`: which tool calls the person must confirm through the client (MCP elicitation). */
  readonly confirm?: ConfirmMode;
  readonly env: NodeJS.ProcessEnv;
}

/** `destructive`: D and O calls; `all-writes`: W, D and O calls. */
export const CONFIRM_MODES = ['destructive', 'all-writes'] as const;
export type ConfirmMode = (typeof CONFIRM_MODES)[number];
