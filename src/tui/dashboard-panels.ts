import type { StoredLogLine } from '../plugins/logcat/services/log-line-store.js';
import type {
  ActivityRow,
  BuildRow,
  CrashGroup,
  CrashGroupDetail,
  DashboardSnapshot,
  DeviceRow,
  DiagnosticRow,
  SessionRow,
  ToolKind,
} from './dashboard-model.js';
import type { DebugSessionSummary } from '../plugins/core/services/debug-session-reader.js';
import { thisHost } from '../shared/actor.js';
import type { DebugSessionSource, SharedRunConfigurationsState } from './dashboard-sources.js';
import { ago, clock, duration, type Line, pad, padStart, type Segment } from './screen-text.js';

export const PANELS = ['activity', 'builds', 'devices', 'crashes', 'sessions', 'logcat'] as const;
export type PanelId = (typeof PANELS)[number];
export const PANEL_TITLES: Record<PanelId, string> = {
  activity: 'Activity',
  builds: 'Builds',
  devices: 'Devices',
  crashes: 'Crashes',
  sessions: 'Sessions',
  logcat: 'Logcat',
};

/** A selectable row of a panel, and what Enter shows for it. */
export interface PanelItem {
  readonly key: string;
  readonly line: Line;
  detail(): Line[];
  /** What the row is about, for the panel's keys (c cancels a running build, l toggles a device's logcat). */
  readonly build?: BuildRow;
  readonly device?: DeviceRow;
}

const DEBUG_STATE_COLORS: Record<string, string> = { open: 'green', idle: 'yellow', superseded: 'gray', ended: 'gray' };
const RUN_CONFIG_STATUS: Record<SharedRunConfigurationsState['status'], string> = {
  none: 'no shared file',
  approved: 'approved',
  not_approved: 'NOT APPROVED (a approves)',
  stale: 'CHANGED since approved (a approves)',
  invalid: 'invalid',
};

export interface PanelView {
  /** Column titles or a status line above the rows. */
  readonly heading: Line[];
  readonly items: PanelItem[];
  /** Shown when there are no items. */
  readonly empty: string;
}

export interface PanelContext {
  readonly snapshot: DashboardSnapshot;
  readonly filter: string;
  readonly width: number;
  diagnostics(buildId: string): DiagnosticRow[];
  crashDetail(group: CrashGroup): CrashGroupDetail;
  /** A debug session's timeline and crashes, when the read model is there. */
  readonly debugSessions?: DebugSessionSource;
  readonly logcat: LogcatPanelState;
}

export interface LogcatPanelState {
  /** False when no line store was wired in. */
  readonly available: boolean;
  readonly deviceSerial: string | null;
  /** Devices to switch between with `d`: connected ones, then those the store holds lines for. */
  readonly devices: readonly string[];
  /** Oldest first, as a tail shows them. */
  readonly lines: readonly StoredLogLine[];
  readonly running: boolean | null;
  /** `mine` (the project's apps), `all`, or the package a `pkg:` filter names. */
  readonly packages: string;
  /** False while the list is held still (a row was selected); G follows the tail again. */
  readonly following: boolean;
  readonly note: string | null;
  readonly error: string | null;
}

const KIND_COLORS: Record<ToolKind, string> = { R: 'cyan', W: 'yellow', D: 'red', O: 'magenta' };
const OUTCOME_COLORS: Record<string, string> = {
  ok: 'green',
  error: 'red',
  refused: 'red',
  cancelled: 'yellow',
  running: 'blue',
};
const STATUS_COLORS: Record<string, string> = {
  running: 'blue',
  success: 'green',
  failed: 'red',
  cancelled: 'yellow',
  timed_out: 'red',
};
/** pidcat's palette: each level a badge on its own background, each tag a stable color of its own. */
const LEVEL_BADGES: Record<string, { color: string; background: string }> = {
  V: { color: 'black', background: 'white' },
  D: { color: 'black', background: 'cyan' },
  I: { color: 'black', background: 'green' },
  W: { color: 'black', background: 'yellow' },
  E: { color: 'white', background: 'red' },
  F: { color: 'white', background: 'red' },
  A: { color: 'white', background: 'red' },
};
const TAG_COLORS = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'redBright', 'greenBright', 'yellowBright'];
const MESSAGE_COLORS: Record<string, string> = { W: 'yellow', E: 'red', F: 'red', A: 'red' };

