/**
 * A deliberately tiny SimulatedAndroid for transport tests: just enough commands to exercise exit
 * codes, stdout/stderr, stdin, endless output and the file system, with no Android behind them.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type {
  ShellIO,
  SimDirEntry,
  SimFileStat,
  SimFileSystem,
  SimulatedAndroid,
} from '../../../src/sim/simulated-android.js';

interface Node {
  mode: number;
  mtimeSec: number;
  data?: Buffer;
}

export class MemoryFileSystem implements SimFileSystem {
  private readonly nodes = new Map<string, Node>([['/', { mode: 0o040755, mtimeSec: 0 }]]);

  constructor() {
    for (const dir of ['/data', '/data/local', '/data/local/tmp', '/sdcard'])
      this.nodes.set(dir, { mode: 0o040771, mtimeSec: 0 });
  }

  stat(path: string): SimFileStat | null {
    const node = this.nodes.get(posix.normalize(path));
    return node ? { mode: node.mode, size: node.data?.length ?? 4096, mtimeSec: node.mtimeSec } : null;
  }

  list(path: string): SimDirEntry[] | null {
    const dir = posix.normalize(path);
    const node = this.nodes.get(dir);
    if (!node || node.data) return null;
    const entries: SimDirEntry[] = [];
    for (const [child, childNode] of this.nodes) {
      if (child !== dir && posix.dirname(child) === dir) {
        entries.push({
          name: posix.basename(child),
          mode: childNode.mode,
          size: childNode.data?.length ?? 4096,
          mtimeSec: childNode.mtimeSec,
        });
      }
    }
    return entries;
  }

  readFile(path: string): Buffer | null {
    return this.nodes.get(posix.normalize(path))?.data ?? null;
  }

  writeFile(path: string, data: Buffer, mode: number, mtimeSec: number): void {
    const file = posix.normalize(path);
    const existing = this.nodes.get(file);
    if (existing && !existing.data) throw new Error(`${file}: Is a directory`);
    let dir = posix.dirname(file);
    const missing: string[] = [];
    while (!this.nodes.has(dir)) {
      missing.push(dir);
      dir = posix.dirname(dir);
    }
    if (this.nodes.get(dir)?.data) throw new Error(`${dir}: Not a directory`);
    for (const created of missing) this.nodes.set(created, { mode: 0o040775, mtimeSec });
    this.nodes.set(file, { mode, mtimeSec, data });
  }

  remove(path: string): void {
    this.nodes.delete(posix.normalize(path));
  }
}

export class TinyAndroid implements SimulatedAndroid {
  readonly fs = new MemoryFileSystem();
  readonly avdName = 'tiny_avd';
  /** Lines `yes` produced, so tests can see a closed stream stop the producer. */
  yesLines = 0;
  /** Commands currently running. */
  running = 0;
  /** Every command line received, with the mode it arrived in. */
  readonly received: Array<{ commandLine: string; mode: string }> = [];
  disposed = false;
  /** What the last `sha256` printed, for commands whose client (adb exec-in) discards the output. */
  lastOutput = '';

  constructor(private readonly model = 'Tiny Phone') {}

  banner(): string {
    return `device::ro.product.name=tiny;ro.product.model=${this.model};ro.product.device=tiny;features=cmd,shell_v2,stat_v2,ls_v2,fixed_push_mkdir`;
  }

  dispose(): void {
    this.disposed = true;
  }

  async exec(commandLine: string, io: ShellIO, mode: string): Promise<number> {
    this.received.push({ commandLine, mode });
    this.running++;
    try {
      return await this.run(commandLine.trim().split(/\s+/).map(unquote), io);
    } finally {
      this.running--;
    }
  }

  private async run([command, ...args]: string[], io: ShellIO): Promise<number> {
    switch (command) {
      case 'echo':
        await io.stdout(`${args.join(' ')}\n`);
        return 0;
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'exit':
        return Number(args[0] ?? 0);
      case 'stderr':
        await io.stderr(`${args.join(' ')}\n`);
        return 3;
      case 'lines':
        // `lines N`: N numbered lines, so a test can check ordering and completeness.
        for (let i = 0; i < Number(args[0]); i++) await io.stdout(`line ${i}\n`);
        return 0;
      case 'blob': {
        // `blob N`: N bytes of a repeating pattern in one write, to cross WRTE boundaries.
        const size = Number(args[0]);
        const data = Buffer.alloc(size);
        for (let i = 0; i < size; i++) data[i] = i % 251;
        await io.stdout(data);
        return 0;
      }
      case 'cat': {
        if (args.length === 0) {
          for await (const chunk of io.stdin) await io.stdout(chunk);
          return 0;
        }
        const data = this.fs.readFile(args[0]);
        if (!data) {
          await io.stderr(`cat: ${args[0]}: No such file or directory\n`);
          return 1;
        }
        await io.stdout(data);
        return 0;
      }
      case 'sha256': {
        // `sha256 N`: reads exactly N bytes of stdin (like `pm install -S N`) and prints their digest.
        const want = Number(args[0]);
        const hash = createHash('sha256');
        let got = 0;
        for await (const chunk of io.stdin) {
          const take = chunk.subarray(0, want - got);
          hash.update(take);
          got += take.length;
          if (got >= want) break;
        }
        this.lastOutput = `${got} ${hash.digest('hex')}\n`;
        await io.stdout(this.lastOutput);
        return 0;
      }
      case 'yes':
        while (!io.signal.aborted) {
          await io.stdout(`${args[0] ?? 'y'}\n`);
          this.yesLines++;
        }
        return 0;
      case 'sleep':
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number(args[0]) * 1000);
          io.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        return 0;
      case 'throw':
        throw new Error('command implementation crashed');
      case 'getprop':
        await io.stdout(
          args[0] === 'sys.boot_completed' ? '1\n' : '[ro.product.model]: [Tiny Phone]\n[sys.boot_completed]: [1]\n',
        );
        return 0;
      default:
        await io.stderr(`/system/bin/sh: ${command}: inaccessible or not found\n`);
        return 127;
    }
  }
}

function unquote(word: string): string {
  return word.replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
}
