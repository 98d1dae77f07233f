/** One APK a recorded build wrote, as the build history lists it. */
export interface BuildArtifact {
  readonly buildId: string;
  readonly projectRoot: string;
  /** Where the build wrote it, as recorded when the build finished. */
  readonly path: string;
  readonly module: string | null;
  readonly variant: string | null;
  /** UTC epoch milliseconds of the build's end. */
  readonly finishedAt: number;
}

export interface BuildArtifactQuery {
  /** Only builds of this project (its canonical root). */
  readonly projectRoot?: string;
  /** Default and maximum 200: the newest builds are the ones an install means. */
  readonly limit?: number;
}

/**
 * Which builds wrote an APK with given bytes. The build plugin answers it from its own read model; other
 * plugins ask through this token instead of reading build events, so the build event's shape stays the
 * build plugin's business.
 */
export const BuildArtifactLookup = Symbol.for('droidwright.BuildArtifactLookup');
export interface BuildArtifactLookup {
  /** Every recorded APK with this lowercase hex SHA-256, newest build first. */
  findBuildsByApkHash(sha256: string, query?: BuildArtifactQuery): BuildArtifact[];
}