function tagColor(tag: string): string {
  let h = 0;
  for (let i = 0; i < tag.length; i++) h = (h * 31 + tag.charCodeAt(i)) >>> 0;
  return TAG_COLORS[h % TAG_COLORS.length]!;
}

export function panelView(panel: PanelId, ctx: PanelContext): PanelView {
  switch (panel) {
    case 'activity':
      return activityPanel(ctx);
    case 'builds':
      return buildsPanel(ctx);
    case 'devices':
      return devicesPanel(ctx);
    case 'crashes':
      return crashesPanel(ctx);
    case 'sessions':
      return sessionsPanel(ctx);
    case 'logcat':
      return logcatPanel(ctx);
  }
}

// ------------------------------------------------------------------ filter

/**
 * `/` filters: `client:x`, `tool:x`, `outcome:x` (also `kind:`, `level:`, `pkg:`) match that field by
 * substring; bare words must appear somewhere in the row. Case-insensitive; all terms must match.
 */
export function matchesFilter(filter: string, fields: Record<string, string | null | undefined>): boolean {
  const terms = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return true;
  const all = Object.values(fields)
    .map((v) => (v ?? '').toLowerCase())
    .join(' ');
  return terms.every((term) => {
    const colon = term.indexOf(':');
    if (colon > 0) {
      const key = term.slice(0, colon);
      if (key in fields) return (fields[key] ?? '').toLowerCase().includes(term.slice(colon + 1));
    }
    return all.includes(term);
  });
}

// ------------------------------------------------------------------ activity

function activityPanel(ctx: PanelContext): PanelView {
  const wide = ctx.width >= 100;
  const clientWidth = wide ? 14 : 10;
  const toolWidth = wide ? 24 : 18;
  const rows = ctx.snapshot.activity.filter((row) =>
    matchesFilter(ctx.filter, {
      client: row.client,
      tool: row.tool,
      outcome: row.outcome,
      kind: row.kind,
      code: row.errorCode,
      summary: row.summary,
    }),
  );
  return {
    heading: [
      [
        {
          text: `${pad('time', 9)}${pad('client', clientWidth + 1)}${pad('tool', toolWidth + 1)}K ${pad('outcome', 9)}${padStart('took', 6)} summary`,
          dim: true,
        },
      ],
    ],
    empty: ctx.filter
      ? `No tool call matches "${ctx.filter}".`
      : 'No tool calls yet: they appear here as agents make them.',
    items: rows.map((row) => ({
      key: `call:${row.seq}`,
      line: activityLine(row, clientWidth, toolWidth),
      detail: () => activityDetail(row),
    })),
  };
}

function activityLine(row: ActivityRow, clientWidth: number, toolWidth: number): Line {
  const refused = row.outcome === 'refused';
  const outcome: Segment = refused
    ? { text: pad('REFUSED', 8), color: 'red', bold: true, inverse: true }
    : { text: pad(row.outcome, 8), color: OUTCOME_COLORS[row.outcome] };
  return [
    { text: `${clock(row.at)} `, dim: true },
    { text: `${pad(row.client, clientWidth)} ` },
    { text: `${pad(row.tool, toolWidth)} `, bold: refused },
    row.kind ? { text: row.kind, color: KIND_COLORS[row.kind], bold: true } : { text: '?', dim: true },
    { text: ' ' },
    outcome,
    { text: ` ${padStart(row.outcome === 'running' ? '…' : duration(row.durationMs), 6)} ` },
    {
      text: row.errorCode ? `${row.errorCode}: ${row.summary}` : row.summary,
      color: refused || row.outcome === 'error' ? 'red' : undefined,
    },
  ];
}

function activityDetail(row: ActivityRow): Line[] {
  return [
    [{ text: `${row.tool}`, bold: true }, { text: `  (${row.kind ?? '?'})  seq ${row.seq}` }],
    [{ text: `client   ${row.client}  session ${row.session}` }],
    [{ text: `at       ${new Date(row.at).toISOString()}` }],
    [
      { text: 'outcome  ' },
      { text: row.outcome, color: OUTCOME_COLORS[row.outcome], bold: true },
      { text: row.errorCode ? `  ${row.errorCode}` : '' },
      { text: row.durationMs !== null ? `  in ${duration(row.durationMs)}` : '' },
    ],
    [],
    ...wrap(row.summary || '(no summary)', 200).map((text) => [{ text }]),
  ];
}

