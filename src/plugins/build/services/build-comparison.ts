import type { ProcessRunner } from '../../../kernel/process-runner.js';
import type { BuildProvenance } from '../build.events.js';
import { gitRunner } from './build-provenance.js';
import type { BuildRecord } from './build-history.js';

export type FileChange = 'added' | 'removed' | 'modified';

export interface ChangedBetweenBuilds {
  readonly path: string;
  readonly change: FileChange;
}

export interface BuildComparison {
  /** How the files were compared: git (commits and changed files), the source-set hashes, or not at all. */
  readonly basis: 'git' | 'source-hashes' | 'none';
  readonly sameCommit: boolean | null;
  /** Every file whose content differs between the two builds, by path. */
  readonly files: ChangedBetweenBuilds[];
  /** False when a bound, an unhashed file or an unreadable commit means files may be missing from the list. */
  readonly complete: boolean;
  /** Why the comparison is partial, when it is. */
  readonly notes: string[];
  readonly versions: { name: 'gradle' | 'agp' | 'jdk'; a: string | null; b: string | null }[];
}

/** A file's content in one build: absent, known by hash, or present but not hashed. */
type Content = { kind: 'absent' } | { kind: 'known'; sha256: string | null; blob: string | null } | { kind: 'unknown' };

const ABSENT: Content = { kind: 'absent' };
const UNKNOWN: Content = { kind: 'unknown' };
/** Bytes of `git ls-tree -r` / `git diff --name-only` output read per comparison (≈ 100,000 paths). */
const MAX_GIT_OUTPUT = 16 * 1024 * 1024;

type Provenance = BuildProvenance;
type DirtyFile = NonNullable<Provenance['git']['files']>[number];

function dirtyContent(f: DirtyFile): Content {
  if (f.change === 'deleted') return ABSENT;
  if (f.sha256 === null) return UNKNOWN;
  return { kind: 'known', sha256: f.sha256, blob: f.git_blob ?? null };
}

function changeBetween(a: Content, b: Content): FileChange | 'same' | 'unknown' {
  if (a.kind === 'absent' && b.kind === 'absent') return 'same';
  if (a.kind === 'absent') return 'added';
  if (b.kind === 'absent') return 'removed';
  if (a.kind === 'unknown' || b.kind === 'unknown') return 'unknown';
  if (a.sha256 !== null && b.sha256 !== null) return a.sha256 === b.sha256 ? 'same' : 'modified';
  if (a.blob !== null && b.blob !== null) return a.blob === b.blob ? 'same' : 'modified';
  return 'unknown';
}

/** `<mode> <type> <object>\t<path>` records of `git ls-tree -r -z`, path → object id (blobs only). */
function parseTree(output: string): Map<string, string> {
  const tree = new Map<string, string>();
  for (const record of output.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [, type, object] = record.slice(0, tab).split(' ');
    if (type === 'blob' && object) tree.set(record.slice(tab + 1), object);
  }
  return tree;
}

/**
 * Which files differ between two recorded builds of one project, from their provenance. With git, a file's
 * content in a build is its changed-file entry when `git status` listed it, else the commit's version: the
 * commit trees are read with the host's git when the commits differ. Without git, the source-set hashes
 * and build-file hashes are compared.
 */
