import { BytePipe, EMPTY_STDIN } from './byte-pipe.js';
import type { CommandContext, CommandHandler, CommandIO, ExecutedCommand } from './command.js';
import {
  parseShell,
  ShellSyntaxError,
  type AndOrList,
  type Pipeline,
  type SimpleCommand,
  type Word,
} from './shell-parser.js';
import type { SimulatedDevice } from '../simulated-device.js';
import { normalizePath } from '../sim-file-system.js';

const SH = '/system/bin/sh';
const MAX_COMMAND_LOG = 5000;
const COMMAND_DIRS = ['/system/bin', '/system/xbin', '/vendor/bin', '/product/bin', '/apex/com.android.runtime/bin'];

/** Shell variables and state for one `sh -c` invocation; command substitutions get a copy (a subshell). */
export class ShellSession {
  vars: Map<string, string>;
  exported: Set<string>;
  lastStatus = 0;
  cwd = '/';
  exitStatus: number | null = null;

  constructor(
    readonly pid: number,
    base?: ShellSession,
  ) {
    this.vars = new Map(
      base?.vars ?? [
        ['PATH', COMMAND_DIRS.join(':')],
        ['HOME', '/'],
        ['SHELL', SH],
        ['USER', 'shell'],
      ],
    );
    this.exported = new Set(base?.exported ?? ['PATH', 'HOME', 'SHELL', 'USER']);
    if (base) {
      this.lastStatus = base.lastStatus;
      this.cwd = base.cwd;
    }
  }
}

type Sink = (data: Buffer) => Promise<void>;

export class Shell {
  readonly commandLog: ExecutedCommand[] = [];

  constructor(
    private readonly device: SimulatedDevice,
    private readonly commands: ReadonlyMap<string, CommandHandler>,
  ) {}