// ------------------------------------------------------------------ builds

function buildsPanel(ctx: PanelContext): PanelView {
  const { now, builds } = ctx.snapshot;
  const running = builds.filter((b) => b.status === 'running');
  const heading: Line[] = running.length
    ? running.map((b) => [
        { text: '▶ ', color: 'blue', bold: true },
        { text: `${b.id} `, bold: true },
        { text: `${b.tasks}  ` },
        { text: b.currentTask ? `> ${b.currentTask}` : '> (starting)', color: 'cyan' },
        { text: `  ${duration(now - b.startedAt)}  by ${b.startedBy}`, dim: true },
      ])
    : [[{ text: 'No build running.', dim: true }]];
  const rows = builds.filter((b) =>
    matchesFilter(ctx.filter, { id: b.id, status: b.status, tasks: b.tasks, by: b.startedBy, kind: b.kind }),
  );
  return {
    heading: [
      ...heading,
      [{ text: `${pad('started', 9)}${pad('status', 10)}${padStart('took', 7)}  E/W    tasks · by`, dim: true }],
    ],
    empty: ctx.filter ? `No build matches "${ctx.filter}".` : 'No builds of this project yet.',
    items: rows.map((b) => ({
      key: `build:${b.id}`,
      build: b,
      line: [
        { text: `${clock(b.startedAt)} `, dim: true },
        { text: pad(b.status, 10), color: STATUS_COLORS[b.status], bold: b.status !== 'success' },
        {
          text: `${padStart(b.status === 'running' ? duration(now - b.startedAt) : duration(b.durationMs), 7)}  `,
        },
        { text: pad(`${b.errors}/${b.warnings}`, 6), color: b.errors > 0 ? 'red' : undefined },
        { text: ` ${b.tasks}` },
        { text: ` · ${b.startedBy}`, dim: true },
      ],
      detail: () => buildDetail(b, ctx),
    })),
  };
}

function buildDetail(b: BuildRow, ctx: PanelContext): Line[] {
  const lines: Line[] = [
    [
      { text: `Build ${b.id}`, bold: true },
      { text: `  ${b.kind}  ` },
      { text: b.status, color: STATUS_COLORS[b.status], bold: true },
    ],
    [{ text: `tasks    ${b.tasks}` }],
    [{ text: `started  ${new Date(b.startedAt).toISOString()} by ${b.startedBy}` }],
  ];
  if (b.status === 'running') {
    lines.push([{ text: 'now      ' }, { text: b.currentTask ? `> ${b.currentTask}` : '(starting)', color: 'cyan' }]);
    lines.push([{ text: `elapsed  ${duration(ctx.snapshot.now - b.startedAt)}   (c: cancel this build)` }]);
  } else lines.push([{ text: `took     ${duration(b.durationMs)}` }]);
  if (b.reason) lines.push([{ text: `reason   ${b.reason}` }]);
  if (b.cancelledBy) lines.push([{ text: `cancelled by ${b.cancelledBy}` }]);
  const diagnostics = b.errors + b.warnings > 0 ? ctx.diagnostics(b.id) : [];
  if (diagnostics.length > 0) {
    lines.push([], [{ text: `Diagnostics (${b.errors} errors, ${b.warnings} warnings)`, bold: true }]);
    for (const d of diagnostics) {
      const where = d.file ? `${d.file}${d.line !== null ? `:${d.line}` : ''}${d.col !== null ? `:${d.col}` : ''}` : '';
      lines.push([
        {
          text: `${d.severity === 'error' ? 'e' : d.severity === 'warning' ? 'w' : 'i'} `,
          color: d.severity === 'error' ? 'red' : 'yellow',
          bold: true,
        },
        { text: where ? `${where}  ` : '', color: 'cyan' },
        { text: d.message },
      ]);
    }
  }
  return lines;
}

// ------------------------------------------------------------------ devices

