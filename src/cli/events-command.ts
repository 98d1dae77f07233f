import { closeSync, createWriteStream, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { StoredEvent } from '../events/event-definition.js';
import {
  type ChainAnchor,
  type Digest,
  EventQueryError,
  type EventFilter,
  type EventStore,
} from '../events/event-store.js';
import { verifyExportLines } from '../events/event-verifier.js';
import { readWitness } from '../events/event-witness.js';
import { createEventStream } from '../events/event-stream.js';
import { typeMatcher } from '../events/glob.js';
import { describeActor, thisHost } from '../shared/actor.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { witnessPath } from '../kernel/store-location.js';
import { UsageError } from '../kernel/usage-error.js';
import { parseTimeBound } from '../plugins/core/services/event-query.js';
import { runtimeOptions, withContainer, writeOut } from './cli-support.js';
import { terminalColumns } from './terminal-style.js';
import type { CommandInput, FlagValues } from './command-spec.js';
import type {
  eventsDigestFlags,
  eventsExportFlags,
  eventsListFlags,
  eventsRebuildFlags,
  eventsStatsFlags,
  eventsTraceFlags,
  eventsVerifyFlags,
} from './command-specs.js';
import {
  SignatureError,
  type SignedDigest,
  defaultSigningKey,
  signDigest,
  verifyDigestSignature,
} from './digest-signature.js';
import { renderTrace, resolveSession, TRACE_KINDS, type TraceKind, traceOf } from './event-trace.js';

type FilterValues = {
  type?: string[];
  since?: string;
  until?: string;
  device?: string;
  package?: string;
  session?: string;
  client?: string;
  tool?: string;
  correlation?: string;
};

/**
 * What the command line selects: a store filter (indexed columns), plus a check on what only the
 * event holds (the actor's client, a tool call's tool). `none`: a session prefix that matches nothing.
 */
interface Selection {
  filter: EventFilter;
  accept?: (e: StoredEvent) => boolean;
  none?: boolean;
}

function selectionFrom(store: EventStore, values: FilterValues): Selection {
  const types = values.type?.flatMap((t) => t.split(',')).filter(Boolean);
  let session: string | undefined;
  let none = false;
  if (values.session !== undefined) {
    session = resolveSession(store, values.session);
    none = session === undefined;
  }
  const filter: EventFilter = {
    ...(types ? { types } : values.tool !== undefined ? { types: ['mcp.tool_called'] } : {}),
    ...(values.since !== undefined ? { since: parseTimeBound(values.since, '--since') } : {}),
    ...(values.until !== undefined ? { until: parseTimeBound(values.until, '--until') } : {}),
    ...(values.device ? { device: values.device } : {}),
    ...(values.package ? { package: values.package } : {}),
    ...(session ? { actorSession: session } : {}),
    ...(values.client !== undefined ? { actorKind: 'agent' as const } : {}),
    ...(values.correlation ? { correlation: values.correlation } : {}),
  };
  const checks: ((e: StoredEvent) => boolean)[] = [];
  if (values.client !== undefined) {
    const client = typeMatcher([values.client]);
    checks.push((e) => e.actor.client !== undefined && client(e.actor.client));
  }
  if (values.tool !== undefined) {
    const tool = typeMatcher([values.tool]);
    checks.push((e) => e.type === 'mcp.tool_called' && tool(String((e.data as { tool?: unknown }).tool)));
  }
  return {
    filter,
    ...(checks.length > 0 ? { accept: (e: StoredEvent) => checks.every((check) => check(e)) } : {}),
    ...(none ? { none } : {}),
  };
}

const SCAN_PAGE = 1000;

/** Up to `limit` selected events, newest first; pages through the log when a check applies beyond the filter. */
function selectNewest(store: EventStore, selection: Selection, limit: number): StoredEvent[] {
  if (selection.none) return [];
  const accept = selection.accept;
  if (!accept) return store.query({ ...selection.filter, limit, order: 'desc' });
  const found: StoredEvent[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = store.query({
      ...selection.filter,
      ...(beforeSeq !== undefined ? { beforeSeq } : {}),
      limit: SCAN_PAGE,
      order: 'desc',
    });
    for (const event of page) {
      if (!accept(event)) continue;
      found.push(event);
      if (found.length === limit) return found;
    }
    if (page.length < SCAN_PAGE) return found;
    beforeSeq = page[page.length - 1]!.seq;
  }
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

/**
 * The machine reading, whose own actors need no host in a listing: a person on one laptop sees what they saw
 * before hosts were recorded, and a team's shared log names every other machine. A bad DROIDWRIGHT_HOST must
 * not stop anyone reading the log, so it only makes every host show.
 */
function readerHost(): string | undefined {
  try {
    return thisHost();
  } catch {
    return undefined;
  }
}

/** One event a line for people; on a terminal, cut to its width so a line never wraps into the next. */
function humanLine(event: StoredEvent): string {
  const line = oneLine(event, readerHost());
  const columns = terminalColumns(process.stdout);
  return columns !== undefined && line.length > columns ? `${line.slice(0, Math.max(columns - 1, 1))}…` : line;
}

function oneLine(event: StoredEvent, localHost: string | undefined): string {
  const subject = [
    event.device && `device=${event.device}`,
    event.package && `package=${event.package}`,
    event.correlation && `corr=${event.correlation}`,
  ]
    .filter(Boolean)
    .join(' ');
  let data: string;
  if (event.type === 'mcp.tool_called') {
    // The question asked of a tool call is which tool and how it ended; the data follows.
    const call = event.data as { tool?: string; outcome?: string; error_code?: string | null; summary?: string };
    data = `tool=${call.tool} ${call.outcome}${call.error_code ? ` ${call.error_code}` : ''}  ${call.summary ?? ''}`;
  } else {
    data = JSON.stringify(event.data) ?? '';
  }
  if (data.length > 160) data = `${data.slice(0, 157)}...`;
  return `${String(event.seq).padStart(6)}  ${new Date(event.at).toISOString()}  ${event.type.padEnd(22)}  ${describeActor(event.actor, localHost)}${subject ? `  ${subject}` : ''}  ${data}`;
}

/** Matches a live event against the same selection the query used. */
function matches(selection: Selection): (e: StoredEvent) => boolean {
  const filter = selection.filter;
  const type = filter.types ? typeMatcher(filter.types) : () => true;
  return (e) =>
    !selection.none &&
    type(e.type) &&
    (filter.since === undefined || e.at >= filter.since) &&
    (filter.until === undefined || e.at < filter.until) &&
    (!filter.device || e.device === filter.device) &&
    (!filter.package || e.package === filter.package) &&
    (!filter.actorSession || e.actor.session === filter.actorSession) &&
    (!filter.actorKind || e.actor.kind === filter.actorKind) &&
    (!filter.correlation || e.correlation === filter.correlation) &&
    (!selection.accept || selection.accept(e));
}

async function list(
  store: EventStore,
  values: FlagValues<typeof eventsListFlags>,
  defaultLimit: number,
): Promise<number> {
  const selection = selectionFrom(store, values);
  const limit = parseLimit(values.limit, defaultLimit);
  const following = values.follow === true;
  const events = selectNewest(store, selection, limit).reverse();
  // One JSON array for a snapshot; JSON Lines when following, so each line stands alone.
  if (values.json && !following) await writeOut(`${JSON.stringify(events)}\n`);
  else if (events.length > 0) await writeOut(`${events.map(values.json ? eventJson : humanLine).join('\n')}\n`);
  else if (!following) process.stderr.write('No matching events.\n');
  if (!following) return 0;

  // Follow other processes' appends until interrupted.
  const stream = createEventStream(store, { fromSeq: store.lastSeq() });
  const accept = matches(selection);
  const unsubscribe = stream.subscribe((event) => {
    if (accept(event)) process.stdout.write(`${values.json ? eventJson(event) : humanLine(event)}\n`);
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

type VerifyValues = FlagValues<typeof eventsVerifyFlags>;

function checkVerifyOptions(values: VerifyValues): VerifyValues {
  if (values['allowed-signers'] !== undefined && values.digest === undefined) {
    throw new UsageError('--allowed-signers checks the signature of a --digest FILE; pass both.');
  }
  if (values.witness !== undefined && values['no-witness']) {
    throw new UsageError('--witness and --no-witness contradict each other; pass one.');
  }
  if (values.file !== undefined && values.projections) {
    throw new UsageError('--projections needs the database; an export (--file) has no read models.');
  }
  return values;
}

function readDigestFile(file: string): Digest & { signature?: string } {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Digest & { signature?: string };
    if (!Number.isInteger(parsed?.seq) || parsed.seq < 0 || !/^[0-9a-f]{64}$/.test(String(parsed.hash))) {
      throw new Error('it needs an integer seq >= 0 and a 64-character lowercase hex hash');
    }
    return parsed;
  } catch (error) {
    throw new UsageError(
      `--digest ${file}: not a digest file written by \`droidwright events digest\` (${(error as Error).message}).`,
    );
  }
}

/** Lines of a file, read in 1 MiB chunks so a large export is never held whole. */
function* fileLines(path: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`--file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const lines = (rest + decoder.write(chunk.subarray(0, n))).split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

/**
 * `events verify`: the chain (canonical rows, hashes, links, triggers), plus what was asked for — a
 * digest and its SSH signature, the witness file (default: the one beside the log), the read models —
 * or an export file offline. Exit 1 names what failed.
 */
async function verify(values: VerifyValues, store: EventStore | undefined): Promise<number> {
  const notes: string[] = [];
  const anchors: ChainAnchor[] = [];
  const report: Record<string, unknown> = {};
  if (values.digest !== undefined) {
    const digest = readDigestFile(values.digest);
    anchors.push({ seq: digest.seq, hash: digest.hash, source: `the digest ${values.digest}` });
    if (values['allowed-signers'] !== undefined) {
      try {
        const signed = verifyDigestSignature(digest as SignedDigest, values['allowed-signers']);
        report.signature = { ok: true, principal: signed.principal };
        notes.push(`it still extends the digest at seq ${digest.seq}, which is signed by ${signed.principal}`);
      } catch (error) {
        if (!(error instanceof SignatureError)) throw error;
        report.signature = { ok: false, reason: error.message };
        if (values.json) await writeOut(`${JSON.stringify({ ok: false, reason: error.message, ...report })}\n`);
        process.stderr.write(`droidwright: the digest does NOT verify: ${error.message}.\n`);
        return 1;
      }
    } else {
      notes.push(`it still extends the digest at seq ${digest.seq}`);
      if (digest.signature !== undefined) {
        notes.push('the digest carries a signature, not checked (pass --allowed-signers FILE)');
      }
    }
  }
  const options = runtimeOptions();
  // This machine's witness of the store in use (witness.jsonl for the default log; one file per other store).
  const witnessFile = values['no-witness']
    ? undefined
    : (values.witness ?? (values.file === undefined ? witnessPath(options.home, options.store) : undefined));
  if (witnessFile !== undefined) {
    let reading: ReturnType<typeof readWitness>;
    try {
      reading = readWitness(witnessFile);
    } catch (error) {
      throw new UsageError(`cannot read the witness ${witnessFile}: ${(error as Error).message}.`);
    }
    anchors.push(...reading.anchors);
    report.witness = { file: witnessFile, heads: reading.anchors.length, unreadable: reading.unreadable };
    if (reading.files.length === 0) {
      notes.push(`no witness file at ${witnessFile}`);
      if (values.file === undefined && store!.lastSeq() > 0) {
        process.stderr.write(
          `droidwright: warning: there is no witness file at ${witnessFile}, so a truncated or re-chained log cannot be detected (expected only for a log written before droidwright kept one, or copied without it).\n`,
        );
      }
    } else notes.push(`it contains all ${reading.anchors.length} head(s) recorded in the witness`);
    if (reading.unreadable > 0) {
      process.stderr.write(
        `droidwright: warning: ${reading.unreadable} line(s) of the witness are not witness entries and were skipped.\n`,
      );
    }
  }
  const result =
    values.file !== undefined
      ? verifyExportLines(fileLines(values.file), anchors)
      : store!.verify({ anchors, projections: values.projections === true, full: values.full === true });
  if (values.json) await writeOut(`${JSON.stringify({ ...result, ...report })}\n`);
  if (result.ok) {
    if (!values.json) {
      const what = values.file !== undefined ? `the export ${values.file}` : 'hash chain intact';
      const from = result.firstSeq !== undefined ? ` from seq ${result.firstSeq} (its prevHash taken as given)` : '';
      if (result.projections)
        notes.push(`the read models equal a replay of the log (${result.projections.join(', ')})`);
      const extra = notes.length > 0 ? `; ${notes.join('; ')}` : '';
      const form = values.file !== undefined ? 'every line as exported' : 'every row canonical';
      await writeOut(
        `ok: ${what}, ${result.checked} events checked${from} up to seq ${result.lastSeq}, ${form}${extra}.\n`,
      );
    }
    return 0;
  }
  const where = result.firstBadSeq !== undefined ? `is BROKEN at seq ${result.firstBadSeq}` : 'does NOT verify';
  const subject = values.file !== undefined ? `the export ${values.file}` : 'the event log';
  process.stderr.write(`droidwright: ${subject} ${where}: ${result.reason ?? 'hash mismatch'}.\n`);
  return 1;
}

async function digestCommand(store: EventStore, values: FlagValues<typeof eventsDigestFlags>): Promise<number> {
  if (values.key !== undefined && !values.sign)
    throw new UsageError('--key is the key to --sign with; pass --sign too.');
  const digest = store.digest();
  if (!values.sign) {
    await writeOut(`${JSON.stringify(digest)}\n`);
    return 0;
  }
  try {
    await writeOut(`${JSON.stringify(signDigest(digest, values.key ?? defaultSigningKey()))}\n`);
  } catch (error) {
    if (error instanceof SignatureError) throw new UsageError(error.message);
    throw error;
  }
  return 0;
}

async function exportEvents(store: EventStore, values: FlagValues<typeof eventsExportFlags>): Promise<number> {
  const selection = selectionFrom(store, values);
  const file = values.out ? createWriteStream(values.out, { flags: 'w' }) : undefined;
  const write = (text: string): Promise<void> =>
    file
      ? new Promise((resolve, reject) => file.write(text, (err) => (err ? reject(err) : resolve())))
      : writeOut(text);
  let after = 0;
  let count = 0;
  while (!selection.none) {
    const page = store.query({ ...selection.filter, afterSeq: after, order: 'asc', limit: SCAN_PAGE });
    if (page.length === 0) break;
    const chosen = selection.accept ? page.filter(selection.accept) : page;
    if (chosen.length > 0) await write(`${chosen.map(eventJson).join('\n')}\n`);
    count += chosen.length;
    after = page[page.length - 1]!.seq;
  }
  if (file) {
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    process.stderr.write(`Exported ${count} events to ${values.out}.\n`);
  }
  return 0;
}

async function trace(
  store: EventStore,
  { values, positionals }: CommandInput<typeof eventsTraceFlags>,
): Promise<number> {
  const [kind, id] = positionals as [string, string];
  if (!TRACE_KINDS.includes(kind as TraceKind)) {
    throw new UsageError(`"${kind}" is not something to trace: use install, build or session.`);
  }
  const result = traceOf(store, kind as TraceKind, id);
  await writeOut(values.json ? `${JSON.stringify(result)}\n` : renderTrace(result));
  return 0;
}

async function stats(store: EventStore, values: FlagValues<typeof eventsStatsFlags>): Promise<number> {
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

/** Runs `body` with the event log open; a filter or projection name the store refused came from the command line. */
function withStore(body: (store: EventStore) => Promise<number>): Promise<number> {
  return withContainer(runtimeOptions(), async (container) => {
    const store = container.get<EventStoreProvider>(EventStoreProvider)();
    try {
      return await body(store);
    } catch (error) {
      if (error instanceof EventQueryError) throw new UsageError(error.message);
      throw error;
    }
  });
}

export function runEventsList({ values }: CommandInput<typeof eventsListFlags>): Promise<number> {
  return withStore((store) => list(store, values, 50));
}

export function runEventsTail({ values }: CommandInput<typeof eventsListFlags>): Promise<number> {
  return withStore((store) => list(store, values, 10));
}

export function runEventsTrace(input: CommandInput<typeof eventsTraceFlags>): Promise<number> {
  return withStore((store) => trace(store, input));
}

export async function runEventsVerify({ values }: CommandInput<typeof eventsVerifyFlags>): Promise<number> {
  const checked = checkVerifyOptions(values);
  // An export is verified offline: no database is opened (or created).
  if (checked.file !== undefined) return verify(checked, undefined);
  return withStore((store) => verify(checked, store));
}

export function runEventsDigest({ values }: CommandInput<typeof eventsDigestFlags>): Promise<number> {
  return withStore((store) => digestCommand(store, values));
}

export function runEventsExport({ values }: CommandInput<typeof eventsExportFlags>): Promise<number> {
  return withStore((store) => exportEvents(store, values));
}

export function runEventsStats({ values }: CommandInput<typeof eventsStatsFlags>): Promise<number> {
  return withStore((store) => stats(store, values));
}

export function runEventsRebuild({ values, positionals }: CommandInput<typeof eventsRebuildFlags>): Promise<number> {
  return withStore(async (store) => {
    const result = store.rebuildProjections(positionals.length > 0 ? [...positionals] : undefined);
    await writeOut(
      values.json
        ? `${JSON.stringify(result)}\n`
        : `Rebuilt ${result.rebuilt.join(', ') || 'nothing'} from ${result.events} events.\n`,
    );
    return 0;
  });
}
