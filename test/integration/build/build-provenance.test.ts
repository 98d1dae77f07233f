import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadGradleProject } from '../../../src/android/gradle-project-model.js';
import { ProcessRunner } from '../../../src/kernel/process-runner.js';
import type { BuildProvenance } from '../../../src/plugins/build/build.events.js';
import { compareBuilds } from '../../../src/plugins/build/services/build-comparison.js';
import type { BuildRecord } from '../../../src/plugins/build/services/build-history.js';
import {
  agpVersion,
  agpVersionFromCatalog,
  collectProvenance,
  gitState,
} from '../../../src/plugins/build/services/build-provenance.js';
import { createTempHome } from '../../support/temp-home.js';
import { copyFixtureProject } from './fixture-project.js';

/*
 * Build provenance against real files and the host's real git: which files a dirty tree changed (with
 * their content hashes), the source-set hashes of a project outside git, the AGP version as real build
 * files write it, and what compare_builds concludes from two recorded builds.
 */

const runner = new ProcessRunner();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const noJdk = { javaHome: null, source: null } as const;

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
}

function record(id: string, root: string, provenance: BuildProvenance): BuildRecord {
  return { id, projectRoot: root, status: 'success', provenance } as BuildRecord;
}

describe('AGP version from real-style build files', () => {
  let temp: { home: string; cleanup(): void };
  beforeEach(() => (temp = createTempHome('agp')));
  afterEach(() => temp.cleanup());

  function project(files: Record<string, string>) {
    const root = join(temp.home, 'p');
    rmSync(root, { recursive: true, force: true });
    for (const [path, text] of Object.entries({ 'settings.gradle': "include ':app'\n", ...files })) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return loadGradleProject(root);
  }

  it('reads the plugins block (groovy and kts) and the version catalog of the fixtures', () => {
    expect(agpVersion(loadGradleProject(resolve('test/fixtures/projects/groovy-app')))).toBe('8.5.2');
    expect(agpVersion(loadGradleProject(resolve('test/fixtures/projects/kts-flavors')))).toBe('8.7.3');
    expect(agpVersion(loadGradleProject(resolve('examples/notes-app')))).toBe('8.7.3');
  });

  it('reads the buildscript classpath, with its version in an ext variable or gradle.properties', () => {
    expect(
      agpVersion(
        project({
          'build.gradle':
            'buildscript {\n    ext.agp_version = \'7.4.2\'\n    dependencies {\n        classpath "com.android.tools.build:gradle:$agp_version"\n    }\n}\n',
        }),
      ),
    ).toBe('7.4.2');
    expect(
      agpVersion(
        project({
          'build.gradle.kts':
            'buildscript {\n    dependencies {\n        classpath("com.android.tools.build:gradle:8.2.0")\n    }\n}\n',
        }),
      ),
    ).toBe('8.2.0');
    expect(
      agpVersion(
        project({
          'build.gradle': 'buildscript { dependencies { classpath "com.android.tools.build:gradle:${agpVersion}" } }\n',
          'gradle.properties': 'agpVersion=8.3.1\n',
        }),
      ),
    ).toBe('8.3.1');
    // A settings plugins block (pluginManagement) in kts.
    expect(
      agpVersion(
        project({
          'settings.gradle.kts':
            'pluginManagement {\n  plugins {\n    id("com.android.library") version("8.4.0") apply false\n  }\n}\ninclude(":app")\n',
        }),
      ),
    ).toBe('8.4.0');
    // A convention plugin sets it: nothing in the files says which.
    expect(agpVersion(project({ 'build.gradle.kts': 'plugins { id("com.android.application") }\n' }))).toBeNull();
  });

  it('reads the catalog in every notation', () => {
    expect(
      agpVersionFromCatalog(
        '[versions]\nandroidGradlePlugin = "8.6.0"\n[libraries]\nandroid-gradlePlugin = { module = "com.android.tools.build:gradle", version.ref = "androidGradlePlugin" }\n',
      ),
    ).toBe('8.6.0');
    expect(agpVersionFromCatalog('[libraries]\nagp = "com.android.tools.build:gradle:8.1.1"\n')).toBe('8.1.1');
    expect(
      agpVersionFromCatalog(
        '[libraries]\nagp = { group = "com.android.tools.build", name = "gradle", version = "7.3.0" }\n',
      ),
    ).toBe('7.3.0');
    expect(
      agpVersionFromCatalog(
        '[versions]\nagp = "8.0.2"\n[plugins]\nandroid-app = { id = "com.android.application", version = { ref = "agp" } }\n',
      ),
    ).toBe('8.0.2');
    expect(
      agpVersionFromCatalog('[plugins]\nkotlin = { id = "org.jetbrains.kotlin.android", version = "2.0.0" }\n'),
    ).toBeNull();
  });
});

