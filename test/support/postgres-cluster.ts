// A real PostgreSQL server for tests: Debian's `postgresql` package, a cluster made with initdb in a temp
// directory, started with pg_ctl on a free port, stopped by its postmaster PID. As root (CI), the server
// runs as the `postgres` user, because initdb refuses to run as root.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { trackPid, untrackPid } from './process-tracker.js';
import { isAlive } from './wait.js';

export interface PostgresCluster {
  readonly port: number;
  readonly dataDir: string;
  /** The postmaster's PID (changes on restart). */
  pid(): number;
  /** A URL for `database` (default `postgres`) as the superuser, no password (trust authentication on loopback). */
  url(database?: string): string;
  /** Creates an empty database with a fresh unique name and returns its URL. */
  createDatabase(prefix?: string): string;
  /** Runs SQL through psql as the superuser and returns its unaligned output (for checks and sabotage). */
  psql(sql: string, database?: string): string;
  /** Stops the server (fast shutdown) and starts it again on the same port and data. */
  restart(): void;
  /** Stops the server by PID and removes the cluster. Safe to call twice. */
  stop(): void;
}

/** The directory holding initdb and pg_ctl: the newest /usr/lib/postgresql/<major>/bin, else PATH. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => /^\d+$/.test(d) && existsSync(join(root, d, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors.length > 0) return join(root, majors[0], 'bin');
  }
  try {
    const initdb = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    return initdb ? join(initdb, '..') : undefined;
  } catch {
    return undefined;
  }
}

let counter = 0;

export interface PostgresClusterOptions {
  /**
   * Keep PostgreSQL's default fsync (the benchmark compares it with SQLite, which syncs every commit).
   * Default false: tests do not exercise durability against an OS crash, and fsync costs seconds per file.
   */
  durable?: boolean;
}

export async function startPostgresCluster(clusterOptions: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error('PostgreSQL server binaries not found: install Debian package postgresql (scripts/setup.sh does).');
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-pg-'));
  const dataDir = join(dir, 'data');
  const run = (file: string, args: string[], input?: string): string => {
    const command = asRoot ? 'runuser' : join(bin, file);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, file), ...args] : args;
    return execFileSync(command, argv, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--locale=C', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(clusterOptions.durable ? [] : ['-c fsync=off']),
    '-c max_connections=200',
  ].join(' ');
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  const readPid = (): number => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let pid = 0;
  const started = () => {
    start();
    pid = readPid();
    trackPid(pid);
  };
  const halt = () => {
    if (pid === 0) return;
    try {
      process.kill(pid, 'SIGINT'); // fast shutdown: roll back open transactions, then exit
    } catch {
      // Already gone.
    }
    const deadline = Date.now() + 15_000;
    while (isAlive(pid) && Date.now() < deadline) execFileSync('sleep', ['0.05']);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    untrackPid(pid);
    pid = 0;
  };
  try {
    started();
  } catch (error) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${log}`);
  }
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const psql = (sql: string, database = 'postgres') =>
    execFileSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url(database), '-c', sql], {
      encoding: 'utf8',
      // psql's errors belong in the thrown error (tests provoke some), not in the jest output.
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  return {
    port,
    dataDir,
    pid: () => pid,
    url,
    psql,
    createDatabase(prefix = 'droidwright_test') {
      const name = `${prefix}_${process.pid}_${++counter}_${Date.now().toString(36)}`;
      psql(`CREATE DATABASE ${name}`);
      return url(name);
    },
    restart() {
      halt();
      started();
    },
    stop() {
      halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
