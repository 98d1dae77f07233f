import type { Digest, EventStore } from './event-store.js';
import type { ChainAnchor, VerifyResult } from './event-verifier.js';

/** Events per `importVerbatim` call: one transaction each, so a stopped copy resumes at most a page back. */
export const MIGRATION_PAGE = 1000;

/** One side of a migration as reported: where (printable, no password), which store, how far, and its verify. */
export interface MigrationSide {
  readonly location: string;
  readonly kind: EventStore['kind'];
  readonly head: Digest;
  readonly verify: VerifyResult;
}

export interface MigrationReport {
  readonly ok: boolean;
  /** Events written to the destination by this run. */
  readonly copied: number;
  /** The seq the copy started after: 0 for a fresh copy, else the source's prefix the destination already held. */
  readonly resumedAfter: number;
  /** The destination already held the whole source (and `destinationAhead` events after it). */
  readonly destinationAhead: number;
  readonly from: MigrationSide;
  readonly to: MigrationSide;
  /** Why `ok` is false: the destination did not verify, or does not hold the source's head. */
  readonly reason?: string;
}

/**
 * The migration would mix two different logs (or copy a broken one). Thrown before anything is written,
 * so the destination is exactly as it was.
 */
export class MigrationRefusedError extends Error {
  override readonly name = 'MigrationRefusedError';
}

export interface MigrationOptions {
  /** Heads this machine witnessed for the source (its witness file): a truncated source is refused. */
  readonly sourceAnchors?: readonly ChainAnchor[];
  readonly pageSize?: number;
  /** Called after each page with the events copied so far and the number to copy. */
  readonly onProgress?: (copied: number, total: number) => void;
}

const short = (hash: string): string => `${hash.slice(0, 12)}…`;

/**
 * Copies `source` into `destination` event by event as stored (seq, id, at, actor, data, hashes) through
 * `importVerbatim`, so the copy verifies byte for byte on either store. A destination that holds a prefix of the
 * source's chain (its head is the source's event at that seq) is resumed; one whose head is not in the source is
 * a different log and is refused, as is a source that does not verify. Copies up to the source's head as read
 * at the start: events appended meanwhile are copied by running it again. Verifies the destination at the end.
 */
export function migrateEventLog(
  source: EventStore,
  destination: EventStore,
  options: MigrationOptions = {},
): MigrationReport {
  const pageSize = options.pageSize ?? MIGRATION_PAGE;
  const sourceVerify = source.verify(options.sourceAnchors?.length ? { anchors: options.sourceAnchors } : {});
  if (!sourceVerify.ok) {
    throw new MigrationRefusedError(
      `The source ${source.path} does not verify${sourceVerify.firstBadSeq !== undefined ? ` at seq ${sourceVerify.firstBadSeq}` : ''}: ${sourceVerify.reason ?? 'hash mismatch'}. Nothing was copied; a broken log is not migrated (run \`droidwright events verify\` on it).`,
    );
  }
  const sourceHead = source.digest();
  const destinationHead = destination.digest();
  let resumeAfter = 0;
  let destinationAhead = 0;
  if (destinationHead.seq > 0) {
    if (destinationHead.seq <= sourceHead.seq) {
      const sourceAt = source.readAfter(destinationHead.seq - 1, 1)[0];
      if (sourceAt?.seq !== destinationHead.seq || sourceAt.hash !== destinationHead.hash) {
        throw new MigrationRefusedError(
          `The destination ${destination.path} holds a different log: its head (seq ${destinationHead.seq}, hash ${short(destinationHead.hash)}) is not in the source ${source.path}${sourceAt ? `, whose event at seq ${destinationHead.seq} has hash ${short(sourceAt.hash)}` : ''}. Refusing to merge two chains; nothing was written. Migrate into an empty database, or keep both logs apart.`,
        );
      }
      resumeAfter = destinationHead.seq;
    } else {
      // The destination is longer: fine only if it already extends the whole source (a re-run after switching).
      const destinationAt = sourceHead.seq > 0 ? destination.readAfter(sourceHead.seq - 1, 1)[0] : undefined;
      if (sourceHead.seq > 0 && destinationAt?.hash !== sourceHead.hash) {
        throw new MigrationRefusedError(
          `The destination ${destination.path} holds a different log: it has ${destinationHead.seq} events and its event at seq ${sourceHead.seq} (hash ${destinationAt ? short(destinationAt.hash) : 'none'}) is not the source's head (hash ${short(sourceHead.hash)}). Refusing to merge two chains; nothing was written.`,
        );
      }
      resumeAfter = sourceHead.seq;
      destinationAhead = destinationHead.seq - sourceHead.seq;
    }
  }

  const total = Math.max(0, sourceHead.seq - resumeAfter);
  let copied = 0;
  let after = resumeAfter;
  while (after < sourceHead.seq) {
    const page = source.readAfter(after, Math.min(pageSize, sourceHead.seq - after));
    if (page.length === 0) break;
    destination.importVerbatim(page);
    copied += page.length;
    after = page[page.length - 1]!.seq;
    options.onProgress?.(copied, total);
  }

  const destinationVerify = destination.verify();
  const reached = sourceHead.seq > 0 ? destination.readAfter(sourceHead.seq - 1, 1)[0] : undefined;
  const holdsHead = sourceHead.seq === 0 || reached?.hash === sourceHead.hash;
  const reason = !destinationVerify.ok
    ? `the destination does not verify${destinationVerify.firstBadSeq !== undefined ? ` at seq ${destinationVerify.firstBadSeq}` : ''}: ${destinationVerify.reason ?? 'hash mismatch'}`
    : !holdsHead
      ? `the destination does not hold the source's head (seq ${sourceHead.seq}, hash ${short(sourceHead.hash)})`
      : undefined;
  return {
    ok: reason === undefined,
    copied,
    resumedAfter: resumeAfter,
    destinationAhead,
    from: { location: source.path, kind: source.kind, head: sourceHead, verify: sourceVerify },
    to: { location: destination.path, kind: destination.kind, head: destination.digest(), verify: destinationVerify },
    ...(reason ? { reason } : {}),
  };
}
