import { readFileSync, writeFileSync } from 'node:fs';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { isToolError } from '../kernel/errors.js';
import { UsageError } from '../kernel/usage-error.js';
import { BundleError, exportBundle, verifyBundle } from '../plugins/core/services/debug-session-bundle.js';
import {
  DEBUG_SESSION_STATES,
  type DebugSessionState,
  DebugSessionReader,
} from '../plugins/core/services/debug-session-reader.js';
import { describeInstaller, sessionLine } from '../plugins/core/tools/debug-session-fields.js';
import { runtimeOptions, withContainer, writeOut } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type {
  sessionsExportFlags,
  sessionsListFlags,
  sessionsShowFlags,
  sessionsVerifyFlags,
} from './command-specs.js';

function parseLimit(text: string | undefined, fallback: number, max: number, flag: string): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new UsageError(`${flag} must be a number from 1 to ${max}.`);
  return Number(text);
}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** Runs `body` with the debug-session reader; an unknown or pruned id or a bad bundle came from this command line. */
async function withSessions(
  body: (reader: DebugSessionReader, store: () => ReturnType<EventStoreProvider>) => Promise<number>,
): Promise<number> {
  return withContainer(runtimeOptions(), async (container) => {
    try {
      return await body(container.get(DebugSessionReader), () =>
        container.get<EventStoreProvider>(EventStoreProvider)(),
      );
    } catch (error) {
      if (isToolError(error) || error instanceof BundleError) throw new UsageError(error.message);
      throw error;
    }
  });
}

export async function runSessionsList({ values }: CommandInput<typeof sessionsListFlags>): Promise<number> {
  if (values.state !== undefined && !DEBUG_SESSION_STATES.includes(values.state as DebugSessionState))
    throw new UsageError(`--state must be one of ${DEBUG_SESSION_STATES.join(', ')}.`);
  const limit = parseLimit(values.limit, 20, 1000, '--limit');
  return withSessions(async (reader) => {
    const { sessions, total } = reader.list({
      limit,
      ...(values.package ? { package: values.package } : {}),
      ...(values.device ? { device_serial: values.device } : {}),
      ...(values.state ? { state: values.state as DebugSessionState } : {}),
      ...(values.crashing ? { only_crashing: true } : {}),
    });
    if (values.json) await writeOut(`${JSON.stringify({ sessions, total })}\n`);
    else if (sessions.length === 0) await writeOut('No debug sessions.\n');
    else
      await writeOut(
        `${sessions.map((s) => `${iso(s.installed_at)}  ${sessionLine(s)}`).join('\n')}\n${total > sessions.length ? `(${total - sessions.length} more; --limit)\n` : ''}`,
      );
    return 0;
  });
}

export async function runSessionsExport({
  values,
  positionals,
}: CommandInput<typeof sessionsExportFlags>): Promise<number> {
  const id = positionals[0]!;
  return withSessions(async (reader, store) => {
    reader.get(id);
    const log = store();
    const bundle = exportBundle(log, id, log.digest());
    const out = values.out ?? `${id}.json`;
    writeFileSync(out, `${JSON.stringify(bundle, null, 1)}\n`);
    process.stderr.write(
      `Exported ${id} (${bundle.events.length} events, chain head seq ${bundle.chain.seq}) to ${out}.\n`,
    );
    return 0;
  });
}

export async function runSessionsVerify({
  values,
  positionals,
}: CommandInput<typeof sessionsVerifyFlags>): Promise<number> {
  const file = positionals[0]!;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  return withSessions(async (_reader, store) => {
    const verdict = verifyBundle(store(), parsed);
    if (values.json) await writeOut(`${JSON.stringify(verdict)}\n`);
    else if (verdict.ok)
      await writeOut(
        `The bundle verifies: ${verdict.checked.events} events are in the log with these hashes, the session and its ${verdict.checked.timeline_rows} timeline rows follow from them, build log: ${verdict.checked.build_log}.\n`,
      );
    else
      process.stderr.write(
        `droidwright: the bundle does NOT verify:\n${verdict.problems.map((p) => `  - ${p}`).join('\n')}\n`,
      );
    return verdict.ok ? 0 : 1;
  });
}

export async function runSessionsShow({
  values,
  positionals,
}: CommandInput<typeof sessionsShowFlags>): Promise<number> {
  const id = positionals[0]!;
  const max = parseLimit(values.events, 50, 5000, '--events');
  return withSessions((reader) => show(reader, id, max, values.json === true));
}

async function show(reader: DebugSessionReader, id: string, max: number, json: boolean): Promise<number> {
  const session = reader.get(id);
  const timeline = reader.timeline(id, { max });
  const crashes = reader.crashes(id);
  if (json) {
    await writeOut(`${JSON.stringify({ session, crashes, timeline })}\n`);
    return 0;
  }
  const b = session.build;
  const git = b?.provenance?.git;
  const lines = [
    sessionLine(session),
    `installed ${iso(session.installed_at)} by ${describeInstaller(session.installed_by)}; APK ${session.apk_path} (sha256 ${session.apk_sha256.slice(0, 16)}…)`,
    ...(session.ended_at !== null
      ? [
          `${session.state} ${iso(session.ended_at)}${session.superseded_by ? ` by ${session.superseded_by}` : ''}${session.end_reason ? `: ${session.end_reason}` : ''}`,
        ]
      : []),
    b
      ? `build ${b.build_id} ${b.tasks.join(' ')} (${b.status ?? 'running'})${git?.commit ? ` at ${git.commit.slice(0, 12)}${git.branch ? ` on ${git.branch}` : ''}${git.dirty ? ', uncommitted changes' : ''}` : ''}${b.mapping ? `, mapping ${b.mapping.sha256.slice(0, 16)}…` : ''}`
      : 'build: not recorded by droidwright',
    ...crashes.flatMap((c) => [
      `crash seq ${c.seq} ${iso(c.at)} ${c.kind}: ${c.title}${c.verified ? ' (verified)' : ''}`,
      `  ${c.attribution}`,
      ...c.lines.slice(0, 20).map((l) => `  | ${l}`),
    ]),
    'timeline (newest first):',
    ...timeline.entries.map((e) => `  ${String(e.seq).padStart(6)} ${iso(e.at)} ${e.category.padEnd(12)} ${e.summary}`),
    ...(timeline.has_more ? ['  … (--events N for more)'] : []),
  ];
  await writeOut(`${lines.join('\n')}\n`);
  return 0;
}
