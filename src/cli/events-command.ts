import { createWriteStream, readFileSync } from 'node:fs';
import type { StoredEvent } from '../events/event-definition.js';
import { EventQueryError, type Digest, type EventFilter, type EventStore } from '../events/event-store.js';
import { createEventStream } from '../events/event-stream.js';
import { typeMatcher } from '../events/glob.js';
import { describeActor } from '../shared/actor.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { UsageError } from '../kernel/usage-error.js';
import { parseTimeBound } from '../plugins/core/services/event-query.js';
import { parseCommandLine, runtimeOptions, withContainer, writeOut, type Options } from './cli-support.js';

export const EVENTS_HELP = `Usage: droidwright events <command> [options]

  list      Recent events, oldest first                       [filters] [--limit N] [--json]
  tail      The last events, then follow new ones with -f      [filters] [--limit N] [-f] [--json]
  verify    Check the hash chain; exit 1 naming the first bad seq   [--digest FILE]
  digest    Print {seq, hash, at} of the newest event, to keep elsewhere
  export    Write events as JSON Lines, oldest first           [filters] [--out FILE]
  stats     Counts by type, size, time span                    [--json]
  rebuild   Rebuild read models from the log                   [projection names...]

Filters: --type GLOB (repeatable, e.g. build.*), --since T, --until T (ISO time, epoch ms, or 15m/2h/1d),
         --device SERIAL, --package ID, --session MCP_SESSION, --correlation ID`;

const FILTER_OPTIONS = {
  type: { type: 'string', multiple: true },
  since: { type: 'string' },
  until: { type: 'string' },
  device: { type: 'string' },
  package: { type: 'string' },
  session: { type: 'string' },
  correlation: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} satisfies Options;

type FilterValues = {
  type?: string[];
  since?: string;
  until?: string;
  device?: string;
  package?: string;
  session?: string;
  correlation?: string;
};

function filterFrom(values: FilterValues): EventFilter {
  return {
    ...(values.type ? { types: values.type.flatMap((t) => t.split(',')).filter(Boolean) } : {}),
    ...(values.since !== undefined ? { since: parseTimeBound(values.since, '--since') } : {}),
    ...(values.until !== undefined ? { until: parseTimeBound(values.until, '--until') } : {}),
    ...(values.device ? { device: values.device } : {}),
    ...(values.package ? { package: values.package } : {}),
    ...(values.session ? { actorSession: values.session } : {}),
    ...(values.correlation ? { correlation: values.correlation } : {}),
  };
}

function parseLimit(text: string | undefined, fallback: number, max = 10_000): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`--limit must be an integer from 1 to ${max} (got ${text}).`);
  return n;
}

/** Full event as JSON (the auditor's view: nothing cut). */
function eventJson(event: StoredEvent): string {
  return JSON.stringify(event);
}

function oneLine(event: StoredEvent): string {
  const subject = [
    event.device && `device=${event.device}`,
    event.package && `package=${event.package}`,
    event.correlation && `corr=${event.correlation}`,
  ]
    .filter(Boolean)
    .join(' ');
  let data = JSON.stringify(event.data) ?? '';
  if (data.length > 160) data = `${data.slice(0, 157)}...`;
  return `${String(event.seq).padStart(6)}  ${new Date(event.at).toISOString()}  ${event.type.padEnd(22)}  ${describeActor(event.actor)}${subject ? `  ${subject}` : ''}  ${data}`;
}

/** Matches a live event against the same filter the query used. */
function matches(filter: EventFilter): (e: StoredEvent) => boolean {
  const type = filter.types ? typeMatcher(filter.types) : () => true;
  return (e) =>
    type(e.type) &&
    (filter.since === undefined || e.at >= filter.since) &&
    (filter.until === undefined || e.at < filter.until) &&
    (!filter.device || e.device === filter.device) &&
    (!filter.package || e.package === filter.package) &&
    (!filter.actorSession || e.actor.session === filter.actorSession) &&
    (!filter.correlation || e.correlation === filter.correlation);
}

