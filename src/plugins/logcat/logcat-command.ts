import { setTimeout as sleep } from 'node:timers/promises';
import { isLogLevel } from '../../android/logcat/logcat-entry.js';
import { PackageScopeGuard } from '../../android/package-scope-guard.js';
import { createContainer, disposeContainer } from '../../kernel/composition-root.js';
import { resolveHome } from '../../kernel/paths.js';
import { storeOption } from '../../kernel/store-location.js';
import { UsageError } from '../../kernel/usage-error.js';
import { pluginModules } from '../index.js';
import type { CommandInput } from '../../cli/command-spec.js';
import type { logcatFlags } from '../../cli/command-specs.js';
import { colorsOn, terminalColumns } from '../../cli/terminal-style.js';
import { formatLogTime, MAX_MESSAGE_CHARS } from './services/log-line-format.js';
import { resolvePackageFilter } from './services/log-filter-args.js';
import { LogLineStore, type LogLineFilter, type StoredLogLine } from './services/log-line-store.js';
import { SqliteLogLineStore } from './services/sqlite-log-line-store.js';

const FOLLOW_POLL_MS = 250;

/** pidcat's palette: level badges on a background, tags in a stable color each. */
const LEVEL_STYLE: Readonly<Record<string, string>> = {
  V: '\x1b[30;47m',
  D: '\x1b[30;46m',
  I: '\x1b[30;42m',
  W: '\x1b[30;43m',
  E: '\x1b[37;41m',
  F: '\x1b[37;41m',
  A: '\x1b[37;41m',
};
const TAG_COLORS = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96];
const TAG_WIDTH = 23;
const RESET = '\x1b[0m';

function tagColor(tag: string): number {
  let h = 0;
  for (let i = 0; i < tag.length; i++) h = (h * 31 + tag.charCodeAt(i)) >>> 0;
  return TAG_COLORS[h % TAG_COLORS.length]!;
}

/** Device text printed to a terminal: control characters (escape sequences included) are shown, not obeyed. */
function printable(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out += (code < 32 && code !== 10 && code !== 9) || code === 127 ? `\\x${code.toString(16).padStart(2, '0')}` : c;
  }
  return out;
}

/** Each line of `text` cut into pieces of at most `width` characters (pidcat wraps long messages under the column). */
function wrapTo(text: string, width: number | undefined): string {
  if (width === undefined || width < 20) return text;
  return text
    .split('\n')
    .flatMap((part) => {
      const pieces: string[] = [];
      for (let i = 0; i < part.length; i += width) pieces.push(part.slice(i, i + width));
      return pieces.length > 0 ? pieces : [''];
    })
    .join('\n');
}

/** One stored line; `columns`: the terminal's width, to wrap the message under its column (colored output only). */
export function renderLine(line: StoredLogLine, color: boolean, columns?: number): string {
  const whole = printable(
    line.message.length > MAX_MESSAGE_CHARS ? `${line.message.slice(0, MAX_MESSAGE_CHARS)}…` : line.message,
  );
  const tag = printable(line.tag);
  const shownTag = tag.length > TAG_WIDTH ? tag.slice(0, TAG_WIDTH) : tag.padStart(TAG_WIDTH);
  const prefix = `${formatLogTime(line.timeMs)} ${String(line.pid).padStart(5)}`;
  if (!color)
    return `${prefix} ${shownTag} ${line.level} ${whole.replace(/\n/g, `\n${' '.repeat(prefix.length + TAG_WIDTH + 4)}`)}`;
  const indent = ' '.repeat(prefix.length + TAG_WIDTH + 5);
  const message = wrapTo(whole, columns === undefined ? undefined : columns - indent.length);
  return `\x1b[2m${prefix}${RESET} \x1b[${tagColor(line.tag)}m${shownTag}${RESET} ${LEVEL_STYLE[line.level] ?? ''} ${line.level} ${RESET} ${message.replace(/\n/g, `\n${indent}`)}`;
}

/**
 * `droidwright logcat`: the stored device log for people, pidcat-style (tag column, colored levels) on a terminal,
 * plain text when piped or NO_COLOR is set (FORCE_COLOR colors a pipe), one JSON object a line with --json; -f follows
 * new lines.
 */
export async function runLogcatCommand({ values }: CommandInput<typeof logcatFlags>): Promise<number> {
  const minLevel = values['min-level']?.toUpperCase();
  if (minLevel !== undefined && !isLogLevel(minLevel)) throw new UsageError(`--min-level must be one of V D I W E F.`);
  const count = values.count === undefined ? 200 : Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) throw new UsageError('-n must be 1–100000.');
  const home = resolveHome(process.env);
  const container = createContainer(
    { home, ...storeOption(process.env), cwd: process.cwd(), readOnly: true, env: process.env },
    pluginModules,
  );
  const store = container.get<LogLineStore>(LogLineStore);
  try {
    const serial = values.device ?? onlyDevice(container.get(SqliteLogLineStore));
    const packages = resolvePackageFilter(values.package, '--package', serial, store, () =>
      container.get(PackageScopeGuard).scope(),
    );
    const filter: LogLineFilter = {
      deviceSerial: serial,
      ...(minLevel ? { minLevel } : {}),
      ...(packages ? { packages } : {}),
    };
    const color = !values.json && colorsOn(process.stdout);
    const columns = color ? terminalColumns(process.stdout) : undefined;
    const print = (line: StoredLogLine) =>
      process.stdout.write(`${values.json ? JSON.stringify(line) : renderLine(line, color, columns)}\n`);
    const page = store.query(filter, count);
    for (const line of [...page.lines].reverse()) print(line);
    if (!values.follow) return 0;
    let cursor = store.counts(serial).stored;
    let stop = false;
    const onSignal = () => {
      stop = true;
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    process.stdout.on('error', onSignal);
    while (!stop) {
      const next = store.query({ ...filter, afterSeq: cursor }, 5_000);
      for (const line of next.lines) print(line);
      const newest = store.query({ deviceSerial: serial, afterSeq: cursor, beforeSeq: Number.MAX_SAFE_INTEGER }, 1);
      cursor = Math.max(cursor, next.lines.at(-1)?.seq ?? 0, next.more === 0 ? (newest.lines[0]?.seq ?? 0) : 0);
      if (next.more === 0) await sleep(FOLLOW_POLL_MS);
    }
    return 0;
  } finally {
    store.close();
    disposeContainer(container);
  }
}

/** The one device the store holds lines for; with several, the user must choose. */
function onlyDevice(store: SqliteLogLineStore): string {
  const devices = store.devices();
  if (devices.length === 1) return devices[0]!;
  if (devices.length === 0) {
    throw new UsageError(
      'No device log is stored yet: start streaming with the start_logcat tool, then run this again.',
    );
  }
  throw new UsageError(`Several devices have stored logs (${devices.slice(0, 10).join(', ')}): pass --device SERIAL.`);
}
