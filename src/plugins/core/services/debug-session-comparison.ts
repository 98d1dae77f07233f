import { z } from 'zod';

/*
 * What changed between two debug sessions: pure functions over what the reader loaded, so they are tested
 * without a log. Build provenance is read through the minimal shape below (the build plugin's schema is not
 * imported: plugins never import each other).
 */

const ListedFile = z.object({
  path: z.string(),
  change: z.string().optional(),
  sha256: z.string().nullable().optional(),
});
export const ProvenanceShape = z.object({
  git: z
    .object({
      commit: z.string().nullable(),
      branch: z.string().nullable(),
      dirty: z.boolean().nullable(),
      files: z.array(ListedFile).optional(),
      files_omitted: z.number().optional(),
    })
    .optional(),
  sources: z
    .object({
      files: z.array(z.object({ path: z.string(), sha256: z.string() })),
      files_omitted: z.number(),
      unhashed: z.number(),
    })
    .optional(),
});
export type ProvenanceFacts = z.infer<typeof ProvenanceShape>;

export function parseProvenance(json: string | null): ProvenanceFacts | null {
  if (!json) return null;
  try {
    const parsed = ProvenanceShape.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The facts of one session that a comparison uses. */
export interface SessionFacts {
  readonly session_id: string;
  readonly device_serial: string;
  readonly package: string;
  readonly variant: string | null;
  readonly build: {
    readonly build_id: string | null;
    readonly tasks: readonly string[] | null;
    readonly module: string | null;
    readonly variant: string | null;
    readonly version_code: number;
    readonly version_name: string | null;
    readonly apk_sha256: string;
    readonly mapping_sha256: string | null;
    readonly run_configuration: string | null;
    readonly provenance: ProvenanceFacts | null;
  };
  readonly first_launch: { readonly total_ms: number | null; readonly launch_state: string | null } | null;
  readonly crashes: readonly { readonly signature_hash: string; readonly title: string; readonly kind: string }[];
  /** Reasons of the newest exit history read in the session, by count; null when none was read. */
  readonly exit_reasons: Readonly<Record<string, number>> | null;
}

export interface ChangedFile {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'removed';
}

export interface FileChanges {
  readonly files: ChangedFile[];
  /** True when the list may miss files; `note` says why. */
  readonly partial: boolean;
  readonly note?: string;
}

const MAX_FILES = 200;

/** The source files whose content differs between two builds, from the file lists their provenance recorded. */
export function changedFiles(from: ProvenanceFacts | null, to: ProvenanceFacts | null): FileChanges {
  if (!from || !to)
    return {
      files: [],
      partial: true,
      note: 'a build is unknown or recorded no provenance, so no file list to compare',
    };
  const fromCommit = from.git?.commit ?? null;
  const toCommit = to.git?.commit ?? null;
  if (fromCommit && toCommit) {
    const a = new Map((from.git?.files ?? []).map((f) => [f.path, f]));
    const b = new Map((to.git?.files ?? []).map((f) => [f.path, f]));
    const sameCommit = fromCommit === toCommit;
    const files: ChangedFile[] = [];
    let unknown = 0;
    for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const x = a.get(path);
      const y = b.get(path);
      const gone = (f: typeof x) => !f || f.change === 'deleted';
      if (x && y) {
        if (gone(x) && gone(y)) continue;
        if (!gone(x) && !gone(y) && (!x.sha256 || !y.sha256)) {
          unknown++;
          continue;
        }
        if (x.sha256 === y.sha256 && !gone(x) && !gone(y)) continue;
        files.push({ path, change: gone(y) ? 'removed' : gone(x) ? 'added' : 'modified' });
      } else if (sameCommit) {
        // Listed by one build only: it differs from the commit there and matches it in the other.
        const listed = (x ?? y)!;
        const fresh = listed.change === 'added' || listed.change === 'untracked';
        const change: ChangedFile['change'] = x
          ? fresh
            ? 'removed'
            : 'modified'
          : listed.change === 'deleted'
            ? 'removed'
            : fresh
              ? 'added'
              : 'modified';
        files.push({ path, change });
      }
    }
    const omitted = (from.git?.files_omitted ?? 0) + (to.git?.files_omitted ?? 0);
    const notes: string[] = [];
    if (!sameCommit)
      notes.push(
        `built from different commits (${fromCommit.slice(0, 12)} → ${toCommit.slice(0, 12)}): only uncommitted files are compared here; compare_builds with both build ids lists what the commits changed`,
      );
    if (omitted > 0) notes.push(`${omitted} changed file(s) were past the provenance listing bound`);
    if (unknown > 0) notes.push(`${unknown} file(s) were listed without a hash`);
    return cut(files, !sameCommit || omitted > 0 || unknown > 0, notes);
  }
  if (!fromCommit && !toCommit && from.sources && to.sources) {
    const a = new Map(from.sources.files.map((f) => [f.path, f.sha256]));
    const b = new Map(to.sources.files.map((f) => [f.path, f.sha256]));
    const files: ChangedFile[] = [];
    for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const x = a.get(path);
      const y = b.get(path);
      if (x === y) continue;
      files.push({ path, change: x === undefined ? 'added' : y === undefined ? 'removed' : 'modified' });
    }
    const bounded = from.sources.files_omitted + to.sources.files_omitted + from.sources.unhashed + to.sources.unhashed;
    return cut(files, bounded > 0, bounded > 0 ? [`${bounded} source file(s) were past the bound or not hashed`] : []);
  }
  return {
    files: [],
    partial: true,
    note: 'one build was made inside git and the other outside it, so their file lists cannot be compared',
  };
}

