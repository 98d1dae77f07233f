import { Box, Text, useApp, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import type { DashboardModel, DashboardSnapshot } from './dashboard-model.js';
import {
  type LogcatPanelState,
  PANEL_TITLES,
  PANELS,
  type PanelId,
  type PanelItem,
  panelView,
} from './dashboard-panels.js';
import type { DashboardSources } from './dashboard-sources.js';
import { clean, fitLine, type Line, lineText, type Segment, wrapText } from './screen-text.js';

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
  readonly selected: Partial<Record<PanelId, number>>;
  readonly detail: { panel: PanelId; key: string; scroll: number } | null;
  readonly filters: Partial<Record<PanelId, string>>;
  /** The filter being typed after `/`, null when not typing. */
  readonly editingFilter: string | null;
  readonly help: boolean;
  readonly confirm: Confirm | null;
  /** The last action's result. */
  readonly status: string;
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
};

function clampIndex(index: number, length: number): number {
  return Math.max(0, Math.min(index, length - 1));
}

const LOGCAT_POLL_MS = 500;
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
    ...(withLogcat ? [[{ text: '  l                      start or stop logcat for the selected device' }]] : []),
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
  const { columns, rows } = useTerminalSize(size);
  const { exit } = useApp();
  // Keys can arrive faster than React renders (a paste, a held key, a test): the handler works on the
  // latest state in a ref, not on the values of the last render, so no keystroke is lost.
  const ui = useRef<UiState>(INITIAL_UI);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const update = (patch: Partial<UiState>) => {
    ui.current = { ...ui.current, ...patch };
    redraw();
  };
  const { panel, selected, detail, filters, editingFilter, help, confirm, status } = ui.current;
  const logcat = useLogcat(sources, snapshot, panel, filters.logcat ?? '');

  const view = panelView(panel, {
    snapshot,
    filter: editingFilter ?? filters[panel] ?? '',
    width: columns,
    diagnostics: (id) => model.diagnostics(id),
    crashDetail: (group) => model.crashDetail(group),
    logcat,
  });
  const rendered = useRef({ view, snapshot, logcat });
  rendered.current = { view, snapshot, logcat };
  const index = clampIndex(selected[panel] ?? 0, view.items.length);
  const detailItem = detail && detail.panel === panel ? view.items.find((item) => item.key === detail.key) : undefined;

  useInput((input, key) => {
    const s = ui.current;
    const { view, snapshot, logcat } = rendered.current;
    const at = clampIndex(s.selected[s.panel] ?? 0, view.items.length);
    const current: PanelItem | undefined = view.items[at];
    const open =
      s.detail && s.detail.panel === s.panel ? view.items.find((item) => item.key === s.detail!.key) : undefined;
    const act = (what: Promise<string>) =>
      what.then(
        (message) => update({ status: message }),
        (error: unknown) => update({ status: `failed: ${error instanceof Error ? error.message : String(error)}` }),
      );
    const move = (delta: number) =>
      update({ selected: { ...s.selected, [s.panel]: clampIndex(at + delta, view.items.length) } });
    const switchPanel = (next: PanelId) => update({ panel: next, detail: null });

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
      // Typed fast (or pasted), the text and Enter arrive as one chunk, which Ink does not report as a return.
      const enterAt = input ? input.search(/[\r\n]/) : -1;
      if (key.return || enterAt >= 0) {
        const typed = enterAt > 0 ? clean(s.editingFilter + input.slice(0, enterAt)).slice(0, 200) : s.editingFilter;
        update({
          filters: { ...s.filters, [s.panel]: typed.trim() },
          editingFilter: null,
          selected: { ...s.selected, [s.panel]: 0 },
        });
      } else if (key.escape) update({ editingFilter: null });
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
      if (input === 'g') return move(-at);
      if (input === 'G') return move(view.items.length);
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
    if (input === 'l' && (s.panel === 'devices' || s.panel === 'logcat')) {
      const control = sources.actions.logcat;
      if (!control) return update({ status: 'Starting logcat is not available in this build.' });
      const serial = s.panel === 'devices' ? current?.device?.serial : logcat.deviceSerial;
      if (!serial) return update({ status: 'Select a device first.' });
      act(control.running(serial) ? control.stop(serial) : control.start(serial));
    }
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
    <Box flexDirection="column" width={width} height={rows - 1}>
      <StyledLine line={headerLine(snapshot, width)} width={width} color={color} />
      <StyledLine line={sessionsLine(snapshot)} width={width} color={color} />
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
  );
}

