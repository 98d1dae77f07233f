import { createHash } from 'node:crypto';
import { readAll, readLines } from '../shell/byte-pipe.js';
import type { CommandContext, CommandHandler } from '../shell/command.js';
import { FILE_TYPE, normalizePath } from '../sim-file-system.js';
import { userName } from '../process-table.js';

const pad2 = (n: number) => String(n).padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Splits toybox-style short flags (`-rf` → r, f) until the first non-flag or `--`. */
export function parseFlags(
  args: readonly string[],
  withValue: readonly string[] = [],
): { flags: Map<string, string | true>; rest: string[] } {
  const flags = new Map<string, string | true>();
  const rest: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j];
      if (withValue.includes(f)) {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        flags.set(f, value ?? '');
        break;
      }
      flags.set(f, true);
    }
  }
  rest.push(...args.slice(i));
  return { flags, rest };
}

const echo: CommandHandler = async ({ argv, io }) => {
  let args = argv.slice(1);
  let newline = true;
  let escapes = false;
  while (args.length && /^-[neE]+$/.test(args[0])) {
    if (args[0].includes('n')) newline = false;
    if (args[0].includes('e')) escapes = true;
    args = args.slice(1);
  }
  let text = args.join(' ');
  if (escapes) text = text.replace(/\\([nt\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
  await io.stdout(text + (newline ? '\n' : ''));
  return 0;
};

const cat: CommandHandler = async ({ argv, io, device, cwd }) => {
  const files = argv.slice(1).filter((a) => a !== '-u');
  if (files.length === 0) {
    for await (const chunk of io.stdin) await io.stdout(chunk);
    return 0;
  }
  let status = 0;
  for (const f of files) {
    if (f === '-') {
      for await (const chunk of io.stdin) await io.stdout(chunk);
      continue;
    }
    const path = normalizePath(f, cwd);
    const data = device.fs.readFile(path);
    if (data) await io.stdout(data);
    else {
      await io.stderr(`cat: ${f}: ${device.fs.isDirectory(path) ? 'Is a directory' : 'No such file or directory'}\n`);
      status = 1;
    }
  }
  return status;
};

function modeString(mode: number): string {
  const type = (mode & FILE_TYPE.S_IFMT) === FILE_TYPE.S_IFDIR ? 'd' : '-';
  const bits = 'rwxrwxrwx';
  let s = '';
  for (let i = 0; i < 9; i++) s += mode & (1 << (8 - i)) ? bits[i] : '-';
  return type + s;
}

function lsTime(sec: number): string {
  const d = new Date(sec * 1000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

const ls: CommandHandler = async ({ argv, io, device, cwd }) => {
  const { flags, rest } = parseFlags(argv.slice(1));
  const long = flags.has('l');
  const all = flags.has('a');
  const dirOnly = flags.has('d');
  const targets = rest.length ? rest : ['.'];
  let status = 0;
  const line = (name: string, path: string) => {
    if (!long) return name;
    const st = device.fs.stat(path)!;
    const owner = device.fs.owner(path);
    const group =
      owner === 'shell'
        ? 'shell'
        : owner === 'system'
          ? 'system'
          : owner === 'root' && path.startsWith('/sdcard')
            ? 'everybody'
            : owner;
    return `${modeString(st.mode)} ${(st.mode & FILE_TYPE.S_IFMT) === FILE_TYPE.S_IFDIR ? 2 : 1} ${owner} ${group} ${String(st.size).padStart(5)} ${lsTime(st.mtimeSec)} ${name}`;
  };
  const out: string[] = [];
  for (const [i, target] of targets.entries()) {
    const path = normalizePath(target, cwd);
    const st = device.fs.stat(path);
    if (!st) {
      await io.stderr(`ls: ${target}: No such file or directory\n`);
      status = 1;
      continue;
    }
    if ((st.mode & FILE_TYPE.S_IFMT) !== FILE_TYPE.S_IFDIR || dirOnly) {
      out.push(line(target, path));
      continue;
    }
    if (path.startsWith('/data') && !path.startsWith('/data/local') && path !== '/data') {
      await io.stderr(`ls: ${target}: Permission denied\n`);
      status = 1;
      continue;
    }
    if (targets.length > 1) out.push(`${i > 0 ? '\n' : ''}${target}:`);
    const entries = device.fs.list(path) ?? [];
    if (long) out.push(`total ${entries.length * 8}`);
    if (all) out.push(line('.', path), line('..', normalizePath(`${path}/..`)));
    for (const e of entries)
      if (all || !e.name.startsWith('.')) out.push(line(e.name, `${path === '/' ? '' : path}/${e.name}`));
  }
  if (out.length) await io.stdout(`${out.join('\n')}\n`);
  return status;
};

const rm: CommandHandler = async ({ argv, io, device, cwd }) => {
  const { flags, rest } = parseFlags(argv.slice(1));
  const force = flags.has('f');
  const recursive = flags.has('r') || flags.has('R');
  let status = 0;
  if (rest.length === 0 && !force) {
    await io.stderr('rm: Needs 1 argument (see "rm --help")\n');
    return 1;
  }
  for (const target of rest) {
    const error = device.fs.remove(normalizePath(target, cwd), recursive);
    if (error && !(force && error === 'No such file or directory')) {
      await io.stderr(`rm: ${target}: ${error}\n`);
      status = 1;
    }
  }
  return status;
};

const mkdir: CommandHandler = async ({ argv, io, device, cwd }) => {
  const { flags, rest } = parseFlags(argv.slice(1), ['m']);
  let status = 0;
  for (const target of rest) {
    const error = device.fs.mkdir(normalizePath(target, cwd), flags.has('p'));
    if (error) {
      await io.stderr(`mkdir: '${target}': ${error}\n`);
      status = 1;
    }
  }
  return status;
};

const touch: CommandHandler = async ({ argv, io, device, cwd }) => {
  let status = 0;
  for (const target of argv.slice(1).filter((a) => !a.startsWith('-'))) {
    const path = normalizePath(target, cwd);
    if (device.fs.readFile(path)) continue;
    const error = device.fs.checkWritable(path);
    if (error) {
      await io.stderr(`touch: '${target}': ${error}\n`);
      status = 1;
    } else device.fs.writeFile(path, Buffer.alloc(0), 0o666, Math.floor(device.clock() / 1000));
  }
  return status;
};

const sha256sum: CommandHandler = async ({ argv, io, device, cwd }) => {
  const files = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (files.length === 0) {
    const data = await readAll(io.stdin, io.signal);
    await io.stdout(`${createHash('sha256').update(data).digest('hex')}  -\n`);
    return 0;
  }
  let status = 0;
  for (const f of files) {
    const data = device.fs.readFile(normalizePath(f, cwd));
    if (!data) {
      await io.stderr(`sha256sum: ${f}: No such file or directory\n`);
      status = 1;
      continue;
    }
    await io.stdout(`${createHash('sha256').update(data).digest('hex')}  ${f}\n`);
  }
  return status;
};

export function abortableDelay(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const sleep: CommandHandler = async ({ argv, io }) => {
  const arg = argv[1];
  const seconds = Number(arg);
  if (arg === undefined || !Number.isFinite(seconds) || seconds < 0) {
    await io.stderr(`sleep: ${arg === undefined ? 'Needs 1 argument' : `invalid number '${arg}'`}\n`);
    return 1;
  }
  return (await abortableDelay(seconds * 1000, io.signal)) ? 0 : 130;
};

const id: CommandHandler = async ({ argv, io }) => {
  const { flags } = parseFlags(argv.slice(1));
  if (flags.has('u') || flags.has('g')) {
    await io.stdout(flags.has('n') ? 'shell\n' : '2000\n');
    return 0;
  }
  await io.stdout(
    'uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0\n',
  );
  return 0;
};

function strftime(format: string, ms: number): string {
  const d = new Date(ms);
  return format.replace(/%([a-zA-Z%])/g, (_, c: string) => {
    switch (c) {
      case 's':
        return String(Math.floor(ms / 1000));
      case 'Y':
        return String(d.getUTCFullYear());
      case 'm':
        return pad2(d.getUTCMonth() + 1);
      case 'd':
        return pad2(d.getUTCDate());
      case 'H':
        return pad2(d.getUTCHours());
      case 'M':
        return pad2(d.getUTCMinutes());
      case 'S':
        return pad2(d.getUTCSeconds());
      case 'N':
        return String((ms % 1000) * 1_000_000).padStart(9, '0');
      case 'Z':
        return 'GMT';
      case 'z':
        return '+0000';
      case 'a':
        return DAYS[d.getUTCDay()];
      case 'b':
        return MONTHS[d.getUTCMonth()];
      case 'e':
        return String(d.getUTCDate()).padStart(2, ' ');
      case 'T':
        return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
      case 'F':
        return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
      case '%':
        return '%';
      default:
        return `%${c}`;
    }
  });
}

const date: CommandHandler = async ({ argv, io, device }) => {
  const format = argv.slice(1).find((a) => a.startsWith('+'));
  await io.stdout(`${strftime(format ? format.slice(1) : '%a %b %e %T %Z %Y', device.clock())}\n`);
  return 0;
};

const getprop: CommandHandler = async ({ argv, io, device }) => {
  const key = argv[1];
  if (key !== undefined) {
    await io.stdout(`${device.props.get(key) ?? argv[2] ?? ''}\n`);
    return 0;
  }
  const lines = [...device.props.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `[${k}]: [${v}]`);
  await io.stdout(`${lines.join('\n')}\n`);
  return 0;
};

const setprop: CommandHandler = async ({ argv, io, device }) => {
  if (argv.length !== 3) {
    await io.stderr('usage: setprop NAME VALUE\n\nSets an Android system property.\n');
    return 1;
  }
  const [, key, value] = argv;
  // The shell domain may set debug/log/persist.* properties, never read-only or boot ones.
  const allowed =
    /^(debug|log|persist\.log|persist\.debug|vendor\.debug|dalvik\.vm\.|wrap|service\.adb\.tcp|ctl\.)/.test(key);
  if (!allowed || key.startsWith('ro.')) {
    await io.stderr(`Failed to set property '${key}' to '${value}'.\nSee dmesg for error reason.\n`);
    return 1;
  }
  device.props.set(key, value);
  return 0;
};

const ps: CommandHandler = async ({ argv, io, device }) => {
  const args = argv.slice(1);
  const oIndex = args.indexOf('-o');
  const pidArg = args.indexOf('-p');
  let procs = device.processes.list();
  if (pidArg >= 0) {
    const pids = (args[pidArg + 1] ?? '').split(',').map(Number);
    procs = procs.filter((p) => pids.includes(p.pid));
  }
  const names = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-o' && args[i - 1] !== '-p');
  if (names.length) procs = procs.filter((p) => names.includes(p.name) || names.includes(String(p.pid)));
  if (oIndex >= 0) {
    const cols = (args[oIndex + 1] ?? 'PID,NAME').split(',').map((c) => c.toUpperCase().replace(/=.*$/, ''));
    const value = (p: (typeof procs)[number], c: string): string => {
      switch (c) {
        case 'PID':
          return String(p.pid);
        case 'PPID':
          return String(p.ppid);
        case 'UID':
          return String(p.uid);
        case 'USER':
          return userName(p.uid);
        case 'NAME':
        case 'CMD':
        case 'CMDLINE':
        case 'ARGS':
        case 'COMM':
          return p.name;
        case 'RSS':
          return String(p.rssKb);
        case 'VSZ':
          return String(p.vszKb);
        case 'S':
          return 'S';
        default:
          return '?';
      }
    };
    const rows = [cols, ...procs.map((p) => cols.map((c) => value(p, c)))];
    const widths = cols.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    const text = rows
      .map((r) =>
        r
          .map((v, i) =>
            i === r.length - 1 ? v : /^\d+$/.test(v) || i === 0 ? v.padStart(widths[i]) : v.padEnd(widths[i]),
          )
          .join(' '),
      )
      .join('\n');
    await io.stdout(`${text}\n`);
    return 0;
  }
  const header = 'USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME                       ';
  const lines = procs.map(
    (p) =>
      `${userName(p.uid).padEnd(12)} ${String(p.pid).padStart(5)} ${String(p.ppid).padStart(5)} ${String(p.vszKb).padStart(10)} ${String(p.rssKb).padStart(6)} ${p.wchan.padEnd(16)}    0 S ${p.name}`,
  );
  await io.stdout(`${[header, ...lines].join('\n')}\n`);
  return 0;
};

const pidof: CommandHandler = async ({ argv, io, device }) => {
  const pids = argv
    .slice(1)
    .filter((a) => !a.startsWith('-'))
    .flatMap((name) => device.processes.byName(name).map((p) => p.pid))
    .sort((a, b) => b - a);
  if (pids.length === 0) return 1;
  await io.stdout(`${pids.join(' ')}\n`);
  return 0;
};

const kill: CommandHandler = async ({ argv, io, device }) => {
  const targets = argv.slice(1).filter((a) => !/^-/.test(a));
  let status = 0;
  for (const t of targets) {
    const pid = Number(t);
    const proc = Number.isInteger(pid) ? device.processes.get(pid) : undefined;
    if (!proc) {
      await io.stderr(`/system/bin/sh: kill: ${t}: No such process\n`);
      status = 1;
    } else {
      // adbd runs as shell: other users' processes are off limits.
      await io.stderr(`/system/bin/sh: kill: ${t}: Operation not permitted\n`);
      status = 1;
    }
  }
  return status;
};

/** BRE → JS regex: `\(`, `\)`, `\{`, `\}`, `\|`, `\+`, `\?` are the operators; bare ones are literal. */
function breToRegex(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i];
      out += '(){}|+?'.includes(n) ? n : `\\${n}`;
    } else if ('(){}|+?'.includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

const grep: CommandHandler = async ({ argv, io, device, cwd }) => {
  const args = argv.slice(1);
  const patterns: string[] = [];
  const files: string[] = [];
  let ignoreCase = false,
    invert = false,
    extended = argv[0] === 'egrep',
    fixed = argv[0] === 'fgrep',
    count = false,
    quiet = false,
    only = false,
    lineNumbers = false,
    word = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-e') {
      patterns.push(args[++i] ?? '');
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      for (const f of a.slice(1)) {
        if (f === 'i') ignoreCase = true;
        else if (f === 'v') invert = true;
        else if (f === 'E') extended = true;
        else if (f === 'F') fixed = true;
        else if (f === 'c') count = true;
        else if (f === 'q') quiet = true;
        else if (f === 'o') only = true;
        else if (f === 'n') lineNumbers = true;
        else if (f === 'w') word = true;
        else if (f === 's' || f === 'a' || f === 'h') continue;
        else {
          await io.stderr(`grep: Unknown option '${f}' (see "grep --help")\n`);
          return 2;
        }
      }
      continue;
    }
    if (patterns.length === 0 && !args.slice(0, i).includes('-e')) patterns.push(a);
    else files.push(a);
  }
  if (patterns.length === 0) {
    await io.stderr('grep: Needs 1 argument (see "grep --help")\n');
    return 2;
  }
  let regexes: RegExp[];
  try {
    regexes = patterns.map((p) => {
      let src = fixed ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : extended ? p : breToRegex(p);
      if (word) src = `\\b(?:${src})\\b`;
      return new RegExp(src, ignoreCase ? 'gi' : 'g');
    });
  } catch {
    await io.stderr(`grep: bad regex '${patterns[0]}'\n`);
    return 2;
  }
  let matches = 0;
  const check = async (line: string, n: number) => {
    let hit = false;
    const found: string[] = [];
    for (const r of regexes) {
      r.lastIndex = 0;
      if (only) {
        for (const m of line.matchAll(r)) if (m[0]) found.push(m[0]);
        if (found.length) hit = true;
      } else if (r.test(line)) hit = true;
    }
    if (hit !== invert) {
      matches++;
      if (!quiet && !count) {
        const prefix = lineNumbers ? `${n}:` : '';
        if (only && !invert) for (const f of found) await io.stdout(`${prefix}${f}\n`);
        else await io.stdout(`${prefix}${line}\n`);
      }
    }
    return quiet && matches > 0;
  };
  const sources: AsyncIterable<string>[] = [];
  if (files.length === 0) sources.push(readLines(io.stdin));
  for (const f of files) {
    const data = device.fs.readFile(normalizePath(f, cwd));
    if (!data) {
      await io.stderr(`grep: ${f}: No such file or directory\n`);
      continue;
    }
    sources.push(
      (async function* () {
        const text = data.toString('utf8');
        const lines = text.split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        yield* lines;
      })(),
    );
  }
  for (const source of sources) {
    let n = 0;
    for await (const line of source) {
      if (
        await check(
          line.replace(/\r$/, (m) => m),
          ++n,
        )
      )
        return 0;
      if (io.signal.aborted) break;
    }
  }
  if (count) await io.stdout(`${matches}\n`);
  return matches > 0 ? 0 : 1;
};

function lineCount(args: readonly string[], fallback: number): { n: number; rest: string[]; plus: boolean } {
  let n = fallback;
  let plus = false;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-n') {
      const v = args[++i] ?? '';
      plus = v.startsWith('+');
      n = Math.abs(parseInt(v, 10));
    } else if (/^-n[+-]?\d+$/.test(a)) {
      plus = a[2] === '+';
      n = Math.abs(parseInt(a.slice(2), 10));
    } else if (/^-\d+$/.test(a)) n = Number(a.slice(1));
    else rest.push(a);
  }
  return { n: Number.isFinite(n) ? n : fallback, rest, plus };
}

async function* inputLines(ctx: CommandContext, files: string[]): AsyncGenerator<string> {
  if (files.length === 0) {
    yield* readLines(ctx.io.stdin);
    return;
  }
  for (const f of files) {
    const data = ctx.device.fs.readFile(normalizePath(f, ctx.cwd));
    if (!data) {
      await ctx.io.stderr(`${ctx.argv[0]}: ${f}: No such file or directory\n`);
      continue;
    }
    const lines = data.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    yield* lines;
  }
}

const head: CommandHandler = async (ctx) => {
  const { n, rest } = lineCount(ctx.argv.slice(1), 10);
  if (n === 0) return 0;
  let count = 0;
  for await (const line of inputLines(ctx, rest)) {
    await ctx.io.stdout(`${line}\n`);
    if (++count >= n) break;
  }
  return 0;
};

const tail: CommandHandler = async (ctx) => {
  const { n, rest, plus } = lineCount(ctx.argv.slice(1), 10);
  const kept: string[] = [];
  let index = 0;
  for await (const line of inputLines(ctx, rest)) {
    index++;
    if (plus) {
      if (index >= n) kept.push(line);
      continue;
    }
    kept.push(line);
    if (kept.length > n) kept.shift();
  }
  if (kept.length) await ctx.io.stdout(`${kept.join('\n')}\n`);
  return 0;
};

const wc: CommandHandler = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const data = rest.length
    ? Buffer.concat(rest.map((f) => ctx.device.fs.readFile(normalizePath(f, ctx.cwd)) ?? Buffer.alloc(0)))
    : await readAll(ctx.io.stdin, ctx.io.signal);
  const text = data.toString('utf8');
  const lines = (text.match(/\n/g) ?? []).length;
  const words = text.split(/\s+/).filter(Boolean).length;
  const counts: number[] = [];
  const none = !flags.has('l') && !flags.has('w') && !flags.has('c');
  if (none || flags.has('l')) counts.push(lines);
  if (none || flags.has('w')) counts.push(words);
  if (none || flags.has('c')) counts.push(data.length);
  const suffix = rest.length === 1 ? ` ${rest[0]}` : '';
  await ctx.io.stdout(
    `${(counts.length === 1 ? String(counts[0]) : counts.map((c) => String(c).padStart(7)).join(' ')) + suffix}\n`,
  );
  return 0;
};

const test: CommandHandler = async ({ argv, device, cwd, io }) => {
  let args = argv.slice(1);
  if (argv[0] === '[') {
    if (args[args.length - 1] !== ']') {
      await io.stderr('[: missing ]\n');
      return 2;
    }
    args = args.slice(0, -1);
  }
  let negate = false;
  if (args[0] === '!') {
    negate = true;
    args = args.slice(1);
  }
  const fs = device.fs;
  const evaluate = (): boolean => {
    if (args.length === 0) return false;
    if (args.length === 1) return args[0] !== '';
    if (args.length === 2) {
      const [op, v] = args;
      const path = normalizePath(v, cwd);
      switch (op) {
        case '-e':
          return !!fs.stat(path);
        case '-f':
          return !!fs.readFile(path);
        case '-d':
          return fs.isDirectory(path);
        case '-s':
          return (fs.readFile(path)?.length ?? 0) > 0;
        case '-r':
        case '-w':
        case '-x':
          return !!fs.stat(path);
        case '-z':
          return v === '';
        case '-n':
          return v !== '';
      }
    }
    if (args.length === 3) {
      const [a, op, b] = args;
      switch (op) {
        case '=':
        case '==':
          return a === b;
        case '!=':
          return a !== b;
        case '-eq':
          return Number(a) === Number(b);
        case '-ne':
          return Number(a) !== Number(b);
        case '-lt':
          return Number(a) < Number(b);
        case '-le':
          return Number(a) <= Number(b);
        case '-gt':
          return Number(a) > Number(b);
        case '-ge':
          return Number(a) >= Number(b);
      }
    }
    return false;
  };
  return evaluate() !== negate ? 0 : 1;
};

const uname: CommandHandler = async ({ argv, io, device }) => {
  const kernel = '6.1.23-android14-4-00257-g7e35917775b8-ab9964412';
  const machine = (device.props.get('ro.product.cpu.abi') ?? '').startsWith('arm') ? 'aarch64' : 'x86_64';
  const all = argv.includes('-a');
  const text = all
    ? `Linux localhost ${kernel} #1 SMP PREEMPT Mon Apr 10 18:27:38 UTC 2023 ${machine} Toybox`
    : argv.includes('-r')
      ? kernel
      : argv.includes('-m')
        ? machine
        : 'Linux';
  await io.stdout(`${text}\n`);
  return 0;
};

export const BASIC_COMMANDS: Readonly<Record<string, CommandHandler>> = {
  echo,
  cat,
  ls,
  rm,
  mkdir,
  touch,
  sha256sum,
  sleep,
  id,
  date,
  getprop,
  setprop,
  ps,
  pidof,
  kill,
  grep,
  egrep: grep,
  fgrep: grep,
  head,
  tail,
  wc,
  test,
  '[': test,
  uname,
  true: async () => 0,
  false: async () => 1,
  whoami: async ({ io }) => {
    await io.stdout('shell\n');
    return 0;
  },
};
