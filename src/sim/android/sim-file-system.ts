import type { SimDirEntry, SimFileStat, SimFileSystem } from '../simulated-android.js';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFMT = 0o170000;

interface Node {
  mode: number;
  mtimeSec: number;
  data: Buffer | null;
  /** Owner shown by ls -l. */
  owner: string;
}

/** Paths that are the same storage on a real device (/sdcard is a symlink to the primary shared storage). */
const ALIASES: readonly [string, string][] = [
  ['/storage/emulated/0', '/sdcard'],
  ['/storage/self/primary', '/sdcard'],
  ['/mnt/sdcard', '/sdcard'],
];

/** Where the shell user (and adb push) may write; the rest is read-only system or other apps' private data. */
const WRITABLE_ROOTS = ['/data/local/tmp', '/sdcard'];
const READ_ONLY_ROOTS = ['/system', '/vendor', '/product', '/apex', '/proc', '/sys'];

export function normalizePath(path: string, cwd = '/'): string {
  const absolute = path.startsWith('/') ? path : `${cwd.replace(/\/$/, '')}/${path}`;
  const out: string[] = [];
  for (const seg of absolute.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  let result = `/${out.join('/')}`;
  for (const [alias, target] of ALIASES) {
    if (result === alias || result.startsWith(`${alias}/`)) result = target + result.slice(alias.length);
  }
  return result;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export class DeviceFileSystem implements SimFileSystem {
  private readonly nodes = new Map<string, Node>();

  constructor(private readonly nowSec: () => number) {
    this.nodes.set('/', { mode: S_IFDIR | 0o755, mtimeSec: nowSec(), data: null, owner: 'root' });
  }

  private isDirNode(n: Node | undefined): boolean {
    return !!n && (n.mode & S_IFMT) === S_IFDIR;
  }

  stat(path: string): SimFileStat | null {
    const n = this.nodes.get(normalizePath(path));
    if (!n) return null;
    return { mode: n.mode, size: n.data?.length ?? 4096, mtimeSec: n.mtimeSec };
  }

  owner(path: string): string {
    return this.nodes.get(normalizePath(path))?.owner ?? 'root';
  }

  isDirectory(path: string): boolean {
    return this.isDirNode(this.nodes.get(normalizePath(path)));
  }

  list(path: string): SimDirEntry[] | null {
    const dir = normalizePath(path);
    if (!this.isDirNode(this.nodes.get(dir))) return null;
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const entries: SimDirEntry[] = [];
    for (const [p, n] of this.nodes) {
      if (p === dir || !p.startsWith(prefix) || p.slice(prefix.length).includes('/')) continue;
      entries.push({ name: p.slice(prefix.length), mode: n.mode, size: n.data?.length ?? 4096, mtimeSec: n.mtimeSec });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  readFile(path: string): Buffer | null {
    const n = this.nodes.get(normalizePath(path));
    return n?.data ?? null;
  }

  /** Why the shell user may not create `path`, as the device's error text; null when it may. */
  checkWritable(path: string): string | null {
    const p = normalizePath(path);
    if (READ_ONLY_ROOTS.some((r) => p === r || p.startsWith(`${r}/`))) return 'Read-only file system';
    if (!WRITABLE_ROOTS.some((r) => p.startsWith(`${r}/`))) return 'Permission denied';
    if (this.isDirNode(this.nodes.get(p))) return 'Is a directory';
    return null;
  }

  writeFile(path: string, data: Buffer, mode: number, mtimeSec: number): void {
    const p = normalizePath(path);
    const error = this.checkWritable(p);
    if (error) throw new Error(`${p}: ${error}`);
    this.mkdirs(parentOf(p), 'shell');
    this.nodes.set(p, { mode: S_IFREG | (mode & 0o7777 || 0o644), mtimeSec, data: Buffer.from(data), owner: 'shell' });
  }

  appendFile(path: string, data: Buffer): void {
    const p = normalizePath(path);
    const n = this.nodes.get(p);
    if (n?.data) {
      n.data = Buffer.concat([n.data, data]);
      n.mtimeSec = this.nowSec();
    } else {
      this.writeFile(p, data, 0o666, this.nowSec());
    }
  }

  /** Writes as the system would (packages, tombstones, build.prop), bypassing the shell user's permissions. */
  putSystemFile(path: string, data: Buffer, mode = 0o644, owner = 'system'): void {
    const p = normalizePath(path);
    this.mkdirs(parentOf(p), owner === 'shell' ? 'shell' : 'root');
    this.nodes.set(p, { mode: S_IFREG | mode, mtimeSec: this.nowSec(), data, owner });
  }

  mkdirs(path: string, owner = 'root', mode = 0o771): void {
    const p = normalizePath(path);
    const parts = p.split('/').filter(Boolean);
    let cur = '';
    for (const part of parts) {
      cur += `/${part}`;
      const n = this.nodes.get(cur);
      if (!n) this.nodes.set(cur, { mode: S_IFDIR | mode, mtimeSec: this.nowSec(), data: null, owner });
    }
  }

  /** mkdir for the shell user; returns an error text or null. */
  mkdir(path: string, parents: boolean): string | null {
    const p = normalizePath(path);
    if (this.nodes.has(p))
      return parents ? (this.isDirNode(this.nodes.get(p)) ? null : 'Not a directory') : 'File exists';
    const parent = parentOf(p);
    if (!parents && !this.nodes.has(parent)) return 'No such file or directory';
    const error = this.checkWritable(`${p}/x`);
    if (error) return error;
    this.mkdirs(p, 'shell', 0o775);
    return null;
  }

  /** rm for the shell user; returns an error text or null. */
  remove(path: string, recursive: boolean): string | null {
    const p = normalizePath(path);
    const n = this.nodes.get(p);
    if (!n) return 'No such file or directory';
    const error = this.checkWritable(p);
    if (error && error !== 'Is a directory') return error;
    if (this.isDirNode(n)) {
      if (!recursive) return 'Is a directory';
      for (const key of [...this.nodes.keys()]) if (key.startsWith(`${p}/`)) this.nodes.delete(key);
    }
    this.nodes.delete(p);
    return null;
  }

  /** Removes a tree as the system (package uninstall); no permission checks. */
  removeSystem(path: string): void {
    const p = normalizePath(path);
    for (const key of [...this.nodes.keys()]) if (key === p || key.startsWith(`${p}/`)) this.nodes.delete(key);
  }
}

export const FILE_TYPE = { S_IFDIR, S_IFREG, S_IFMT };