  /** Runs a full command line the way `/system/bin/sh -c line` would; resolves with the exit status. */
  async run(
    line: string,
    io: CommandIO,
    session = new ShellSession(this.device.processes.nextShellPid()),
  ): Promise<number> {
    let script;
    try {
      script = parseShell(line);
    } catch (err) {
      if (err instanceof ShellSyntaxError) {
        await io.stderr(`${SH}: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
    for (const list of script.lists) {
      if (session.exitStatus !== null || io.signal.aborted) break;
      if (list.background) {
        // Detached like `cmd &`: the command line finishes without waiting for it.
        void this.runList(list, io, session, line).catch(() => undefined);
        session.lastStatus = 0;
        continue;
      }
      session.lastStatus = await this.runList(list, io, session, line);
    }
    return session.exitStatus ?? session.lastStatus;
  }

  private async runList(list: AndOrList, io: CommandIO, session: ShellSession, line: string): Promise<number> {
    let status = await this.runPipeline(list.pipelines[0], io, session, line);
    for (let i = 0; i < list.ops.length; i++) {
      if (session.exitStatus !== null) break;
      const op = list.ops[i];
      session.lastStatus = status;
      if ((op === '&&' && status !== 0) || (op === '||' && status === 0)) continue;
      status = await this.runPipeline(list.pipelines[i + 1], io, session, line);
    }
    return status;
  }

  private async runPipeline(pipeline: Pipeline, io: CommandIO, session: ShellSession, line: string): Promise<number> {
    const n = pipeline.commands.length;
    if (n === 1) return this.runSimple(pipeline.commands[0], io, session, line);
    const pipes = Array.from({ length: n - 1 }, () => new BytePipe());
    const runs = pipeline.commands.map(async (command, i) => {
      const out = i < n - 1 ? pipes[i] : null;
      const signal = out ? AbortSignal.any([io.signal, out.brokenSignal]) : io.signal;
      const stageIO: CommandIO = {
        stdin: i === 0 ? io.stdin : pipes[i - 1],
        stdout: out ? async (d) => out.write(d) : io.stdout,
        stderr: io.stderr,
        signal,
      };
      try {
        // Each stage is its own process in a real shell: variable changes do not leak out of it.
        return await this.runSimple(command, stageIO, new ShellSession(session.pid, session), line);
      } finally {
        out?.close();
        if (i > 0) pipes[i - 1].breakPipe();
      }
    });
    const statuses = await Promise.all(runs);
    return statuses[n - 1];
  }

  private async expandWord(word: Word, session: ShellSession, io: CommandIO, split: boolean): Promise<string[]> {
    const fields: string[] = [];
    let current = '';
    let hasContent = false;
    const pushUnquoted = (value: string) => {
      if (!split) {
        current += value;
        return;
      }
      const pieces = value.split(/[ \t\n]+/);
      pieces.forEach((piece, idx) => {
        if (idx > 0) {
          if (hasContent || current) fields.push(current);
          current = '';
          hasContent = false;
        }
        if (piece) {
          current += piece;
          hasContent = true;
        }
      });
    };
    for (const part of word.parts) {
      if (part.kind === 'lit') {
        current += part.text;
        hasContent = hasContent || part.quoted || part.text.length > 0;
        continue;
      }
      const value =
        part.kind === 'var' ? this.variable(part.name, session) : await this.substitute(part.source, session, io);
      if (part.quoted) {
        current += value;
        hasContent = true;
      } else {
        pushUnquoted(value);
      }
    }
    if (hasContent || current) fields.push(current);
    return fields;
  }

  private variable(name: string, session: ShellSession): string {
    if (name === '?') return String(session.lastStatus);
    if (name === '$') return String(session.pid);
    if (name === '#') return '0';
    if (name === '0') return SH;
    if (/^[0-9]$/.test(name)) return '';
    return session.vars.get(name) ?? '';
  }

  /** `$(…)` and backticks run their text through this same shell, exactly as sh would. */
  private async substitute(source: string, session: ShellSession, io: CommandIO): Promise<string> {
    const chunks: Buffer[] = [];
    const sub = new ShellSession(this.device.processes.nextShellPid(), session);
    await this.run(
      source,
      {
        stdin: EMPTY_STDIN,
        stdout: async (d) => void chunks.push(Buffer.from(d)),
        stderr: io.stderr,
        signal: io.signal,
      },
      sub,
    );
    return Buffer.concat(chunks).toString('utf8').replace(/\n+$/, '');
  }

  private async runSimple(command: SimpleCommand, io: CommandIO, session: ShellSession, line: string): Promise<number> {
    const argv: string[] = [];
    for (const word of command.words) argv.push(...(await this.expandWord(word, session, io, true)));
    const assignments: Record<string, string> = {};
    for (const a of command.assignments)
      assignments[a.name] = (await this.expandWord(a.value, session, io, false)).join('');

    this.commandLog.push({ argv, commandLine: line, assignments, at: this.device.clock() });
    if (this.commandLog.length > MAX_COMMAND_LOG) this.commandLog.splice(0, this.commandLog.length - MAX_COMMAND_LOG);

    const redirected = await this.applyRedirections(command, io, session);
    if (typeof redirected === 'number') return redirected;
    const { io: cmdIO, finish } = redirected;
    try {
      if (argv.length === 0) {
        for (const [k, v] of Object.entries(assignments)) session.vars.set(k, v);
        return 0;
      }
      return await this.dispatch(argv, assignments, cmdIO, session);
    } finally {
      await finish();
    }
  }

  private async applyRedirections(
    command: SimpleCommand,
    io: CommandIO,
    session: ShellSession,
  ): Promise<{ io: CommandIO; finish: () => Promise<void> } | number> {
    const fs = this.device.fs;
    const fds: Record<number, Sink> = { 1: async (d) => io.stdout(d), 2: async (d) => io.stderr(d) };
    let stdin = io.stdin;
    const discard: Sink = async () => undefined;
    for (const r of command.redirections) {
      if (r.op === '>&') {
        fds[r.fd] = fds[r.toFd] ?? discard;
        continue;
      }
      const target = (await this.expandWord(r.target, session, io, false)).join('');
      const path = normalizePath(target, session.cwd);
      if (r.op === '<') {
        if (path === '/dev/null') {
          stdin = EMPTY_STDIN;
          continue;
        }
        const data = fs.readFile(path);
        if (!data) {
          await io.stderr(
            `${SH}: can't open ${target}: ${fs.stat(path) ? 'Is a directory' : 'No such file or directory'}\n`,
          );
          return 1;
        }
        stdin = (async function* () {
          yield data;
        })();
        continue;
      }
      if (path === '/dev/null') {
        fds[r.fd] = discard;
        continue;
      }
      if (path === '/dev/tty' || path === '/dev/stdout') continue;
      if (path === '/dev/stderr') {
        fds[r.fd] = fds[2];
        continue;
      }
      const error = fs.checkWritable(path);
      if (error) {
        await io.stderr(`${SH}: can't create ${target}: ${error}\n`);
        return 1;
      }
      if (r.op === '>' || !fs.readFile(path))
        fs.writeFile(path, Buffer.alloc(0), 0o100666, Math.floor(this.device.clock() / 1000));
      fds[r.fd] = async (d) => fs.appendFile(path, d);
    }
    const out = fds[1] ?? discard;
    const err = fds[2] ?? discard;
    const toBuf = (d: Buffer | string) => (typeof d === 'string' ? Buffer.from(d) : d);
    return {
      io: { stdin, stdout: (d) => out(toBuf(d)), stderr: (d) => err(toBuf(d)), signal: io.signal },
      finish: async () => undefined,
    };
  }

  private resolveCommand(name: string): { name: string; handler: CommandHandler } | null {
    if (name.includes('/')) {
      const dir = name.slice(0, name.lastIndexOf('/'));
      const base = name.slice(name.lastIndexOf('/') + 1);
      if (!COMMAND_DIRS.includes(dir)) return null;
      const handler = this.commands.get(base);
      return handler ? { name: base, handler } : null;
    }
    const handler = this.commands.get(name);
    return handler ? { name, handler } : null;
  }

  private async dispatch(
    argv: string[],
    assignments: Record<string, string>,
    io: CommandIO,
    session: ShellSession,
  ): Promise<number> {
    const name = argv[0];
    switch (name) {
      case 'export':
        for (const arg of argv.slice(1)) {
          const eq = arg.indexOf('=');
          const key = eq >= 0 ? arg.slice(0, eq) : arg;
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
            await io.stderr(`${SH}: export: ${arg}: is not an identifier\n`);
            return 1;
          }
          if (eq >= 0) session.vars.set(key, arg.slice(eq + 1));
          session.exported.add(key);
        }
        return 0;
      case 'unset':
        for (const arg of argv.slice(1)) session.vars.delete(arg);
        return 0;
      case 'exec':
        if (argv.length === 1) return 0;
        return this.dispatch(argv.slice(1), assignments, io, session);
      case 'exit': {
        const code = argv[1] === undefined ? session.lastStatus : Number(argv[1]);
        session.exitStatus = Number.isFinite(code) ? code & 255 : 255;
        return session.exitStatus;
      }
      case ':':
        return 0;
      case 'cd': {
        const target = normalizePath(argv[1] ?? '/', session.cwd);
        const st = this.device.fs.stat(target);
        if (!st || (st.mode & 0o170000) !== 0o040000) {
          await io.stderr(`${SH}: cd: ${target}: No such file or directory\n`);
          return 2;
        }
        session.cwd = target;
        return 0;
      }
      case 'pwd':
        await io.stdout(`${session.cwd}\n`);
        return 0;
      case 'command':
      case 'type':
      case 'which': {
        const names = argv.slice(1).filter((a) => !a.startsWith('-'));
        if (name === 'command' && argv[1] !== '-v' && argv[1] !== '-V')
          return this.dispatch(argv.slice(1), assignments, io, session);
        let status = 0;
        for (const n of names) {
          const builtin = ['export', 'unset', 'exec', 'exit', 'cd', 'pwd', 'command', 'type', ':'].includes(n);
          const found = this.resolveCommand(n);
          if (builtin && name !== 'which') await io.stdout(name === 'type' ? `${n} is a shell builtin\n` : `${n}\n`);
          else if (found)
            await io.stdout(
              name === 'type'
                ? `${n} is a tracked alias for /system/bin/${found.name}\n`
                : `/system/bin/${found.name}\n`,
            );
          else {
            status = 1;
            if (name === 'type') await io.stdout(`${n} not found\n`);
          }
        }
        return status;
      }
      case 'sh': {
        const c = argv.indexOf('-c');
        if (c < 0 || argv[c + 1] === undefined) {
          // Reading a script from stdin is an interactive-shell feature the device does not offer here.
          await io.stderr(`${SH}: -c requires an argument\n`);
          return 1;
        }
        return this.run(argv[c + 1], io, new ShellSession(this.device.processes.nextShellPid(), session));
      }
    }
    const resolved = this.resolveCommand(name);
    if (!resolved) {
      await io.stderr(`${SH}: ${name}: inaccessible or not found\n`);
      return 127;
    }
    const env = new Map<string, string>();
    for (const key of session.exported) {
      const v = session.vars.get(key);
      if (v !== undefined) env.set(key, v);
    }
    for (const [k, v] of Object.entries(assignments)) env.set(k, v);
    const ctx: CommandContext = {
      argv: [resolved.name, ...argv.slice(1)],
      io,
      env,
      cwd: session.cwd,
      device: this.device,
      runNested: (commandLine, nestedIO) =>
        this.run(commandLine, nestedIO, new ShellSession(this.device.processes.nextShellPid(), session)),
    };
    try {
      return await resolved.handler(ctx);
    } catch (err) {
      if (io.signal.aborted) return 130;
      throw err;
    }
  }
}
