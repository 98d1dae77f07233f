import type { StoredEvent } from '../events/event-definition.js';
import type { EventStore } from '../events/event-store.js';
import { type Actor, describeActor } from '../shared/actor.js';
import { UsageError } from '../kernel/usage-error.js';

/** Most tool calls a session trace lists; the rest are counted (`events list --session` shows them all). */
export const MAX_TRACED_CALLS = 40;
const MAX_TRACED_INSTALLS = 20;
const MAX_SHOWN_BUILD_FILES = 8;
const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export type TraceKind = 'install' | 'build' | 'session';
export const TRACE_KINDS: readonly TraceKind[] = ['install', 'build', 'session'];

/**
 * The full session id for a prefix as `events list` prints it (`#1a2b3c4d`, with or without `#`).
 * Ambiguous or unknown prefixes are usage errors naming the candidates.
 */
export function resolveSession(store: EventStore, prefix: string): string | undefined {
  const wanted = prefix.replace(/^#/, '');
  if (!SESSION_ID.test(wanted)) {
    throw new UsageError(`--session ${JSON.stringify(prefix)} is not a session id (letters, digits, - _ . :).`);
  }
  // A range over the actor_session index: every id that starts with the prefix.
  const rows = store
    .prepareRead(
      'SELECT DISTINCT actor_session AS s FROM events WHERE actor_session >= ? AND actor_session < ? ORDER BY 1 LIMIT 6',
    )
    .all(wanted, `${wanted}\uffff`) as { s: string }[];
  if (rows.length > 1) {
    throw new UsageError(
      `Session prefix ${wanted} matches several sessions (${rows
        .slice(0, 5)
        .map((r) => r.s)
        .join(', ')}${rows.length > 5 ? ', …' : ''}); give more characters.`,
    );
  }
  return rows[0]?.s;
}

interface SessionFacts {
  session: string;
  client: string | null;
  client_version: string | null;
  pid: number | null;
  project_root: string | null;
  started_at: string | null;
  ended_at: string | null;
  end_reason: string | null;
}

interface CallFacts {
  seq: number;
  at: string;
  tool: string;
  outcome: string;
  error_code: string | null;
  duration_ms: number;
  summary: string;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function who(actor: Actor): {
  kind: string;
  client: string | null;
  session: string | null;
  pid: number;
  host: string | null;
} {
  // The host says where the pid lived: on a team's shared log the same pid is on many machines.
  return {
    kind: actor.kind,
    client: actor.client ?? null,
    session: actor.session ?? null,
    pid: actor.pid,
    host: actor.host ?? null,
  };
}

function sessionFacts(store: EventStore, session: string): SessionFacts {
  const stream = `mcp:${session}`;
  const [started] = store.query({ types: ['mcp.session_started'], stream, order: 'asc', limit: 1 });
  const [ended] = store.query({ types: ['mcp.session_ended'], stream, order: 'desc', limit: 1 });
  const d = started?.data as
    | { client_name: string | null; client_version: string | null; pid: number; project_root: string | null }
    | undefined;
  let client = d?.client_name ?? null;
  let pid = d?.pid ?? null;
  if (!started) {
    // The start was not recorded (the log was locked): the actor of any event of the session still says who.
    const [any] = store.query({ actorSession: session, order: 'asc', limit: 1 });
    client = any?.actor.client ?? null;
    pid = any?.actor.pid ?? null;
  }
  return {
    session,
    client,
    client_version: d?.client_version ?? null,
    pid,
    project_root: d?.project_root ?? null,
    started_at: started ? iso(started.at) : null,
    ended_at: ended ? iso(ended.at) : null,
    end_reason: ended ? (ended.data as { reason: string }).reason : null,
  };
}

function callFacts(event: StoredEvent): CallFacts {
  const d = event.data as {
    tool: string;
    outcome: string;
    error_code: string | null;
    duration_ms: number;
    summary: string;
  };
  return {
    seq: event.seq,
    at: iso(event.at),
    tool: d.tool,
    outcome: d.outcome,
    error_code: d.error_code,
    duration_ms: d.duration_ms,
    summary: d.summary,
  };
}

/** The tool call that recorded its outcome right after `event`, in the same session (calls are recorded when they end). */
function callThatDid(store: EventStore, event: StoredEvent, tool: string): CallFacts | null {
  if (!event.actor.session) return null;
  const calls = store.query({
    types: ['mcp.tool_called'],
    actorSession: event.actor.session,
    afterSeq: event.seq,
    order: 'asc',
    limit: 20,
  });
  const call = calls.find((c) => (c.data as { tool: string }).tool === tool);
  return call ? callFacts(call) : null;
}

interface BuildFacts {
  build_id: string;
  started_at: string;
  started_by: ReturnType<typeof who>;
  client: string | null;
  project_root: string;
  kind: string;
  tasks: string[];
  module: string | null;
  variant: string | null;
  provenance: {
    commit: string | null;
    branch: string | null;
    dirty: boolean | null;
    changed_files: number | null;
    gradle_version: string | null;
    jdk: string | null;
    build_files: { path: string; sha256: string }[];
  };
  outcome: {
    status: string;
    at: string;
    duration_ms: number | null;
    reason: string | null;
    apks: { path: string; sha256: string }[];
  } | null;
}

function buildFacts(store: EventStore, buildId: string): BuildFacts | null {
  const stream = `build:${buildId}`;
  const [started] = store.query({ types: ['build.started'], stream, order: 'asc', limit: 1 });
  if (!started) return null;
  const d = started.data as {
    project_root: string;
    kind: string;
    tasks: string[];
    module: string | null;
    variant: string | null;
    provenance: {
      git: { commit: string | null; branch: string | null; dirty: boolean | null; changed_files: number | null };
      build_files: { path: string; sha256: string }[];
      gradle_version: string | null;
      jdk: { version: string | null; java_home: string | null };
    };
  };
  const [end] = store.query({ types: ['build.finished', 'build.cancelled'], stream, order: 'desc', limit: 1 });
  let outcome: BuildFacts['outcome'] = null;
  if (end?.type === 'build.finished') {
    const f = end.data as {
      status: string;
      duration_ms: number;
      reason: string | null;
      apks: { path: string; sha256: string }[];
    };
    outcome = {
      status: f.status,
      at: iso(end.at),
      duration_ms: f.duration_ms,
      reason: f.reason,
      apks: f.apks.map((a) => ({ path: a.path, sha256: a.sha256 })),
    };
  } else if (end) {
    const c = end.data as { cancelled_by: string; via: string };
    outcome = {
      status: 'cancelled',
      at: iso(end.at),
      duration_ms: null,
      reason: `by ${c.cancelled_by} (${c.via})`,
      apks: [],
    };
  }
  return {
    build_id: buildId,
    started_at: iso(started.at),
    started_by: who(started.actor),
    client: started.actor.session ? sessionFacts(store, started.actor.session).client : null,
    project_root: d.project_root,
    kind: d.kind,
    tasks: d.tasks,
    module: d.module,
    variant: d.variant,
    provenance: {
      commit: d.provenance.git.commit,
      branch: d.provenance.git.branch,
      dirty: d.provenance.git.dirty,
      changed_files: d.provenance.git.changed_files,
      gradle_version: d.provenance.gradle_version,
      jdk: d.provenance.jdk.version,
      build_files: d.provenance.build_files,
    },
    outcome,
  };
}

interface InstallFacts {
  seq: number;
  at: string;
  device: string;
  package: string;
  version_code: number;
  version_name: string | null;
  apk_path: string;
  apk_sha256: string;
  build_id: string | null;
  installed_by: ReturnType<typeof who>;
}

function installFacts(event: StoredEvent): InstallFacts {
  const d = event.data as {
    device_serial: string;
    package: string;
    version_code: number;
    version_name: string | null;
    apk_path: string;
    apk_sha256: string;
    build_id: string | null;
  };
  return {
    seq: event.seq,
    at: iso(event.at),
    device: d.device_serial,
    package: d.package,
    version_code: d.version_code,
    version_name: d.version_name,
    apk_path: d.apk_path,
    apk_sha256: d.apk_sha256,
    build_id: d.build_id,
    installed_by: who(event.actor),
  };
}

/** Installs of one build: by the build's correlation, and by build_id for installs recorded without it. */
function installsOf(store: EventStore, buildId: string): InstallFacts[] {
  return store
    .query({ types: ['app.installed'], correlation: `build:${buildId}`, order: 'asc', limit: MAX_TRACED_INSTALLS })
    .map(installFacts);
}

function findInstall(store: EventStore, id: string): StoredEvent {
  let event: StoredEvent | undefined;
  if (/^\d+$/.test(id)) {
    event = store.query({ afterSeq: Number(id) - 1, beforeSeq: Number(id) + 1, limit: 1 })[0];
  } else if (/^[0-9a-f-]{36}$/i.test(id)) {
    const row = store.prepareRead('SELECT seq FROM events WHERE id = ?').get(id.toLowerCase()) as
      | { seq: number }
      | undefined;
    if (row) event = store.query({ afterSeq: row.seq - 1, beforeSeq: row.seq + 1, limit: 1 })[0];
  } else {
    // A package name: its newest install, on any device.
    event = store.query({ types: ['app.installed'], package: id, order: 'desc', limit: 1 })[0];
  }
  if (event?.type !== 'app.installed') {
    throw new UsageError(
      `No install ${id}: give the seq or event id of an app.installed event, or a package name for its newest install (droidwright events list --type app.installed).`,
    );
  }
  return event;
}

export type Trace =
  | {
      kind: 'install';
      install: InstallFacts;
      session: SessionFacts | null;
      call: CallFacts | null;
      build: BuildFacts | null;
      /** Whether the installed APK's SHA-256 is one the build recorded as its output (null: no build). */
      apk_from_build: boolean | null;
    }
  | { kind: 'build'; build: BuildFacts; session: SessionFacts | null; installs: InstallFacts[] }
  | { kind: 'session'; session: SessionFacts; calls: CallFacts[]; calls_total: number };

export function traceOf(store: EventStore, kind: TraceKind, id: string): Trace {
  switch (kind) {
    case 'install': {
      const event = findInstall(store, id);
      const install = installFacts(event);
      const build = install.build_id ? buildFacts(store, install.build_id) : null;
      return {
        kind,
        install,
        session: event.actor.session ? sessionFacts(store, event.actor.session) : null,
        call: callThatDid(store, event, 'install_apk'),
        build,
        apk_from_build: build?.outcome ? build.outcome.apks.some((a) => a.sha256 === install.apk_sha256) : null,
      };
    }
    case 'build': {
      const build = buildFacts(store, id);
      if (!build) {
        throw new UsageError(`No build ${id} in the log (droidwright events list --type build.started lists them).`);
      }
      return {
        kind,
        build,
        session: build.started_by.session ? sessionFacts(store, build.started_by.session) : null,
        installs: installsOf(store, id),
      };
    }
    case 'session': {
      const session = resolveSession(store, id);
      if (!session)
        throw new UsageError(`No session ${id} in the log (droidwright events list --type mcp.* lists them).`);
      const filter = { types: ['mcp.tool_called'], actorSession: session };
      const calls = store.query({ ...filter, order: 'asc', limit: MAX_TRACED_CALLS }).map(callFacts);
      const total = (
        store
          .prepareRead(`SELECT count(*) AS n FROM events WHERE actor_session = ? AND type = 'mcp.tool_called'`)
          .get(session) as { n: number }
      ).n;
      return { kind, session: sessionFacts(store, session), calls, calls_total: total };
    }
  }
}

function short(hash: string): string {
  return hash.slice(0, 12);
}

function sessionLine(s: SessionFacts | null, indent = '  '): string[] {
  if (!s) return [`${indent}session: none (not an MCP client)`];
  const client = `${s.client ?? 'unknown client'}${s.client_version ? ` ${s.client_version}` : ''}`;
  const lines = [`${indent}client:  ${client}, session #${s.session.slice(0, 8)} (${s.session}), pid ${s.pid ?? '?'}`];
  if (s.project_root) lines.push(`${indent}project: ${s.project_root}`);
  const span = `${s.started_at ?? 'start not recorded'} .. ${s.ended_at ? `${s.ended_at} (${s.end_reason})` : 'no end recorded'}`;
  lines.push(`${indent}session: ${span}`);
  return lines;
}

function buildLines(b: BuildFacts, indent = '  '): string[] {
  const p = b.provenance;
  const dirty = p.dirty === null ? 'unknown' : p.dirty ? `dirty, ${p.changed_files ?? '?'} changed file(s)` : 'clean';
  const lines = [
    `${indent}build ${b.build_id}: ${b.kind} ${b.tasks.join(' ')}${b.variant ? ` (variant ${b.variant})` : ''} in ${b.project_root}`,
    `${indent}  started ${b.started_at} by ${describeActor(actorOf(b.started_by))}`,
    `${indent}  sources: commit ${p.commit ?? 'unknown'}${p.branch ? ` on ${p.branch}` : ''}, ${dirty}; Gradle ${p.gradle_version ?? '?'}, JDK ${p.jdk ?? '?'}`,
    `${indent}  build files (${p.build_files.length}): ${
      p.build_files
        .slice(0, MAX_SHOWN_BUILD_FILES)
        .map((f) => `${f.path} ${short(f.sha256)}`)
        .join(', ') || 'none'
    }${p.build_files.length > MAX_SHOWN_BUILD_FILES ? ', …' : ''}`,
  ];
  const o = b.outcome;
  lines.push(
    o
      ? `${indent}  outcome: ${o.status} at ${o.at}${o.duration_ms !== null ? ` after ${(o.duration_ms / 1000).toFixed(1)} s` : ''}${o.reason ? ` (${o.reason})` : ''}${o.apks.length > 0 ? `; APKs: ${o.apks.map((a) => `${a.path} ${short(a.sha256)}`).join(', ')}` : ''}`
      : `${indent}  outcome: still running, or its end was never recorded`,
  );
  return lines;
}

function actorOf(w: ReturnType<typeof who>): Actor {
  return {
    kind: w.kind as Actor['kind'],
    pid: w.pid,
    ...(w.client ? { client: w.client } : {}),
    ...(w.session ? { session: w.session } : {}),
    ...(w.host ? { host: w.host } : {}),
  };
}

function installLine(i: InstallFacts): string {
  return `seq ${i.seq} ${i.at}: ${i.package} ${i.version_name ?? ''} (${i.version_code}) on ${i.device} by ${describeActor(actorOf(i.installed_by))}, APK ${i.apk_path} ${short(i.apk_sha256)}`;
}

function callLine(c: CallFacts): string {
  return `${String(c.seq).padStart(6)}  ${c.at}  ${c.tool.padEnd(24)} ${c.outcome}${c.error_code ? ` ${c.error_code}` : ''} ${c.duration_ms} ms  ${c.summary.length > 100 ? `${c.summary.slice(0, 97)}...` : c.summary}`;
}

/** One screen of text answering who did what, on which device, from which sources. */
export function renderTrace(trace: Trace): string {
  const lines: string[] = [];
  switch (trace.kind) {
    case 'install': {
      const i = trace.install;
      lines.push(`install ${installLine(i)}`);
      lines.push(...sessionLine(trace.session));
      if (trace.call) lines.push(`  call:    ${callLine(trace.call).trim()}`);
      if (trace.build) {
        lines.push(...buildLines(trace.build));
        if (trace.apk_from_build !== null) {
          lines.push(
            trace.apk_from_build
              ? '  the installed APK (SHA-256) is an output this build recorded'
              : "  the installed APK's SHA-256 is NOT among the APKs this build recorded",
          );
        }
      } else
        lines.push(
          i.build_id
            ? `  build ${i.build_id}: not in this log`
            : '  build:   none recorded (the APK matched no build.finished)',
        );
      break;
    }
    case 'build': {
      lines.push(...buildLines(trace.build, ''));
      lines.push(...sessionLine(trace.session));
      lines.push(`  installs (${trace.installs.length}${trace.installs.length === MAX_TRACED_INSTALLS ? '+' : ''}):`);
      for (const i of trace.installs) lines.push(`    ${installLine(i)}`);
      if (trace.installs.length === 0) lines.push('    none recorded');
      break;
    }
    case 'session': {
      lines.push(`session #${trace.session.session.slice(0, 8)}`);
      lines.push(...sessionLine(trace.session));
      lines.push(`  calls (${trace.calls_total}):`);
      for (const c of trace.calls) lines.push(`  ${callLine(c)}`);
      if (trace.calls_total > trace.calls.length) {
        lines.push(
          `  … ${trace.calls_total - trace.calls.length} more: droidwright events list --session ${trace.session.session.slice(0, 8)} --type mcp.tool_called`,
        );
      }
      break;
    }
  }
  return `${lines.join('\n')}\n`;
}