/** Rows left for a panel: the terminal minus header (2), tabs (1), footer (1) and Ink's last line. */
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

function headerLine(s: DashboardSnapshot, width: number): Line {
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
      ? { text: ' TRUSTED', color: 'green', bold: true }
      : { text: ' untrusted', color: 'yellow', bold: true }
    : { text: '' };
  const rest: Segment[] = [trust, { text: `  ${online} device${online === 1 ? '' : 's'} online  ` }, log];
  const room = width - 'droidwright '.length - lineText(rest).length;
  return [
    { text: 'droidwright ', bold: true },
    { text: shortenPath(s.projectRoot ?? '(no project)', room), color: 'cyan' },
    ...rest,
  ];
}

/** Keeps the end of a path, which names the project, when the line is short of room. */
function shortenPath(path: string, room: number): string {
  if (path.length <= room) return path;
  return room <= 1 ? '' : `…${path.slice(path.length - room + 1)}`;
}

function sessionsLine(s: DashboardSnapshot): Line {
  if (s.sessions.length === 0) return [{ text: 'MCP: no session connected', dim: true }];
  return [
    { text: `MCP ${s.sessions.length}: `, bold: true },
    { text: s.sessions.map((x) => `${x.client}${x.clientVersion ? ` ${x.clientVersion}` : ''}`).join(' · ') },
  ];
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

function footerHint(panel: PanelId, inDetail: boolean, sources: DashboardSources): string {
  if (inDetail) return 'Esc back · ↑↓ scroll · q quit';
  const extra =
    panel === 'builds'
      ? ' · c cancel'
      : (panel === 'devices' || panel === 'logcat') && sources.actions.logcat
        ? ' · l logcat on/off'
        : '';
  return `Tab/1-6 panel · ↑↓ move · Enter detail · / filter · t trust${extra} · ? help · q quit`;
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

function useTerminalSize(fallback?: { columns: number; rows: number }): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = useCallback(
    () => ({
      columns: stdout.columns || fallback?.columns || 80,
      rows: stdout.rows || fallback?.rows || 24,
    }),
    [stdout, fallback?.columns, fallback?.rows],
  );
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, read]);
  return size;
}

/** Polls the line store while the Logcat panel is open (the store has no change feed across processes). */
function useLogcat(
  sources: DashboardSources,
  snapshot: DashboardSnapshot,
  panel: PanelId,
  filter: string,
): LogcatPanelState {
  const serial = useMemo(
    () => snapshot.devices.find((d) => d.connected && d.state === 'device')?.serial ?? null,
    [snapshot.devices],
  );
  const [state, setState] = useState<LogcatPanelState>({
    available: Boolean(sources.lines),
    deviceSerial: serial,
    lines: [],
    running: null,
    error: null,
  });
  useEffect(() => {
    const lines = sources.lines;
    if (!lines || panel !== 'logcat') {
      setState((s) => ({ ...s, deviceSerial: serial }));
      return;
    }
    const poll = () => {
      if (!serial) {
        setState({ available: true, deviceSerial: null, lines: [], running: null, error: null });
        return;
      }
      try {
        const page = lines.query({ deviceSerial: serial, ...(filter ? { text: filter } : {}) }, LOGCAT_LINES);
        setState({
          available: true,
          deviceSerial: serial,
          lines: [...page.lines].sort((a, b) => b.seq - a.seq),
          running: sources.actions.logcat?.running(serial) ?? null,
          error: null,
        });
      } catch (error) {
        setState((s) => ({ ...s, error: `Cannot read the log: ${(error as Error).message}` }));
      }
    };
    poll();
    const timer = setInterval(poll, LOGCAT_POLL_MS);
    return () => clearInterval(timer);
  }, [sources, panel, serial, filter]);
  return state;
}