describe('sources in the provenance', () => {
  let fixture: { root: string; cleanup(): void };
  beforeEach(() => (fixture = copyFixtureProject('kts-flavors')));
  afterEach(() => fixture.cleanup());

  it('lists each changed and untracked file of a git checkout with its hashes, leaving ignored files out', async () => {
    const root = fixture.root;
    writeFileSync(join(root, '.gitignore'), 'build/\n.stand-in-gradle/\nlocal.properties\n');
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'first');
    const kotlin = join(root, 'app', 'src', 'main', 'java', 'Changed.kt');
    mkdirSync(join(kotlin, '..'), { recursive: true });
    writeFileSync(kotlin, 'class Changed\n');
    writeFileSync(
      join(root, 'app', 'build.gradle.kts'),
      `${readFileSync(join(root, 'app', 'build.gradle.kts'), 'utf8')}\n// edited\n`,
    );
    unlinkSync(join(root, 'gradle.properties'));
    writeFileSync(join(root, 'local.properties'), 'sdk.dir=/nowhere\n');
    mkdirSync(join(root, 'app', 'build'), { recursive: true });
    writeFileSync(join(root, 'app', 'build', 'ignored.txt'), 'x');

    const state = await gitState(runner, root);
    expect(state.commit).toBe(git(root, 'rev-parse', 'HEAD').trim());
    expect(state.branch).toBe('main');
    expect(state).toMatchObject({ dirty: true, changed_files: 3, files_omitted: 0 });
    const edited = readFileSync(join(root, 'app', 'build.gradle.kts'));
    expect(state.files).toEqual([
      {
        path: 'app/build.gradle.kts',
        change: 'modified',
        sha256: createHash('sha256').update(edited).digest('hex'),
        git_blob: git(root, 'hash-object', 'app/build.gradle.kts').trim(),
      },
      {
        path: 'app/src/main/java/Changed.kt',
        change: 'untracked',
        sha256: sha256('class Changed\n'),
        git_blob: git(root, 'hash-object', 'app/src/main/java/Changed.kt').trim(),
      },
      { path: 'gradle.properties', change: 'deleted', sha256: null },
    ]);
  });

  it('names files relative to a project that lives in a subdirectory of the repository', async () => {
    const repo = join(fixture.root, '..');
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'first');
    writeFileSync(join(fixture.root, 'app', 'New.kt'), 'x');
    writeFileSync(join(repo, 'outside.txt'), 'not the project');
    const state = await gitState(runner, fixture.root);
    expect(state.files?.map((f) => f.path)).toEqual(['app/New.kt']);
  });

  it('hashes the source sets of a project outside git, so equal trees give equal hashes', async () => {
    for (const [path, text] of [
      ['app/src/main/AndroidManifest.xml', '<manifest package="com.example.flavors"/>\n'],
      ['app/src/main/java/com/example/Main.kt', 'class Main\n'],
      ['app/src/test/java/com/example/MainTest.kt', 'class MainTest\n'],
      ['core/src/main/java/Core.kt', 'object Core\n'],
    ]) {
      mkdirSync(join(fixture.root, path!, '..'), { recursive: true });
      writeFileSync(join(fixture.root, path!), text!);
    }
    const project = loadGradleProject(fixture.root);
    const first = await collectProvenance(runner, project, noJdk);
    expect(first.git.commit).toBeNull();
    expect(first.agp_version).toBe('8.7.3');
    expect(first.gradle_version).toBe('8.11.1');
    const sources = first.sources!;
    expect(sources.files.map((f) => f.path)).toEqual([
      'app/src/main/AndroidManifest.xml',
      'app/src/main/java/com/example/Main.kt',
      'app/src/test/java/com/example/MainTest.kt',
      'core/src/main/java/Core.kt',
    ]);
    expect(sources).toMatchObject({ files_total: 4, files_omitted: 0, unhashed: 0 });
    const manifest = sources.files.find((f) => f.path === 'app/src/main/AndroidManifest.xml');
    expect(manifest?.sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(fixture.root, 'app/src/main/AndroidManifest.xml')))
        .digest('hex'),
    );
    expect((await collectProvenance(runner, project, noJdk)).sources!.sha256).toBe(sources.sha256);

    writeFileSync(join(fixture.root, 'app', 'src', 'main', 'Added.kt'), 'class Added\n');
    const second = await collectProvenance(runner, project, noJdk);
    expect(second.sources!.sha256).not.toBe(sources.sha256);
    const comparison = await compareBuilds(runner, record('a', fixture.root, first), record('b', fixture.root, second));
    expect(comparison).toMatchObject({
      basis: 'source-hashes',
      files: [{ path: 'app/src/main/Added.kt', change: 'added' }],
      complete: true,
      versions: [],
    });
  });
});

