/** How this process was started: data directory, working directory, and the `mcp` flags. */
export const RuntimeOptions = Symbol.for('droidwright.RuntimeOptions');
export interface RuntimeOptions {
  readonly home: string;
  /**
   * The event log (`--store` / $DROIDWRIGHT_STORE): a postgres:// URL, which may hold a password (show it only
   * through the store's `path` or `redactLocation`), or a SQLite file. Undefined: events.db in `home`.
   */
  readonly store?: string;
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
