import { Box, type Key, Static, Text, useApp, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import type { DashboardModel, DashboardSnapshot } from './dashboard-model.js';
import {
  type LogcatPanelState,
  PANEL_TITLES,
  PANELS,
  type PanelId,
  type PanelItem,
  type PanelView,
  panelView,
  parseLogFilter,
} from './dashboard-panels.js';
import type { DashboardSources } from './dashboard-sources.js';
import { splitKeys } from './key-chunks.js';
import { clean, fitLine, type Line, type Segment, wrapText } from './screen-text.js';

export interface DashboardAppProps {
  readonly model: DashboardModel;
  readonly sources: DashboardSources;
  readonly color: boolean;
  /** Terminal size when stdout does not report one (tests). */
  readonly size?: { columns: number; rows: number };
}

interface Confirm {
  readonly question: string;
  run(): Promise<string>;
}

interface UiState {
  readonly panel: PanelId;
  /** Per panel; unset is the first row (the newest), or the tail on the Logcat panel. */
  readonly selected: Partial<Record<PanelId, number | undefined>>;
  readonly detail: { panel: PanelId; key: string; scroll: number } | null;
  readonly filters: Partial<Record<PanelId, string>>;
  /** The filter being typed after `/`, null when not typing. */
  readonly editingFilter: string | null;
  readonly help: boolean;
  readonly confirm: Confirm | null;
  /** The last action's result. */
  readonly status: string;
  /** The device the Logcat panel shows, once `d` chose one (else the first connected). */
  readonly logcatDevice: string | null;
  /** The Logcat panel shows every package instead of `mine` (`p`). */
  readonly logcatAll: boolean;
}

const INITIAL_UI: UiState = {
  panel: 'activity',
  selected: {},
  detail: null,
  filters: {},
  editingFilter: null,
  help: false,
  confirm: null,
  status: '',
  logcatDevice: null,
  logcatAll: false,
};

function clampIndex(index: number, length: number): number {
  return Math.max(0, Math.min(index, length - 1));
}

const LOGCAT_POLL_MS = 500;
const REPAINT_AFTER_MS = 250;
const TITLE_MAX_COLUMNS = 60;
const LOGCAT_LINES = 200;

/** The keys; `l` only where the logcat worker can be started from here. */
function helpLines(withLogcat: boolean): Line[] {
  return [
    [{ text: 'Keys', bold: true }],
    [{ text: '  Tab / Shift-Tab, 1–6   switch panel' }],
    [{ text: '  ↑ ↓  j k  PgUp PgDn     move; g / G first / last' }],
    [{ text: '  Enter                  details of the selected row;  Esc  back' }],
    [{ text: '  /                      filter: words, or client: tool: outcome: kind: pkg: …' }],
    [{ text: '  t                      trust or untrust this project (asks first)' }],
    [{ text: '  c                      cancel the selected running build (Builds, asks first)' }],
    [{ text: "  a                      approve the project's shared run configurations (asks first)" }],
    ...(withLogcat ? [[{ text: '  l                      start or stop logcat for the selected device' }]] : []),
    [{ text: "  d  p                   Logcat: next device; package mine (the project's apps) or all" }],
    [{ text: '                         filter level:W tag:X pkg:X pid:N words; G follows the tail' }],
    [{ text: '  v                      verify the whole event log again' }],
    [{ text: '  ?                      this help;  q  quit' }],
    [],
    [{ text: 'Every action is recorded in the event log with you (the TUI) as the actor.', dim: true }],
  ];
}

export function DashboardApp({ model, sources, color, size }: DashboardAppProps) {
  const snapshot = useSyncExternalStore(
    useCallback((listener) => model.subscribe(listener), [model]),
    () => model.snapshot(),
  );
  const { columns, rows, repaint } = useTerminalSize(size);
  const { exit } = useApp();
  // Keys can arrive faster than React renders (a paste, a held key, tmux send-keys): the handler works on the
  // latest state in a ref, not on the values of the last render, so no keystroke is lost.
  const ui = useRef<UiState>(INITIAL_UI);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const update = (patch: Partial<UiState>) => {
    ui.current = { ...ui.current, ...patch };
    redraw();
  };
  const { panel, selected, detail, filters, editingFilter, help, confirm, status } = ui.current;
  const logcat = useLogcat(sources, snapshot, {
    visible: panel === 'logcat',
    filter: filters.logcat ?? '',
    device: ui.current.logcatDevice,
    allPackages: ui.current.logcatAll,
    following: selected.logcat === undefined,
  });

  const viewOf = (s: UiState, at: { snapshot: DashboardSnapshot; logcat: LogcatPanelState }): PanelView =>
    panelView(s.panel, {
      snapshot: at.snapshot,
      filter: s.editingFilter ?? s.filters[s.panel] ?? '',
      width: columns,
      diagnostics: (id) => model.diagnostics(id),
      crashDetail: (group) => model.crashDetail(group),
      ...(sources.debugSessions ? { debugSessions: sources.debugSessions } : {}),
      logcat: at.logcat,
    });
  const view = viewOf(ui.current, { snapshot, logcat });
  const rendered = useRef({ snapshot, logcat });
  rendered.current = { snapshot, logcat };
  const index = selectedIndex(ui.current, view);
  const detailItem = detail && detail.panel === panel ? view.items.find((item) => item.key === detail.key) : undefined;

  const handleKey = (input: string, key: Key) => {
    const s = ui.current;
    const { snapshot, logcat } = rendered.current;
    // Computed for each key: the key before it in the same chunk may have switched the panel or the filter.
    const view = viewOf(s, rendered.current);
    const at = selectedIndex(s, view);
    const current: PanelItem | undefined = view.items[at];
    const open =
      s.detail && s.detail.panel === s.panel ? view.items.find((item) => item.key === s.detail!.key) : undefined;
    const act = (what: Promise<string>) =>
      what.then(
        (message) => update({ status: message }),
        (error: unknown) => update({ status: `failed: ${error instanceof Error ? error.message : String(error)}` }),
      );
    const select = (index: number | undefined) => update({ selected: { ...s.selected, [s.panel]: index } });
    const move = (delta: number) => select(clampIndex(at + delta, view.items.length));
    const switchPanel = (next: PanelId) => update({ panel: next, detail: null });

    if (input === 'c' && key.ctrl) {
      exit();
      return;
    }
    if (s.confirm) {
      if (input === 'y' || input === 'Y') {
        update({ confirm: null, status: '…' });
        act(s.confirm.run());
      } else if (input === 'n' || input === 'N' || key.escape || input === 'q') {
        update({ confirm: null, status: 'Nothing done.' });
      }
      return;
    }
    if (s.editingFilter !== null) {
      if (key.return)
        update({
          filters: { ...s.filters, [s.panel]: s.editingFilter.trim() },
          editingFilter: null,
          selected: { ...s.selected, [s.panel]: undefined },
        });
      else if (key.escape) update({ editingFilter: null });
      else if (key.backspace || key.delete) update({ editingFilter: s.editingFilter.slice(0, -1) });
      else if (input && !key.ctrl && !key.meta) update({ editingFilter: clean(s.editingFilter + input).slice(0, 200) });
      return;
    }
    if (s.help) {
      update({ help: false });
      if (input !== 'q') return;
    }
    if (input === 'q') {
      exit();
      return;
    }
    if (input === '?') return update({ help: true });
    if (key.tab) {
      const from = PANELS.indexOf(s.panel);
      return switchPanel(PANELS[(from + (key.shift ? PANELS.length - 1 : 1)) % PANELS.length]!);
    }
    if (/^[1-6]$/.test(input)) return switchPanel(PANELS[Number(input) - 1]!);
    if (key.escape) {
      if (s.detail) return update({ detail: null });
      if (s.filters[s.panel]) return update({ filters: { ...s.filters, [s.panel]: '' } });
      if (s.panel === 'logcat' && s.selected.logcat !== undefined) return select(undefined);
      return;
    }
    if (s.detail && open) {
      if (key.downArrow || input === 'j') return update({ detail: { ...s.detail, scroll: s.detail.scroll + 1 } });
      if (key.upArrow || input === 'k')
        return update({ detail: { ...s.detail, scroll: Math.max(0, s.detail.scroll - 1) } });
    } else {
      if (key.downArrow || input === 'j') return move(1);
      if (key.upArrow || input === 'k') return move(-1);
      if (key.pageDown) return move(bodyHeight(rows) - 2);
      if (key.pageUp) return move(-(bodyHeight(rows) - 2));
      if (input === 'g') return select(0);
      // On the Logcat panel the last row is the tail: G follows it again.
      if (input === 'G') return select(s.panel === 'logcat' ? undefined : view.items.length - 1);
      if (key.return && current) return update({ detail: { panel: s.panel, key: current.key, scroll: 0 } });
    }
    if (input === '/') return update({ editingFilter: s.filters[s.panel] ?? '' });
    if (input === 'v') {
      update({ status: 'Verifying the event log…' });
      setTimeout(() => {
        model.verifyChain();
        update({ status: '' });
      }, 0);
      return;
    }
    if (input === 't') {
      const root = sources.projectRoot;
      if (!root)
        return update({ status: 'No Gradle project selected: start droidwright tui in one, or pass --project.' });
      return update({
        confirm: snapshot.trusted
          ? {
              question: `Revoke trust in ${root}? Agents will no longer run its Gradle build.`,
              run: () => sources.actions.untrust(),
            }
          : {
              question: `Trust ${root}? Agents using droidwright will be able to run its Gradle build, which executes the project's build scripts with your permissions.`,
              run: () => sources.actions.trust(),
            },
      });
    }
    if (input === 'a') {
      const approval = sources.actions.runConfigurations;
      const state = snapshot.runConfigurations;
      if (!approval || !state)
        return update({
          status: 'No shared run configurations here (no Gradle project, or no run-configuration model).',
        });
      if (state.status === 'none') return update({ status: `${state.path} does not exist: nothing to approve.` });
      if (state.status === 'invalid' || !state.sha256)
        return update({ status: `${state.path} cannot be approved: ${state.error ?? 'it is not valid'}` });
      if (state.status === 'approved') return update({ status: `${state.path} is already approved as it is.` });
      const sha256 = state.sha256;
      return update({
        confirm: {
          question: `Approve the shared run configurations in ${state.path} (SHA-256 ${sha256.slice(0, 16)}…): ${state.names.join(', ')}?${state.status === 'stale' ? ` It changed since ${state.approvedBy} approved it.` : ''} Agents may then build, install and launch them on your devices, until the file changes.`,
          run: () => approval.approve(sha256),
        },
      });
    }
    if (input === 'c' && s.panel === 'builds') {
      const selectedBuild = (open ?? current)?.build;
      const build =
        selectedBuild?.status === 'running' ? selectedBuild : snapshot.builds.find((b) => b.status === 'running');
      if (!build) return update({ status: 'No build is running.' });
      return update({
        confirm: {
          question: `Cancel build ${build.id} (${build.tasks}, started by ${build.startedBy})?`,
          run: () => sources.actions.cancelBuild(build.id),
        },
      });
    }
    if (s.panel === 'logcat' && input === 'd') {
      if (logcat.devices.length < 2) return update({ status: 'No other device to show.' });
      const next = logcat.devices[(logcat.devices.indexOf(logcat.deviceSerial ?? '') + 1) % logcat.devices.length]!;
      return update({
        logcatDevice: next,
        detail: null,
        selected: { ...s.selected, logcat: undefined },
        status: `Logcat: ${next}`,
      });
    }
    if (s.panel === 'logcat' && input === 'p') {
      return update({ logcatAll: !s.logcatAll, detail: null, selected: { ...s.selected, logcat: undefined } });
    }
    if (input === 'l' && (s.panel === 'devices' || s.panel === 'logcat')) {
      const control = sources.actions.logcat;
      if (!control) return update({ status: 'Starting logcat is not available in this build.' });
      const serial = s.panel === 'devices' ? current?.device?.serial : logcat.deviceSerial;
      if (!serial) return update({ status: 'Select a device first.' });
      act(control.running(serial) ? control.stop(serial) : control.start(serial));
    }
  };

  useInput((input, key) => {
    for (const press of splitKeys(input, key)) handleKey(press.input, press.key);
  });

  const width = columns;
  const height = bodyHeight(rows);
  const body: Line[] = confirm
    ? [
        [],
        ...wrapText(confirm.question, width - 4).map((text) => [{ text: `  ${text}`, color: 'yellow', bold: true }]),
        [],
        [{ text: '  y  yes, do it      n / Esc  no', bold: true }],
        [{ text: '  It is recorded in the event log with you (the TUI) as the actor.', dim: true }],
      ]
    : help
      ? helpLines(Boolean(sources.actions.logcat))
      : detailItem
        ? detailItem.detail().slice(detail!.scroll)
        : renderList(view.heading, view.items, index, height, view.empty);

  const footer: Line = confirm
    ? [{ text: 'Confirm: y yes · n no', color: 'yellow', bold: true }]
    : editingFilter !== null
      ? [
          { text: `filter ${PANEL_TITLES[panel]}: `, bold: true },
          { text: `${editingFilter}█` },
          { text: '  Enter apply · Esc cancel', dim: true },
        ]
      : status
        ? [
            { text: status, color: 'yellow' },
            { text: '   ? help · q quit', dim: true },
          ]
        : [{ text: footerHint(panel, Boolean(detailItem), sources), dim: true }];

  return (
    <>
      {/* The title never changes while the dashboard runs: written once, above the live region, which alone is
          redrawn (Ink writes it again only when it repaints the whole screen, as after a resize). */}
      <Static items={[titleLine(snapshot.projectRoot, width)]}>
        {(line) => <StyledLine key="title" line={line} width={width} color={color} />}
      </Static>
      <Box flexDirection="column" width={width} height={repaint ? rows : rows - 2}>
        <StyledLine line={statusLine(snapshot)} width={width} color={color} />
        <StyledLine line={tabsLine(panel, filters)} width={width} color={color} />
        <Box flexDirection="column" height={height}>
          {body
            .slice(0, height)
            .map((line, row) => ({ line, key: `row${row}` }))
            .map(({ line, key }) => (
              // Lines are positional: keyed by row, so Ink updates them in place rather than re-creating them.
              <StyledLine key={key} line={line} width={width} color={color} />
            ))}
        </Box>
        <StyledLine line={footer} width={width} color={color} />
      </Box>
    </>
  );
}

/** The selected row; the Logcat panel follows its tail (the last row) until a row is chosen. */
function selectedIndex(s: UiState, view: PanelView): number {
  const chosen = s.selected[s.panel];
  if (chosen === undefined && s.panel === 'logcat') return Math.max(0, view.items.length - 1);
  return clampIndex(chosen ?? 0, view.items.length);
}

/** Rows left for a panel: the terminal minus title (1), status (1), tabs (1), footer (1) and Ink's last line. */
function bodyHeight(rows: number): number {
  return Math.max(3, rows - 5);
}

function renderList(heading: Line[], items: PanelItem[], index: number, height: number, empty: string): Line[] {
  const room = Math.max(1, height - heading.length);
  if (items.length === 0) return [...heading, [{ text: empty, dim: true }]];
  const start = Math.max(0, Math.min(index - Math.floor(room / 2), items.length - room));
  const visible = items
    .slice(start, start + room)
    .map((item, i) => (start + i === index ? item.line.map((s) => ({ ...s, inverse: !s.inverse })) : item.line));
  return [...heading, ...visible];
}

/** The line that stays: the project the dashboard is about, and how to get help or out. */
function titleLine(projectRoot: string | null, columns: number): Line {
  const hint = '   ? help · q quit';
  // Written once at the width of the day: kept short enough that a narrower terminal later does not wrap it.
  const width = Math.min(columns, TITLE_MAX_COLUMNS);
  return [
    { text: 'droidwright ', bold: true },
    { text: shortenPath(projectRoot ?? '(no project)', width - 'droidwright '.length - hint.length), color: 'cyan' },
    { text: hint, dim: true },
  ];
}

/** Keeps the end of a path, which names the project, when the line is short of room. */
function shortenPath(path: string, room: number): string {
  if (path.length <= room) return path;
  return room <= 1 ? '' : `…${path.slice(path.length - room + 1)}`;
}

/** Trust, devices online, the log's verified head and the MCP clients connected, redrawn as they change. */
function statusLine(s: DashboardSnapshot): Line {
  const online = s.devices.filter((d) => d.connected && d.state === 'device').length;
  const log: Segment =
    s.log.state === 'ok'
      ? {
          text: `log ✓ verified #${s.log.verifiedThrough}${s.log.lastSeq > s.log.verifiedThrough ? ` of #${s.log.lastSeq}` : ''}`,
          color: 'green',
        }
      : s.log.state === 'broken'
        ? { text: `log ✗ BROKEN at #${s.log.brokenAt ?? '?'}`, color: 'red', bold: true, inverse: true }
        : { text: `log verifying… #${s.log.lastSeq}`, color: 'yellow' };
  const trust: Segment = s.projectRoot
    ? s.trusted
      ? { text: 'TRUSTED', color: 'green', bold: true }
      : { text: 'untrusted', color: 'yellow', bold: true }
    : { text: 'no project', dim: true };
  const mcp: Segment[] =
    s.sessions.length === 0
      ? [{ text: 'MCP: none connected', dim: true }]
      : [
          { text: `MCP ${s.sessions.length}: `, bold: true },
          { text: s.sessions.map((x) => `${x.client}${x.clientVersion ? ` ${x.clientVersion}` : ''}`).join(' · ') },
        ];
  return [trust, { text: `  ${online} device${online === 1 ? '' : 's'} online  ` }, log, { text: '  ' }, ...mcp];
}

function tabsLine(panel: PanelId, filters: Partial<Record<PanelId, string>>): Line {
  return PANELS.flatMap((id, i) => [
    {
      text: ` ${i + 1} ${PANEL_TITLES[id]}${filters[id] ? '*' : ''} `,
      inverse: id === panel,
      bold: id === panel,
    },
    { text: ' ' },
  ]);
}

/** The keys of this panel, within 80 columns (the tabs line already shows 1–6, and ? lists the rest). */
function footerHint(panel: PanelId, inDetail: boolean, sources: DashboardSources): string {
  if (inDetail) return 'Esc back · ↑↓ scroll · q quit';
  const logcat = Boolean(sources.actions.logcat);
  if (panel === 'logcat')
    return `/ filter · d device · p mine/all · G follow${logcat ? ' · l start/stop' : ''} · ? help · q quit`;
  const extra =
    panel === 'builds'
      ? ' · c cancel'
      : panel === 'devices' && logcat
        ? ' · l logcat on/off'
        : panel === 'sessions' && sources.actions.runConfigurations
          ? ' · a approve'
          : '';
  return `↑↓ move · Enter detail · / filter · t trust${extra} · ? help · q quit`;
}

function StyledLine({ line, width, color }: { line: Line; width: number; color: boolean }) {
  const fitted = fitLine(line, width);
  if (fitted.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end">
      {fitted
        .map((s, at) => ({ s, key: `s${at}` }))
        .map(({ s, key }) => (
          <Text
            key={key}
            color={color ? s.color : undefined}
            backgroundColor={color ? s.background : undefined}
            bold={s.bold}
            inverse={s.inverse}
            dimColor={color ? s.dim : undefined}
          >
            {s.text}
          </Text>
        ))}
    </Text>
  );
}

/**
 * The terminal's size. After a resize one frame is drawn a full screen tall (`repaint`): Ink answers the frame
 * after such a one by clearing the terminal and writing everything again, the title it wrote once with <Static>
 * included, so whatever the terminal did to the old rows when it shrank, the screen is whole again.
 */
function useTerminalSize(fallback?: { columns: number; rows: number }): {
  columns: number;
  rows: number;
  repaint: boolean;
} {
  const { stdout } = useStdout();
  const read = useCallback(
    () => ({
      columns: stdout.columns || fallback?.columns || 80,
      rows: stdout.rows || fallback?.rows || 24,
    }),
    [stdout, fallback?.columns, fallback?.rows],
  );
  const [size, setSize] = useState(() => ({ ...read(), repaint: false }));
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const onResize = () => {
      setSize({ ...read(), repaint: true });
      clearTimeout(timer);
      // Past Ink's own frame throttle, so the tall frame has been written before the one that repaints.
      timer = setTimeout(() => setSize((s) => ({ ...s, repaint: false })), REPAINT_AFTER_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout, read]);
  return size;
}

interface LogcatView {
  readonly visible: boolean;
  readonly filter: string;
  /** The device chosen with `d`, if any. */
  readonly device: string | null;
  readonly allPackages: boolean;
  /** False holds the lines still while a row is selected. */
  readonly following: boolean;
}

/**
 * The Logcat panel's tail: polls the line store while the panel is shown and following (the store has no change
 * feed across processes), re-rendering only when a newer line matched. Packages default to `mine`.
 */
function useLogcat(sources: DashboardSources, snapshot: DashboardSnapshot, want: LogcatView): LogcatPanelState {
  const connected = useMemo(
    () => snapshot.devices.filter((d) => d.connected && d.state === 'device').map((d) => d.serial),
    [snapshot.devices],
  );
  const [stored, setStored] = useState<readonly string[]>(() => {
    try {
      return sources.lines?.devices?.() ?? [];
    } catch {
      return [];
    }
  });
  const devices = useMemo(() => [...new Set([...connected, ...stored])], [connected, stored]);
  const serial = want.device !== null && devices.includes(want.device) ? want.device : (devices[0] ?? null);
  const [state, setState] = useState<LogcatPanelState>({
    available: Boolean(sources.lines),
    deviceSerial: serial,
    devices,
    lines: [],
    running: null,
    packages: want.allPackages ? 'all' : 'mine',
    following: want.following,
    note: null,
    error: null,
  });
  const { visible, filter, allPackages, following } = want;
  useEffect(() => {
    const source = sources.lines;
    if (!source || !visible) {
      setState((s) =>
        s.deviceSerial === serial && s.devices === devices ? s : { ...s, deviceSerial: serial, devices },
      );
      return;
    }
    let shownKey = '';
    const poll = () => {
      try {
        const storedNow = source.devices?.() ?? [];
        setStored((previous) => (previous.join() === storedNow.join() ? previous : storedNow));
        if (!serial) {
          setState({ ...EMPTY_LOGCAT, devices, following, packages: allPackages ? 'all' : 'mine' });
          return;
        }
        const terms = parseLogFilter(filter);
        const mine = allPackages || terms.packages ? null : (sources.minePackages?.(serial) ?? null);
        const packages = terms.packages ?? mine ?? undefined;
        const label = terms.packages ? terms.packages.join(',') : mine ? 'mine' : 'all';
        const note =
          !allPackages && !terms.packages && !mine
            ? 'All packages: no Gradle project with an application id is selected, so there is no "mine".'
            : mine
              ? `mine = ${mine.slice(0, 4).join(', ')}${mine.length > 4 ? ', …' : ''}`
              : null;
        const page = source.query({ deviceSerial: serial, ...terms, ...(packages ? { packages } : {}) }, LOGCAT_LINES);
        const running = sources.actions.logcat?.running(serial) ?? null;
        const key = `${serial}|${label}|${filter}|${page.lines[0]?.seq ?? 0}|${page.lines.length}|${running}|${following}|${devices.join()}`;
        if (key === shownKey) return;
        shownKey = key;
        setState({
          available: true,
          deviceSerial: serial,
          devices,
          lines: [...page.lines].sort((a, b) => a.seq - b.seq),
          running,
          packages: label,
          following,
          note,
          error: null,
        });
      } catch (error) {
        setState((s) => ({ ...s, error: `Cannot read the log: ${(error as Error).message}` }));
      }
    };
    poll();
    // A held row keeps its lines: nothing moves under the selection until G follows again.
    if (!following) return;
    const timer = setInterval(poll, LOGCAT_POLL_MS);
    return () => clearInterval(timer);
  }, [sources, visible, serial, devices, filter, allPackages, following]);
  return state;
}

const EMPTY_LOGCAT: LogcatPanelState = {
  available: true,
  deviceSerial: null,
  devices: [],
  lines: [],
  running: null,
  packages: 'mine',
  following: true,
  note: null,
  error: null,
};
