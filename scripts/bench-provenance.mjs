// Build-start provenance cost: what collecting the sources' state adds before a build is handed to its worker.
// Projects are written into a temp dir: a typical app (≈400 source files, 4 MB) and a large one (20,000 files),
// each in git with a dirty tree and without git (source-set hashes), cold (first build of a server) and warm.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function writeProject(root, files, bytesPerFile) {
  mkdirSync(join(root, 'gradle', 'wrapper'), { recursive: true });
  writeFileSync(join(root, 'settings.gradle.kts'), 'rootProject.name = "bench"\ninclude(":app")\n');
  writeFileSync(
    join(root, 'build.gradle.kts'),
    'plugins {\n    id("com.android.application") version "8.5.2" apply false\n}\n',
  );
  writeFileSync(
    join(root, 'gradle', 'wrapper', 'gradle-wrapper.properties'),
    'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.9-bin.zip\n',
  );
  mkdirSync(join(root, 'app'), { recursive: true });
  writeFileSync(
    join(root, 'app', 'build.gradle.kts'),
    'plugins { id("com.android.application") }\nandroid { namespace = "b" }\n',
  );
  const filler = 'x'.repeat(bytesPerFile);
  for (let i = 0; i < files; i++) {
    const dir = join(root, 'app', 'src', i % 5 === 0 ? 'test' : 'main', 'java', `p${i % 40}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `F${i}.kt`), `// ${i}\n${filler}\n`);
  }
}

function git(root, ...args) {
  execFileSync('git', ['-C', root, '-c', 'user.email=b@b', '-c', 'user.name=b', ...args], { stdio: 'ignore' });
}

export async function runProvenanceBenchmarks(loadSource) {
  const { collectProvenance } = await loadSource('src/plugins/build/services/build-provenance.ts');
  const { ProcessRunner } = await loadSource('src/kernel/process-runner.ts');
  const { loadGradleProject } = await loadSource('src/android/gradle-project-model.ts');
  const runner = new ProcessRunner();
  const rows = [];
  const parent = mkdtempSync(join(tmpdir(), 'droidwright-bench-provenance-'));
  try {
    for (const [label, files, bytes, dirty] of [
      ['typical', 400, 10_000, 12],
      ['large', 20_000, 4_000, 300],
    ]) {
      for (const withGit of [true, false]) {
        const root = join(parent, `${label}-${withGit ? 'git' : 'nogit'}`);
        writeProject(root, files, bytes);
        if (withGit) {
          // Files older than the index, as in a real checkout (younger ones are "racy" and git re-reads them all).
          await new Promise((resolve) => setTimeout(resolve, 1100));
          git(root, 'init', '-q');
          git(root, 'add', '.');
          git(root, 'commit', '-qm', 'bench');
          for (let i = 0; i < dirty; i++)
            writeFileSync(join(root, 'app', 'src', 'main', `New${i}.kt`), `// dirty ${i}\n`);
        }
        const project = loadGradleProject(root);
        const jdk = { javaHome: null, source: null };
        const times = [];
        // Each loadSource bundles its own copy of the hash cache: a fresh module means a cold cache.
        const { collectProvenance: cold } = await loadSource('src/plugins/build/services/build-provenance.ts');
        let t0 = performance.now();
        await cold(runner, project, jdk);
        const coldMs = performance.now() - t0;
        for (let i = 0; i < 5; i++) {
          t0 = performance.now();
          await collectProvenance(runner, project, jdk);
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        rows.push({
          name: `${label} ${files} files, ${withGit ? `git, ${dirty} dirty` : 'no git'}: cold`,
          runs: 1,
          median: coldMs,
        });
        rows.push({
          name: `${label} ${files} files, ${withGit ? 'git' : 'no git'}: warm`,
          runs: 5,
          median: times[2],
          p90: times[4],
          min: times[0],
        });
      }
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  return rows;
}
