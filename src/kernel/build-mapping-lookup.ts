/** One R8/ProGuard mapping file a recorded build wrote, as the build history lists it. */
export interface BuildMapping {
  readonly buildId: string;
  readonly projectRoot: string;
  readonly module: string;
  readonly variant: string;
  /** Where the build wrote it; a later build of the same variant overwrites it, so check `sha256` before use. */
  readonly path: string;
  /** Lowercase hex SHA-256 of the file as the build wrote it. */
  readonly sha256: string;
  /** UTC epoch milliseconds of the build's end. */
  readonly finishedAt: number;
}

/**
 * The mapping files recorded builds wrote. The build plugin answers it from its build history; the logcat plugin
 * asks through this token (to retrace a crash with the mapping of the build that crashed) instead of reading build
 * events.
 */
export const BuildMappingLookup = Symbol.for('droidwright.BuildMappingLookup');
export interface BuildMappingLookup {
  /** The mappings one build wrote (empty for a build that was not minified, or unknown id). */
  mappingsOfBuild(buildId: string): BuildMapping[];
  /** Mappings of the newest builds that wrote any, newest first (at most `limit`, default and maximum 200). */
  recentMappings(query?: { projectRoot?: string; limit?: number }): BuildMapping[];
}
