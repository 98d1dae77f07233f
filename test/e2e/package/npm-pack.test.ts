import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { assertBuilt, REPO_ROOT, stopPid } from '../../support/mcp-client.js';
import { createTempHome } from '../../support/temp-home.js';

/*
 * What a user gets from `npm install droidwright`: the tarball `npm pack` makes, installed into an empty folder
 * with a clean HOME, then the commands a user runs first. Offline: the dependencies come from the npm cache
 * through a lockfile made of this checkout's runtime entries (the cache holds those tarballs by integrity,
 * not the registry's package lists), and better-sqlite3's native addon from this checkout's build, handed to
 * its installer as a local prebuild, so nothing is downloaded or compiled.
 */
interface PackResult {
  filename: string;
  files: { path: string }[];
}

const PKG = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  engines: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe('the npm package', () => {
  const temp = createTempHome('e2e-package');
  const consumer = join(temp.home, 'consumer');
  const home = join(temp.home, 'clean-home');
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  let env: NodeJS.ProcessEnv;
  let files: string[] = [];

  const run = (command: string, args: string[], timeout = 120_000) =>
    spawnSync(command, args, { cwd: consumer, env, encoding: 'utf8', timeout });

  beforeAll(() => {
    assertBuilt();
    mkdirSync(consumer);
    mkdirSync(home);
    env = { ...process.env, HOME: home, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
    delete env.DROIDWRIGHT_HOME;
    delete env.ANDROID_ADB_SERVER_PORT;
    // --ignore-scripts: prepack would rebuild dist/ under the other e2e tests; it is built already.
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', temp.home], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      }),
    ) as PackResult[];
    files = packed[0]!.files.map((f) => f.path);
    const tarball = `file:../${packed[0]!.filename}`;

    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const packages: Record<string, unknown> = {
      '': { dependencies: { droidwright: tarball } },
      'node_modules/droidwright': {
        version: PKG.version,
        resolved: tarball,
        dependencies: PKG.dependencies,
        bin: PKG.bin,
        engines: PKG.engines,
      },
    };
    for (const [path, entry] of Object.entries(lock.packages))
      if (path.startsWith('node_modules/') && !entry.dev) packages[path] = entry;
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ private: true, dependencies: { droidwright: tarball }, allowScripts: PKG.allowScripts }),
    );
    writeFileSync(
      join(consumer, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, requires: true, packages }),
    );

    const prebuilds = join(temp.home, 'prebuilds');
    mkdirSync(prebuilds);
    const sqlite = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'));
    execFileSync('tar', [
      '-czf',
      join(
        prebuilds,
        `better-sqlite3-v${sqlite.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
      ),
      '-C',
      join(REPO_ROOT, 'node_modules', 'better-sqlite3'),
      'build/Release/better_sqlite3.node',
    ]);
    // Only for the install: npm warns about the unknown config in every later npm and npx run.
    const install = spawnSync('npm', ['ci', '--offline', '--no-audit', '--cache', npmCache], {
      cwd: consumer,
      env: { ...env, npm_config_better_sqlite3_local_prebuilds: prebuilds },
      encoding: 'utf8',
      timeout: 240_000,
    });
    if (install.status !== 0) throw new Error(`npm ci failed:\n${install.stderr.slice(-3000)}`);
  }, 300_000);

  afterAll(() => temp.cleanup());

  test('the tarball has what the commands need and nothing else', () => {
    for (const needed of [
      'bin/droidwright.js',
      'dist/cli.js',
      'skills/droidwright/SKILL.md',
      'examples/notes-app/gradlew',
      'examples/notes-app/gradle/stand-in-gradle.mjs',
      'scenarios/notes-app.json',
      'README.md',
      'package.json',
    ])
      expect(files).toContain(needed);
    expect(files.filter((f) => /\.map$|^src\/|^test\/|^node_modules\/|^scripts\//.test(f))).toEqual([]);
  });

  test('npx droidwright --version, mcp (tools/list), doctor --json and demo --no-wait work', async () => {
    const version = run('npx', ['droidwright', '--version']);
    expect({ status: version.status, stdout: version.stdout.trim() }).toEqual({ status: 0, stdout: PKG.version });

    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['droidwright', 'mcp'],
      cwd: consumer,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid;
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['run_health_check', 'run_gradle_task']));
    } finally {
      await client.close().catch(() => undefined);
      await stopPid(pid);
    }

    const doctor = run('npx', ['droidwright', 'doctor', '--json']);
    const report = JSON.parse(doctor.stdout) as {
      ok: boolean;
      report: { node: { ok: boolean }; data_dir: { path: string } };
    };
    expect(doctor.status).toBe(report.ok ? 0 : 1);
    expect(report.report.node.ok).toBe(true);
    expect(report.report.data_dir.path).toBe(join(home, '.droidwright'));

    const demo = run('npx', ['droidwright', 'demo', '--no-wait']);
    expect({ status: demo.status, stderr: demo.stderr }).toEqual({ status: 0, stderr: '' });
    expect(demo.stdout).toContain('The scripted session completed.');
  }, 180_000);
});