async function list(store: EventStore, argv: string[], defaultLimit: number): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    { ...FILTER_OPTIONS, follow: { type: 'boolean', short: 'f' } },
    false,
  );
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}.`);
  const filter = filterFrom(values);
  const limit = parseLimit(values.limit, defaultLimit);
  const following = values.follow === true;
  const events = store.query({ ...filter, limit, order: 'desc' }).reverse();
  // One JSON array for a snapshot; JSON Lines when following, so each line stands alone.
  if (values.json && !following) await writeOut(`${JSON.stringify(events)}\n`);
  else if (events.length > 0) await writeOut(`${events.map(values.json ? eventJson : oneLine).join('\n')}\n`);
  else if (!following) process.stderr.write('No matching events.\n');
  if (!following) return 0;

  // Follow other processes' appends until interrupted.
  const stream = createEventStream(store, { fromSeq: store.lastSeq() });
  const accept = matches(filter);
  const unsubscribe = stream.subscribe((event) => {
    if (accept(event)) process.stdout.write(`${values.json ? eventJson(event) : oneLine(event)}\n`);
  });
  const keepAlive = setInterval(() => {}, 60_000);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
    process.stdout.once('error', () => resolve());
  });
  clearInterval(keepAlive);
  unsubscribe();
  stream.close();
  return 0;
}

async function verify(store: EventStore, argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, { digest: { type: 'string' }, json: { type: 'boolean' } }, false);
  let fromDigest: Digest | undefined;
  if (values.digest !== undefined) {
    try {
      const parsed = JSON.parse(readFileSync(values.digest, 'utf8')) as Digest;
      if (!Number.isInteger(parsed.seq) || typeof parsed.hash !== 'string') throw new Error('missing seq or hash');
      fromDigest = parsed;
    } catch (error) {
      throw new UsageError(
        `--digest ${values.digest}: not a digest file written by \`droidwright events digest\` (${(error as Error).message}).`,
      );
    }
  }
  const result = store.verify({ ...(fromDigest ? { fromDigest } : {}) });
  if (values.json) await writeOut(`${JSON.stringify(result)}\n`);
  if (result.ok) {
    if (!values.json) {
      const since = fromDigest ? `; it still extends the digest at seq ${fromDigest.seq}` : '';
      await writeOut(`ok: hash chain intact, ${result.checked} events checked up to seq ${result.lastSeq}${since}.\n`);
    }
    return 0;
  }
  process.stderr.write(
    `droidwright: the event log is BROKEN at seq ${result.firstBadSeq ?? '?'}: ${result.reason ?? 'hash mismatch'}.\n`,
  );
  return 1;
}

async function exportEvents(store: EventStore, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    { ...FILTER_OPTIONS, out: { type: 'string', short: 'o' } },
    false,
  );
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}.`);
  const filter = filterFrom(values);
  const file = values.out ? createWriteStream(values.out, { flags: 'w' }) : undefined;
  const write = (text: string): Promise<void> =>
    file
      ? new Promise((resolve, reject) => file.write(text, (err) => (err ? reject(err) : resolve())))
      : writeOut(text);
  let after = 0;
  let count = 0;
  for (;;) {
    const page = store.query({ ...filter, afterSeq: after, order: 'asc', limit: 1000 });
    if (page.length === 0) break;
    await write(`${page.map(eventJson).join('\n')}\n`);
    count += page.length;
    after = page[page.length - 1]!.seq;
  }
  if (file) {
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    process.stderr.write(`Exported ${count} events to ${values.out}.\n`);
  }
  return 0;
}

async function stats(store: EventStore, argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, { json: { type: 'boolean' } }, false);
  const s = store.stats();
  if (values.json) {
    await writeOut(`${JSON.stringify(s)}\n`);
    return 0;
  }
  const time = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());
  const lines = [
    `events: ${s.events} (last seq ${s.lastSeq})`,
    `size:   ${(s.fileBytes / 1024).toFixed(1)} KiB`,
    `span:   ${time(s.firstAt)} .. ${time(s.lastAt)}`,
    'by type:',
    ...Object.entries(s.byType)
      .sort((a, b) => b[1] - a[1])
      .map(([type, n]) => `  ${String(n).padStart(7)}  ${type}`),
  ];
  await writeOut(`${lines.join('\n')}\n`);
  return 0;
}

export async function runEventsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    process.stderr.write(`${EVENTS_HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  const known = ['list', 'tail', 'verify', 'digest', 'export', 'stats', 'rebuild'];
  if (!known.includes(sub)) throw new UsageError(`Unknown events command "${sub}". Use one of: ${known.join(', ')}.`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${EVENTS_HELP}\n`);
    return 0;
  }
  return withContainer(runtimeOptions(), async (container) => {
    const store = container.get<EventStoreProvider>(EventStoreProvider)();
    try {
      return await runSubcommand(store, sub, rest);
    } catch (error) {
      // A filter or projection name the store refused came from this command line.
      if (error instanceof EventQueryError) throw new UsageError(error.message);
      throw error;
    }
  });
}

async function runSubcommand(store: EventStore, sub: string, rest: string[]): Promise<number> {
  switch (sub) {
    case 'list':
      return list(store, rest, 50);
    case 'tail':
      return list(store, rest, 10);
    case 'verify':
      return verify(store, rest);
    case 'digest':
      parseCommandLine(rest, {}, false);
      await writeOut(`${JSON.stringify(store.digest())}\n`);
      return 0;
    case 'export':
      return exportEvents(store, rest);
    case 'stats':
      return stats(store, rest);
    default: {
      const { positionals } = parseCommandLine(rest, {});
      const result = store.rebuildProjections(positionals.length > 0 ? positionals : undefined);
      await writeOut(`Rebuilt ${result.rebuilt.join(', ') || 'nothing'} from ${result.events} events.\n`);
      return 0;
    }
  }
}