export async function compareBuilds(
  runner: ProcessRunner,
  a: BuildRecord,
  b: BuildRecord,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BuildComparison> {
  const pa = a.provenance;
  const pb = b.provenance;
  const notes: string[] = [];
  let complete = true;
  const changes = new Map<string, FileChange>();
  const note = (n: string): void => {
    complete = false;
    notes.push(n);
  };
  const record = (path: string, change: ReturnType<typeof changeBetween>): void => {
    if (change === 'same') return;
    if (change === 'unknown') {
      // Present in both, not hashed in one: listed as modified, since it may be.
      changes.set(path, 'modified');
      if (complete) note(`${path} was not hashed in one build (over a size, byte or time bound); it may be unchanged.`);
      return;
    }
    changes.set(path, change);
  };

  let basis: BuildComparison['basis'] = 'none';
  const commitA = pa.git.commit;
  const commitB = pb.git.commit;
  if (commitA && commitB) {
    basis = 'git';
    if (!pa.git.files || !pb.git.files) {
      note(
        `Build ${!pa.git.files ? a.id : b.id} was recorded before droidwright listed changed files; only its commit and build files are compared.`,
      );
    }
    for (const [p, id] of [
      [pa, a.id],
      [pb, b.id],
    ] as const) {
      if ((p.git.files_omitted ?? 0) > 0)
        note(
          `Build ${id} had ${p.git.changed_files} changed files; only the first ${p.git.files?.length} were hashed.`,
        );
    }
    const dirtyA = new Map((pa.git.files ?? []).map((f) => [f.path, f]));
    const dirtyB = new Map((pb.git.files ?? []).map((f) => [f.path, f]));
    if (commitA === commitB) {
      // Same commit: a file listed in one build only is the commit's version in the other.
      for (const path of new Set([...dirtyA.keys(), ...dirtyB.keys()])) {
        const fa = dirtyA.get(path);
        const fb = dirtyB.get(path);
        if (fa && fb) record(path, changeBetween(dirtyContent(fa), dirtyContent(fb)));
        else {
          const f = (fa ?? fb)!;
          const listed = f.change === 'deleted' ? 'absent' : f.change === 'modified' ? 'changed' : 'new';
          const change: FileChange =
            listed === 'changed' ? 'modified' : (listed === 'absent') === !!fa ? 'added' : 'removed';
          changes.set(path, change);
        }
      }
    } else {
      const git = gitRunner(runner, a.projectRoot, env);
      const [diff, treeA, treeB] = git
        ? await Promise.all([
            git(['diff', '--name-only', '-z', '--no-renames', '--relative', commitA, commitB, '--'], MAX_GIT_OUTPUT),
            git(['ls-tree', '-r', '-z', commitA], MAX_GIT_OUTPUT),
            git(['ls-tree', '-r', '-z', commitB], MAX_GIT_OUTPUT),
          ])
        : [null, null, null];
      if (!diff || !treeA || !treeB || [diff, treeA, treeB].some((r) => r.exitCode !== 0 || r.truncated)) {
        note(
          git
            ? `git could not read commits ${commitA.slice(0, 12)} and ${commitB.slice(0, 12)} in ${a.projectRoot} (gone, or the tree too large); files changed by the commits are not listed.`
            : 'No git on this host: files changed by the commits between the builds are not listed.',
        );
        for (const path of new Set([...dirtyA.keys(), ...dirtyB.keys()])) {
          const fa = dirtyA.get(path);
          const fb = dirtyB.get(path);
          if (fa && fb) record(path, changeBetween(dirtyContent(fa), dirtyContent(fb)));
          else changes.set(path, 'modified');
        }
      } else {
        const blobsA = parseTree(treeA.stdout);
        const blobsB = parseTree(treeB.stdout);
        const fromTree = (tree: Map<string, string>, path: string): Content => {
          const blob = tree.get(path);
          return blob ? { kind: 'known', sha256: null, blob } : ABSENT;
        };
        const candidates = new Set([
          ...diff.stdout.split('\0').filter((p) => p !== ''),
          ...dirtyA.keys(),
          ...dirtyB.keys(),
        ]);
        for (const path of candidates) {
          const fa = dirtyA.get(path);
          const fb = dirtyB.get(path);
          const ca = fa ? dirtyContent(fa) : fromTree(blobsA, path);
          const cb = fb ? dirtyContent(fb) : fromTree(blobsB, path);
          record(path, changeBetween(ca, cb));
        }
      }
    }
  } else if (pa.sources && pb.sources) {
    basis = 'source-hashes';
    const fa = new Map(pa.sources.files.map((f) => [f.path, f.sha256]));
    const fb = new Map(pb.sources.files.map((f) => [f.path, f.sha256]));
    for (const [p, id] of [
      [pa, a.id],
      [pb, b.id],
    ] as const) {
      if (p.sources!.files_omitted > 0 || p.sources!.unhashed > 0)
        note(
          `Build ${id} listed ${p.sources!.files.length} of its ${p.sources!.files_total} source files by hash; files past that are not compared one by one (the source-set hashes ${pa.sources.sha256 === pb.sources.sha256 ? 'are equal' : 'differ'}).`,
        );
    }
    for (const path of new Set([...fa.keys(), ...fb.keys()])) {
      const ha = fa.get(path);
      const hb = fb.get(path);
      if (ha === hb) continue;
      // The listings are path-ordered prefixes: a path past one build's last listed path is unknown there, not absent.
      const beyondA = ha === undefined && pa.sources.files_omitted > 0 && path > (pa.sources.files.at(-1)?.path ?? '');
      const beyondB = hb === undefined && pb.sources.files_omitted > 0 && path > (pb.sources.files.at(-1)?.path ?? '');
      if (beyondA || beyondB) continue;
      changes.set(path, ha === undefined ? 'added' : hb === undefined ? 'removed' : 'modified');
    }
  } else {
    note(
      commitA || commitB
        ? 'One build was made in a git checkout and the other not, so their sources cannot be compared file by file.'
        : `Build ${!pa.sources ? a.id : b.id} was recorded before droidwright hashed source sets; only build files are compared.`,
    );
  }

  // The files that configure the build, hashed in every build record (outside git too).
  const buildA = new Map(pa.build_files.map((f) => [f.path, f.sha256]));
  const buildB = new Map(pb.build_files.map((f) => [f.path, f.sha256]));
  for (const path of new Set([...buildA.keys(), ...buildB.keys()])) {
    if (changes.has(path)) continue;
    const ha = buildA.get(path);
    const hb = buildB.get(path);
    if (ha !== hb) changes.set(path, ha === undefined ? 'added' : hb === undefined ? 'removed' : 'modified');
  }

  const versions: BuildComparison['versions'] = [];
  const version = (name: 'gradle' | 'agp' | 'jdk', va: string | null | undefined, vb: string | null | undefined) => {
    if ((va ?? null) !== (vb ?? null)) versions.push({ name, a: va ?? null, b: vb ?? null });
  };
  version('gradle', pa.gradle_version, pb.gradle_version);
  version('agp', pa.agp_version, pb.agp_version);
  version('jdk', pa.jdk.version, pb.jdk.version);

  const files = [...changes].map(([path, change]) => ({ path, change })).sort((x, y) => (x.path < y.path ? -1 : 1));
  return {
    basis,
    sameCommit: commitA && commitB ? commitA === commitB : null,
    files,
    complete,
    notes,
    versions,
  };
}
