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
import { parseCommandLine, runtimeOptions, withContainer, writeOut } from './cli-support.js';

export const SESSIONS_HELP = `Usage: droidwright sessions <command> [options]

  list            Debug sessions (one per install), newest first   [--package ID] [--device SERIAL]
                                                                   [--state open|idle|superseded|ended]
                                                                   [--crashing] [--limit N] [--json]
  show <id>       One session: build, crashes, timeline            [--events N] [--json]
  export <id>     Write a bundle an auditor can verify against the log   [--out FILE] (default: <id>.json)
  verify <file>   Check a bundle against the log: hashes, chain head, the session re-derived from its
                  events, the build log; exit 1 naming what does not hold   [--json]`;

function parseLimit(text: string | undefined, fallback: number, max: number, flag: string): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new UsageError(`${flag} must be a number from 1 to ${max}.`);
  return Number(text);
}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

export async function runSessionsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(`${SESSIONS_HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  const known = ['list', 'show', 'export', 'verify'];
  if (!known.includes(sub)) throw new UsageError(`Unknown sessions command "${sub}". Use one of: ${known.join(', ')}.`);
  if (rest.includes('--help') || rest.includes('-h')) {
    await writeOut(`${SESSIONS_HELP}\n`);
    return 0;
  }
  return withContainer(runtimeOptions(), async (container) => {
    const reader = container.get(DebugSessionReader);
    const store = () => container.get<EventStoreProvider>(EventStoreProvider)();
    try {
      switch (sub) {
        case 'list':
          return await list(reader, rest);
        case 'show':
          return await show(reader, rest);
        case 'export': {
          const { values, positionals } = parseCommandLine(rest, { out: { type: 'string', short: 'o' } });
          const id = onePositional(positionals, 'export <session-id>');
          reader.get(id);
          const log = store();
          const bundle = exportBundle(log, id, log.digest());
          const out = values.out ?? `${id}.json`;
          writeFileSync(out, `${JSON.stringify(bundle, null, 1)}\n`);
          process.stderr.write(
            `Exported ${id} (${bundle.events.length} events, chain head seq ${bundle.chain.seq}) to ${out}.\n`,
          );
          return 0;
        }
        default: {
          const { values, positionals } = parseCommandLine(rest, { json: { type: 'boolean' } });
          const file = onePositional(positionals, 'verify <bundle-file>');
          let parsed: unknown;
          try {
            parsed = JSON.parse(readFileSync(file, 'utf8'));
          } catch (error) {
            throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
          }
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
        }
      }
    } catch (error) {
      // An unknown or pruned id came from this command line.
      if (isToolError(error) || error instanceof BundleError) throw new UsageError(error.message);
      throw error;
    }
  });
}

function onePositional(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`Usage: droidwright sessions ${usage}`);
  return positionals[0]!;
}

async function list(reader: DebugSessionReader, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      package: { type: 'string' },
      device: { type: 'string' },
      state: { type: 'string' },
      crashing: { type: 'boolean' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    false,
  );
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}.`);
  if (values.state !== undefined && !DEBUG_SESSION_STATES.includes(values.state as DebugSessionState))
    throw new UsageError(`--state must be one of ${DEBUG_SESSION_STATES.join(', ')}.`);
  const { sessions, total } = reader.list({
    limit: parseLimit(values.limit, 20, 1000, '--limit'),
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
}

async function show(reader: DebugSessionReader, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { events: { type: 'string' }, json: { type: 'boolean' } });
  const id = onePositional(positionals, 'show <session-id>');
  const session = reader.get(id);
  const timeline = reader.timeline(id, { max: parseLimit(values.events, 50, 5000, '--events') });
  const crashes = reader.crashes(id);
  if (values.json) {
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
