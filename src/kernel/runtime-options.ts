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
  readonly env: NodeJS.ProcessEnv;
}