describe('compareBuilds with git', () => {
  let fixture: { root: string; cleanup(): void };
  beforeEach(() => {
    fixture = copyFixtureProject('groovy-app');
    writeFileSync(join(fixture.root, '.gitignore'), '.stand-in-gradle/\nbuild/\n');
    git(fixture.root, 'init', '-q');
    git(fixture.root, 'add', '.');
    git(fixture.root, 'commit', '-qm', 'first');
  });
  afterEach(() => fixture.cleanup());

  const provenance = () => collectProvenance(runner, loadGradleProject(fixture.root), noJdk);

  it('tells what changed between two builds of a dirty tree at one commit', async () => {
    const root = fixture.root;
    writeFileSync(join(root, 'One.kt'), 'one');
    writeFileSync(join(root, 'Two.kt'), 'two');
    const a = await provenance();
    writeFileSync(join(root, 'One.kt'), 'one, edited');
    rmSync(join(root, 'Two.kt'));
    writeFileSync(join(root, 'Three.kt'), 'three');
    rmSync(join(root, 'gradle.properties'));
    const b = await provenance();
    const comparison = await compareBuilds(runner, record('a', root, a), record('b', root, b));
    expect(comparison).toMatchObject({ basis: 'git', sameCommit: true, complete: true });
    expect(comparison.files).toEqual([
      { path: 'One.kt', change: 'modified' },
      { path: 'Three.kt', change: 'added' },
      { path: 'Two.kt', change: 'removed' },
      { path: 'gradle.properties', change: 'removed' },
    ]);
  });

  it('reads the commits between two builds, and an edit that was then committed is no change', async () => {
    const root = fixture.root;
    writeFileSync(join(root, 'Edited.kt'), 'edited before the first build');
    const a = await provenance();
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'commit the edit');
    writeFileSync(join(root, 'build.gradle'), `${readFileSync(join(root, 'build.gradle'), 'utf8')}// more\n`);
    git(root, 'commit', '-qam', 'edit the build file');
    writeFileSync(
      join(root, 'gradle', 'wrapper', 'gradle-wrapper.properties'),
      'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.12-bin.zip\n',
    );
    const b = await provenance();
    const comparison = await compareBuilds(runner, record('a', root, a), record('b', root, b));
    expect(comparison).toMatchObject({ basis: 'git', sameCommit: false, complete: true });
    expect(comparison.files).toEqual([
      { path: 'build.gradle', change: 'modified' },
      { path: 'gradle/wrapper/gradle-wrapper.properties', change: 'modified' },
    ]);
    expect(comparison.versions).toEqual([{ name: 'gradle', a: '8.9', b: '8.12' }]);
  });

  it('compares a build recorded before files were listed by what it has, and says so', async () => {
    const now = await provenance();
    const old: BuildProvenance = {
      git: { commit: now.git.commit, branch: 'master', dirty: false, changed_files: 0 },
      build_files: now.build_files,
      gradle_version: '8.9',
      jdk: { java_home: null, source: null, version: null },
    };
    writeFileSync(join(fixture.root, 'settings.gradle'), "include ':app', ':lib'\n");
    const comparison = await compareBuilds(
      runner,
      record('old', fixture.root, old),
      record('new', fixture.root, await provenance()),
    );
    expect(comparison.files).toEqual([{ path: 'settings.gradle', change: 'modified' }]);
    expect(comparison.complete).toBe(false);
    expect(comparison.notes[0]).toMatch(/Build old was recorded before droidwright listed changed files/);
  });

  it('says the comparison is partial when a commit is gone', async () => {
    const a = await provenance();
    const b = await provenance();
    const gone = { ...b, git: { ...b.git, commit: 'f'.repeat(40) } };
    const comparison = await compareBuilds(runner, record('a', fixture.root, a), record('b', fixture.root, gone));
    expect(comparison.complete).toBe(false);
    expect(comparison.notes[0]).toMatch(/could not read commits/);
  });
});
