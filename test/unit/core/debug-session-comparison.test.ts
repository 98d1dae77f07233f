import {
  changedFiles,
  chooseDefaultPair,
  compareSessions,
  type PairCandidate,
  type SessionFacts,
} from '../../../src/plugins/core/services/debug-session-comparison.js';

const sha = (c: string) => c.repeat(64);

function facts(id: string, over: Partial<SessionFacts> = {}, build: Partial<SessionFacts['build']> = {}): SessionFacts {
  return {
    session_id: id,
    device_serial: 'emulator-5554',
    package: 'com.example.notes',
    variant: 'debug',
    build: {
      build_id: `b-${id}`,
      tasks: [':app:assembleDebug'],
      module: ':app',
      variant: 'debug',
      version_code: 15,
      version_name: '1.5.0',
      apk_sha256: sha(id.slice(-1)),
      mapping_sha256: null,
      run_configuration: null,
      provenance: null,
      ...build,
    },
    first_launch: { total_ms: 400, launch_state: 'COLD' },
    crashes: [],
    exit_reasons: null,
    ...over,
  };
}

const crash = {
  signature_hash: '1111111111111111',
  title: 'java.lang.IllegalStateException: Note store is not initialised',
  kind: 'java',
};

describe('the default pair', () => {
  const c = (id: string, failures: number, launches = 1, variant: string | null = 'debug'): PairCandidate => ({
    session_id: id,
    package: 'com.example.notes',
    variant,
    launches,
    failures,
  });

  test('after crash → fix → rebuild → install → launch: the crashing session against the fixed one', () => {
    expect(chooseDefaultPair([c('ds-9', 0), c('ds-5', 2)])).toEqual({ from: 'ds-5', to: 'ds-9' });
  });

  test('a clean run then a crash: the regression, clean against crashing', () => {
    expect(chooseDefaultPair([c('ds-9', 1), c('ds-5', 0)])).toEqual({ from: 'ds-5', to: 'ds-9' });
  });

  test('sessions never launched, and other variants, are passed over; the newest change wins', () => {
    expect(
      chooseDefaultPair([
        c('ds-12', 0, 0),
        c('ds-11', 0, 1, 'release'),
        c('ds-10', 0),
        c('ds-8', 0),
        c('ds-6', 3),
        c('ds-2', 0),
      ]),
    ).toEqual({ from: 'ds-6', to: 'ds-8' });
  });

  test('no change between crashing and clean: no pair', () => {
    expect(chooseDefaultPair([c('ds-3', 0), c('ds-2', 0)])).toBeNull();
    expect(chooseDefaultPair([c('ds-3', 1)])).toBeNull();
  });
});

describe('comparing two sessions', () => {
  test('a fixed crash is gone, the build fields that differ are named', () => {
    const r = compareSessions(facts('ds-1', { crashes: [crash, crash] }), facts('ds-2'));
    expect(r.crashes.gone).toEqual([{ ...crash, from_count: 2, to_count: 0 }]);
    expect(r.crashes.new).toEqual([]);
    expect(r.build_differences.map((d) => d.field)).toEqual(['build_id', 'apk_sha256']);
  });

  test('launch times are compared on the same device in the same state only, else a note says why', () => {
    const warm = facts('ds-2', { first_launch: { total_ms: 300, launch_state: 'WARM' } });
    expect(
      compareSessions(facts('ds-1'), facts('ds-2', { first_launch: { total_ms: 350, launch_state: 'COLD' } })).launch,
    ).toEqual({
      from_ms: 400,
      to_ms: 350,
      delta_ms: -50,
    });
    expect(compareSessions(facts('ds-1'), warm).launch).toEqual({
      note: expect.stringMatching(/different or unknown states \(COLD, WARM\)/),
    });
    expect(compareSessions(facts('ds-1'), facts('ds-2', { device_serial: 'emulator-5556' })).launch).toEqual({
      note: expect.stringMatching(/different devices/),
    });
    expect(compareSessions(facts('ds-1'), facts('ds-2', { first_launch: null })).launch).toEqual({
      note: 'no launch recorded in ds-2',
    });
  });

  test('exit reasons by count, from the newest read of each', () => {
    const r = compareSessions(
      facts('ds-1', { exit_reasons: { 'APP CRASH(EXCEPTION)': 2, 'USER REQUESTED': 1 } }),
      facts('ds-2', { exit_reasons: { 'USER REQUESTED': 3 } }),
    );
    expect(r.exit_reasons).toEqual([
      { reason: 'APP CRASH(EXCEPTION)', from: 2, to: 0 },
      { reason: 'USER REQUESTED', from: 1, to: 3 },
    ]);
  });
});

describe('changed files from provenance', () => {
  const sources = (files: Record<string, string>) => ({
    sources: {
      files: Object.entries(files).map(([path, c]) => ({ path, sha256: sha(c) })),
      files_omitted: 0,
      unhashed: 0,
    },
  });
  const git = (commit: string, files: { path: string; change: string; sha256: string | null }[]) => ({
    git: { commit, branch: 'main', dirty: files.length > 0, files },
  });

  test('outside git: the source-set listings compared by content', () => {
    expect(
      changedFiles(
        sources({ 'app/src/main/A.kt': 'a', 'app/src/main/B.kt': 'b', 'app/src/main/Old.kt': 'o' }),
        sources({ 'app/src/main/A.kt': 'a', 'app/src/main/B.kt': 'c', 'app/src/main/New.kt': 'n' }),
      ),
    ).toEqual({
      files: [
        { path: 'app/src/main/B.kt', change: 'modified' },
        { path: 'app/src/main/New.kt', change: 'added' },
        { path: 'app/src/main/Old.kt', change: 'removed' },
      ],
      partial: false,
    });
  });

  test('at one commit: a file listed by one build only differs from the commit there', () => {
    const from = git('c1', [{ path: 'A.kt', change: 'modified', sha256: sha('a') }]);
    const to = git('c1', [
      { path: 'A.kt', change: 'modified', sha256: sha('a') },
      { path: 'B.kt', change: 'modified', sha256: sha('b') },
      { path: 'N.kt', change: 'untracked', sha256: sha('n') },
    ]);
    expect(changedFiles(from, to)).toEqual({
      files: [
        { path: 'B.kt', change: 'modified' },
        { path: 'N.kt', change: 'added' },
      ],
      partial: false,
    });
  });

  test('across commits the answer is partial and says where the committed changes are', () => {
    const r = changedFiles(git('c1', []), git('c2', []));
    expect(r.partial).toBe(true);
    expect(r.note).toMatch(/different commits .* compare_builds/);
  });

  test('an unknown build gives no list and says why', () => {
    expect(changedFiles(null, sources({}))).toEqual({
      files: [],
      partial: true,
      note: expect.stringMatching(/no provenance/),
    });
  });
});