function devicesPanel(ctx: PanelContext): PanelView {
  const items: PanelItem[] = [];
  for (const device of ctx.snapshot.devices) {
    const installed = device.installed.filter((i) =>
      matchesFilter(ctx.filter, { pkg: i.package, serial: device.serial, by: i.installedBy }),
    );
    if (
      ctx.filter &&
      installed.length === 0 &&
      !matchesFilter(ctx.filter, { serial: device.serial, model: device.model })
    )
      continue;
    const running = ctx.logcat.deviceSerial === device.serial ? ctx.logcat.running : null;
    items.push({
      key: `device:${device.serial}`,
      device,
      line: [
        { text: device.connected ? '● ' : '○ ', color: device.connected ? 'green' : 'gray' },
        { text: `${pad(device.serial, 20)} `, bold: true },
        { text: pad(device.state, 13), color: device.state === 'device' ? 'green' : 'yellow' },
        { text: `${pad(device.model ?? '', 18)} API ${device.apiLevel ?? '?'}` },
        { text: device.lastLaunched ? `  ▸ ${device.lastLaunched}` : '', color: 'cyan' },
        { text: running === true ? '  logcat on' : '', dim: true },
      ],
      detail: () => deviceDetail(device),
    });
    for (const app of installed) {
      items.push({
        key: `installed:${device.serial}:${app.package}`,
        device,
        line: [
          { text: '    ' },
          { text: `${pad(app.package, 30)} ` },
          { text: pad(app.versionName ?? String(app.versionCode), 10), dim: true },
          {
            text: app.buildId
              ? ` build ${app.buildId}${app.variant ? ` (${app.variant})` : ''}`
              : ' (not from a build here)',
          },
          { text: ` · ${app.installedBy} ${clock(app.installedAt)}`, dim: true },
        ],
        detail: () => deviceDetail(device),
      });
    }
  }
  return {
    heading: [
      [{ text: 'Devices as the log last saw them (list_devices records changes); ▸ last launched app', dim: true }],
    ],
    empty: ctx.filter ? `No device or app matches "${ctx.filter}".` : 'No devices recorded yet.',
    items,
  };
}

function deviceDetail(device: DeviceRow): Line[] {
  return [
    [
      { text: device.serial, bold: true },
      { text: `  ${device.state}  ${device.model ?? ''}  API ${device.apiLevel ?? '?'}` },
    ],
    [{ text: `last launched: ${device.lastLaunched ?? '-'}` }],
    [],
    [{ text: 'Installed builds', bold: true }],
    ...(device.installed.length === 0
      ? [[{ text: '(none recorded)', dim: true }]]
      : device.installed.map((app) => [
          { text: `${app.package} ${app.versionName ?? ''} (${app.versionCode})` },
          { text: app.buildId ? `  build ${app.buildId} ${app.variant ?? ''}` : '  (no build of ours)' },
          { text: `  by ${app.installedBy} at ${new Date(app.installedAt).toISOString()}`, dim: true },
        ])),
  ];
}

// ------------------------------------------------------------------ crashes

const CRASH_LABEL: Record<CrashGroup['kind'], string> = { java: 'JAVA', native: 'NATIVE', anr: 'ANR' };

function crashesPanel(ctx: PanelContext): PanelView {
  const groups = ctx.snapshot.crashes.filter((g) =>
    matchesFilter(ctx.filter, { pkg: g.package, title: g.title, type: CRASH_LABEL[g.kind], device: g.lastDevice }),
  );
  return {
    heading: [[{ text: `${padStart('n', 4)} ${pad('type', 7)}${pad('package', 24)} last      what`, dim: true }]],
    empty: ctx.filter ? `No crash group matches "${ctx.filter}".` : 'No crashes recorded.',
    items: groups.map((g) => ({
      key: `crash:${g.groupId}`,
      line: [
        { text: `${padStart(String(g.count), 4)} `, bold: true },
        { text: pad(CRASH_LABEL[g.kind], 7), color: g.kind === 'anr' ? 'yellow' : 'red', bold: true },
        { text: pad(g.package ?? '?', 24) },
        { text: ` ${clock(g.lastAt)}  `, dim: true },
        { text: g.title },
      ],
      detail: () => crashDetail(g, ctx.crashDetail(g)),
    })),
  };
}

function crashDetail(g: CrashGroup, detail: CrashGroupDetail): Line[] {
  return [
    [{ text: `${CRASH_LABEL[g.kind]} ${g.package ?? ''}`, bold: true }, { text: `  ×${g.count}  group ${g.groupId}` }],
    [
      {
        text: `first ${new Date(g.firstAt).toISOString()}  last ${new Date(g.lastAt).toISOString()} (seq ${g.lastSeq})`,
      },
    ],
    [{ text: `devices ${detail.devices.join(', ')}` }],
    ...(detail.builds.length > 0
      ? [
          [
            {
              text: `builds  ${detail.builds
                .map(
                  (b) =>
                    `${b.buildId ?? `versionCode ${b.versionCode}`}${b.variant ? ` (${b.variant})` : ''} ×${b.crashes}`,
                )
                .join(', ')}`,
            },
          ],
        ]
      : []),
    [{ text: g.title, color: 'red' }],
    [],
    ...detail.lines.map((text) => [{ text }]),
  ];
}