function cut(files: ChangedFile[], partial: boolean, notes: string[]): FileChanges {
  if (files.length > MAX_FILES) notes.push(`${files.length - MAX_FILES} more changed file(s) not listed`);
  return {
    files: files.slice(0, MAX_FILES),
    partial: partial || files.length > MAX_FILES,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

export interface FieldDifference {
  readonly field: string;
  readonly from: string | number | boolean | null;
  readonly to: string | number | boolean | null;
}

export interface CrashSignatureDelta {
  readonly signature_hash: string;
  readonly title: string;
  readonly kind: string;
  readonly from_count: number;
  readonly to_count: number;
}

export interface SessionComparison {
  readonly build_differences: FieldDifference[];
  readonly changed_files: FileChanges;
  readonly crashes: {
    readonly new: CrashSignatureDelta[];
    readonly gone: CrashSignatureDelta[];
    readonly persisting: CrashSignatureDelta[];
  };
  readonly launch:
    | { readonly from_ms: number; readonly to_ms: number; readonly delta_ms: number }
    | { readonly note: string };
  readonly exit_reasons: { readonly reason: string; readonly from: number; readonly to: number }[];
}

export function compareSessions(from: SessionFacts, to: SessionFacts): SessionComparison {
  const a = from.build;
  const b = to.build;
  const fields: [string, string | number | boolean | null, string | number | boolean | null][] = [
    ['build_id', a.build_id, b.build_id],
    ['tasks', a.tasks?.join(' ') ?? null, b.tasks?.join(' ') ?? null],
    ['module', a.module, b.module],
    ['variant', a.variant, b.variant],
    ['version_code', a.version_code, b.version_code],
    ['version_name', a.version_name, b.version_name],
    ['apk_sha256', a.apk_sha256, b.apk_sha256],
    ['mapping_sha256', a.mapping_sha256, b.mapping_sha256],
    ['run_configuration', a.run_configuration, b.run_configuration],
    ['commit', a.provenance?.git?.commit ?? null, b.provenance?.git?.commit ?? null],
    ['branch', a.provenance?.git?.branch ?? null, b.provenance?.git?.branch ?? null],
    ['dirty', a.provenance?.git?.dirty ?? null, b.provenance?.git?.dirty ?? null],
    ['device_serial', from.device_serial, to.device_serial],
  ];
  const build_differences = fields.filter(([, x, y]) => x !== y).map(([field, x, y]) => ({ field, from: x, to: y }));

  const signatures = new Map<string, { title: string; kind: string; from: number; to: number }>();
  for (const [side, list] of [
    ['from', from.crashes],
    ['to', to.crashes],
  ] as const) {
    for (const c of list) {
      const entry = signatures.get(c.signature_hash) ?? { title: c.title, kind: c.kind, from: 0, to: 0 };
      entry[side]++;
      signatures.set(c.signature_hash, entry);
    }
  }
  const deltas = [...signatures].map(([signature_hash, s]) => ({
    signature_hash,
    title: s.title,
    kind: s.kind,
    from_count: s.from,
    to_count: s.to,
  }));

  const reasons = new Set([...Object.keys(from.exit_reasons ?? {}), ...Object.keys(to.exit_reasons ?? {})]);
  return {
    build_differences,
    changed_files: changedFiles(a.provenance, b.provenance),
    crashes: {
      new: deltas.filter((d) => d.from_count === 0),
      gone: deltas.filter((d) => d.to_count === 0),
      persisting: deltas.filter((d) => d.from_count > 0 && d.to_count > 0),
    },
    launch: launchDelta(from, to),
    exit_reasons: [...reasons].sort().map((reason) => ({
      reason,
      from: from.exit_reasons?.[reason] ?? 0,
      to: to.exit_reasons?.[reason] ?? 0,
    })),
  };
}

/** The first launch of each session, compared only on the same device in the same launch state (cold vs cold). */
function launchDelta(from: SessionFacts, to: SessionFacts): SessionComparison['launch'] {
  const x = from.first_launch;
  const y = to.first_launch;
  if (!x || !y) return { note: `no launch recorded in ${!x ? from.session_id : to.session_id}` };
  if (x.total_ms === null || y.total_ms === null) return { note: 'a launch reported no total time' };
  if (from.device_serial !== to.device_serial)
    return {
      note: `launched on different devices (${from.device_serial}, ${to.device_serial}): times are not comparable`,
    };
  if (!x.launch_state || x.launch_state !== y.launch_state)
    return {
      note: `first launches were in different or unknown states (${x.launch_state ?? '?'}, ${y.launch_state ?? '?'}): times are not comparable`,
    };
  return { from_ms: x.total_ms, to_ms: y.total_ms, delta_ms: y.total_ms - x.total_ms };
}

/** A session as the default pair choice sees it. */
export interface PairCandidate {
  readonly session_id: string;
  readonly package: string;
  readonly variant: string | null;
  readonly launches: number;
  /** Crashes, native crashes and ANRs attributed to it. */
  readonly failures: number;
}

/**
 * The pair `compare_debug_sessions` compares without arguments: the newest change between a session that crashed
 * and one that did not, of the same package and variant, both launched. Walking newest first, the newest launched
 * session is matched with the closest earlier launched one of the same package and variant whose crash state
 * differs: a crash then a clean run is the fix (crashes gone), a clean run then a crash is the regression (crashes
 * new). `candidates` is newest first.
 */
export function chooseDefaultPair(candidates: readonly PairCandidate[]): { from: string; to: string } | null {
  const launched = candidates.filter((c) => c.launches > 0);
  for (let i = 0; i < launched.length; i++) {
    const later = launched[i]!;
    for (let j = i + 1; j < launched.length; j++) {
      const earlier = launched[j]!;
      if (earlier.package !== later.package || earlier.variant !== later.variant) continue;
      if (earlier.failures > 0 !== later.failures > 0) return { from: earlier.session_id, to: later.session_id };
      // The closest earlier session of the pair's kind decides; an older change belongs to an older pair.
      break;
    }
  }
  return null;
}