// ------------------------------------------------------------------ sessions

function sessionsPanel(ctx: PanelContext): PanelView {
  const { sessions, now, activity, debugSessions, runConfigurations } = ctx.snapshot;
  const debug = debugSessions.filter((d) =>
    matchesFilter(ctx.filter, {
      pkg: d.package,
      device: d.device_serial,
      state: d.state,
      build: d.build_id,
      session: d.session_id,
    }),
  );
  const mcp = sessions.filter((s) => matchesFilter(ctx.filter, { client: s.client, session: s.session }));
  const heading: Line[] = [];
  if (runConfigurations) heading.push(runConfigurationsLine(runConfigurations));
  heading.push(
    ctx.debugSessions
      ? [
          {
            text: `${pad('debug session', 14)}${pad('state', 11)}${pad('package', 22)}${pad('device', 15)}${padStart('launch', 6)} ${padStart('crash', 5)}  build · installed`,
            dim: true,
          },
        ]
      : [{ text: 'Debug sessions are not recorded by this build; MCP sessions connected now:', dim: true }],
  );
  const items: PanelItem[] = debug.map((d) => ({
    key: `debug:${d.session_id}`,
    line: debugSessionLine(d, now),
    detail: () => debugSessionDetail(d, ctx),
  }));
  for (const s of mcp)
    items.push({
      key: `session:${s.session}`,
      line: sessionLine(s, now),
      detail: () => [
        [
          { text: `${s.client} ${s.clientVersion ?? ''}`, bold: true },
          { text: `  MCP session ${s.session}  pid ${s.pid}${s.host ? ` on ${s.host}` : ''}` },
        ],
        [
          {
            text: `started ${new Date(s.startedAt).toISOString()}; ${s.calls} calls, ${s.errors} errors, ${s.refused} refused`,
          },
        ],
        [],
        [{ text: 'Recent calls', bold: true }],
        ...activity
          .filter((row) => row.session === s.session)
          .slice(0, 40)
          .map((row) => activityLine(row, 10, 18)),
      ],
    });
  return {
    heading,
    empty: ctx.filter
      ? `No session matches "${ctx.filter}".`
      : 'No debug session (an install by droidwright starts one) and no MCP session connected.',
    items,
  };
}

function runConfigurationsLine(state: SharedRunConfigurationsState): Line {
  const status = RUN_CONFIG_STATUS[state.status];
  const attention = state.status === 'not_approved' || state.status === 'stale' || state.status === 'invalid';
  return [
    { text: 'shared run configurations: ', dim: true },
    { text: status, color: state.status === 'approved' ? 'green' : attention ? 'yellow' : undefined, bold: attention },
    {
      text:
        state.names.length > 0
          ? `  ${state.names.slice(0, 6).join(', ')}${state.names.length > 6 ? ', …' : ''}`
          : state.error
            ? `  ${state.error}`
            : '',
    },
    {
      text: state.status === 'approved' && state.approvedBy ? `  by ${state.approvedBy}` : '',
      dim: true,
    },
  ];
}

function debugSessionLine(d: DebugSessionSummary, now: number): Line {
  const troubles = d.crashes + d.anrs;
  return [
    { text: pad(d.session_id, 14), bold: d.state === 'open' },
    { text: pad(d.state, 11), color: DEBUG_STATE_COLORS[d.state], bold: d.state === 'open' },
    { text: pad(d.package, 22) },
    { text: pad(d.device_serial, 15), dim: true },
    { text: `${padStart(String(d.launches), 6)} ` },
    { text: padStart(String(troubles), 5), color: troubles > 0 ? 'red' : undefined, bold: troubles > 0 },
    { text: `  ${d.build_id ?? 'not ours'}${d.variant ? ` (${d.variant})` : ''}` },
    { text: ` · ${ago(now, d.installed_at)} by ${actorName(d.installed_by)}`, dim: true },
  ];
}

function actorName(actor: DebugSessionSummary['installed_by']): string {
  // Installs made from another machine sharing the log say which: its devices are not this desk's.
  const where = actor.host !== undefined && actor.host !== thisHost() ? ` on ${actor.host}` : '';
  return `${actor.kind === 'agent' && actor.client ? `agent ${actor.client}` : actor.kind}${where}`;
}

const TIMELINE_ROWS = 60;
const CATEGORY_COLORS: Record<string, string> = {
  crash: 'red',
  launch: 'green',
  restart: 'green',
  tool_call: 'cyan',
  ui: 'magenta',
  ended: 'gray',
};

function debugSessionDetail(d: DebugSessionSummary, ctx: PanelContext): Line[] {
  const lines: Line[] = [
    [
      { text: `${d.session_id}  ${d.package} on ${d.device_serial}  `, bold: true },
      { text: d.state, color: DEBUG_STATE_COLORS[d.state], bold: true },
      { text: d.end_reason ? `  (${d.end_reason})` : '' },
    ],
    [
      {
        text: `installed ${new Date(d.installed_at).toISOString()} by ${actorName(d.installed_by)}: ${d.version_name ?? ''} (${d.version_code})${d.build_id ? `, build ${d.build_id}${d.variant ? ` ${d.variant}` : ''}` : ''}${d.run_configuration ? `, run configuration ${d.run_configuration}` : ''}`,
      },
    ],
    [
      {
        text: `${d.launches} launches${d.first_launch_ms !== null ? ` (first ${d.first_launch_ms} ms)` : ''}, ${d.crashes} crashes, ${d.anrs} ANRs, ${d.tool_calls} tool calls, ${d.ui_actions} UI actions`,
      },
    ],
  ];
  const source = ctx.debugSessions;
  if (!source) return lines;
  let crashes: ReturnType<DebugSessionSource['crashes']> = [];
  let timeline: ReturnType<DebugSessionSource['timeline']> = [];
  try {
    crashes = source.crashes(d.session_id, 10);
    timeline = source.timeline(d.session_id, TIMELINE_ROWS);
  } catch (error) {
    lines.push([{ text: `Cannot read the session: ${(error as Error).message}`, color: 'red' }]);
    return lines;
  }
  if (crashes.length > 0) {
    lines.push([], [{ text: `Crashes (${crashes.length})`, bold: true }]);
    for (const c of crashes) {
      lines.push([
        { text: `${clock(c.at)} `, dim: true },
        { text: `${c.kind} `, color: 'red', bold: true },
        { text: c.title },
        { text: `  ${c.verified ? '' : '(attributed) '}${c.attribution}`, dim: true },
      ]);
      for (const text of c.lines.slice(0, 8)) lines.push([{ text: `    ${text}`, dim: true }]);
    }
  }
  lines.push([], [{ text: `Timeline, newest first (${d.timeline_rows} events)`, bold: true }]);
  for (const e of timeline) {
    lines.push([
      { text: `${clock(e.at)} `, dim: true },
      { text: pad(e.category, 9), color: CATEGORY_COLORS[e.category] },
      { text: e.summary },
      { text: e.outcome && e.outcome !== 'ok' ? `  ${e.outcome}` : '', color: 'red' },
      { text: e.duration_ms !== null ? `  ${duration(e.duration_ms)}` : '', dim: true },
    ]);
  }
  return lines;
}

function sessionLine(s: SessionRow, now: number): Line {
  return [
    { text: 'MCP ', color: 'cyan' },
    { text: pad(`${s.client} ${s.clientVersion ?? ''}`, 24), bold: true },
    { text: ` pid ${s.pid}${s.host ? ` on ${s.host}` : ''}  ${s.calls} calls  ` },
    { text: `${s.errors} errors  `, color: s.errors ? 'red' : undefined },
    { text: `${s.refused} refused`, color: s.refused ? 'red' : undefined },
    { text: `  ${ago(now, s.lastCallAt) || 'no calls yet'}`, dim: true },
  ];
}

// ------------------------------------------------------------------ logcat

function logcatPanel(ctx: PanelContext): PanelView {
  const state = ctx.logcat;
  if (!state.available) {
    return {
      heading: [
        [
          {
            text: 'logcat store not available in this build: the device log appears here once it is wired in.',
            color: 'yellow',
          },
        ],
      ],
      empty: '',
      items: [],
    };
  }
  const others = state.devices.length > 1 ? ` (d: ${state.devices.length - 1} more)` : '';
  const heading: Line[] = [
    [
      { text: `${state.deviceSerial ?? '(no device)'}`, bold: true },
      { text: others, dim: true },
      { text: `  package ${state.packages}`, color: 'cyan' },
      {
        text: state.running === null ? '' : state.running ? '  streaming' : '  not streaming (l starts it)',
        dim: true,
      },
      ctx.filter ? { text: `  /${ctx.filter}`, color: 'cyan' } : { text: '' },
      state.following
        ? { text: '  ▼ following', color: 'green' }
        : { text: '  ‖ paused (G follows)', color: 'yellow', bold: true },
    ],
  ];
  if (state.note) heading.push([{ text: state.note, dim: true }]);
  if (state.error) heading.push([{ text: state.error, color: 'red' }]);
  const tagWidth = ctx.width >= 100 ? 23 : 16;
  return {
    heading,
    empty: !state.deviceSerial
      ? 'No device connected and no device log stored.'
      : ctx.filter || state.packages !== 'all'
        ? `No stored line of ${state.deviceSerial} matches (p shows all packages, Esc clears the filter).`
        : `No log lines stored for ${state.deviceSerial}.`,
    items: state.lines.map((l) => ({
      key: `line:${l.deviceSerial}:${l.seq}`,
      line: logLine(l, tagWidth),
      detail: () => [
        [
          {
            text: `${l.package ?? '?'}  pid ${l.pid}${l.tid !== null ? ` tid ${l.tid}` : ''}  ${l.level}/${l.tag}  #${l.seq}`,
            bold: true,
          },
        ],
        [{ text: l.timeMs !== null ? new Date(l.timeMs).toISOString() : '(no device time)', dim: true }],
        [],
        ...wrap(l.message, 200).map((text) => [{ text }]),
      ],
    })),
  };
}

/** A pidcat row: time, the tag right-aligned in its color, the level as a badge, the message. */
function logLine(l: StoredLogLine, tagWidth: number): Line {
  const tag = l.tag.length > tagWidth ? l.tag.slice(0, tagWidth) : l.tag.padStart(tagWidth);
  const badge = LEVEL_BADGES[l.level];
  return [
    { text: l.timeMs !== null ? `${clock(l.timeMs)} ` : '         ', dim: true },
    { text: `${tag} `, color: tagColor(l.tag) },
    { text: ` ${l.level} `, color: badge?.color, background: badge?.background, bold: true },
    { text: ` ${l.message.split('\n', 1)[0]}`, color: MESSAGE_COLORS[l.level] },
  ];
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    for (let i = 0; i < paragraph.length || i === 0; i += width) out.push(paragraph.slice(i, i + width));
  }
  return out;
}

/** What `/` typed on the Logcat panel asks of the line store. */
export interface LogFilterTerms {
  readonly text?: string;
  readonly minLevel?: StoredLogLine['level'];
  readonly tags?: readonly string[];
  readonly packages?: readonly string[];
  readonly pid?: number;
}

/**
 * `level:W` (that level and above), `tag:X` (exact tag, any of several), `pkg:X` (that package instead of
 * `mine`), `pid:N`; the other words are one substring of the message or tag.
 */
export function parseLogFilter(filter: string): LogFilterTerms {
  const words: string[] = [];
  const tags: string[] = [];
  const packages: string[] = [];
  let minLevel: StoredLogLine['level'] | undefined;
  let pid: number | undefined;
  for (const term of filter.split(/\s+/).filter(Boolean)) {
    const [key, ...rest] = term.split(':');
    const value = rest.join(':');
    const lower = key!.toLowerCase();
    if (rest.length > 0 && value && lower === 'level' && /^[VDIWEFA]$/i.test(value))
      minLevel = value.toUpperCase() as StoredLogLine['level'];
    else if (rest.length > 0 && value && lower === 'tag') tags.push(value);
    else if (rest.length > 0 && value && (lower === 'pkg' || lower === 'package')) packages.push(value);
    else if (rest.length > 0 && /^\d{1,9}$/.test(value) && lower === 'pid') pid = Number(value);
    else words.push(term);
  }
  return {
    ...(words.length > 0 ? { text: words.join(' ') } : {}),
    ...(minLevel ? { minLevel } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(packages.length > 0 ? { packages } : {}),
    ...(pid !== undefined ? { pid } : {}),
  };
}
