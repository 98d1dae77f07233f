// The given events of every projection's spec (test/integration/events/projection-rebuild.test.ts), shared
// with the tests that run the read-model readers on both stores over the same log.
import { DeviceConnected, DeviceDisconnected, DeviceStateChanged } from '../../src/android/device.events.js';
import type { Projection } from '../../src/events/event-definition.js';
import type { Actor } from '../../src/shared/actor.js';
import {
  BuildCancelled,
  BuildCancelRequested,
  BuildFinished,
  BuildStarted,
  VariantSelected,
} from '../../src/plugins/build/build.events.js';
import {
  AppExitReasonsRead,
  AppInstallObserved,
  AppUninstallObserved,
  McpSessionEnded,
  McpSessionStarted,
  McpToolCalled,
  McpToolCallStarted,
  ProjectTrusted,
  ProjectUntrusted,
} from '../../src/plugins/core/core.events.js';
import {
  AppInstalled,
  AppLaunched,
  AppStopped,
  NetworkChanged,
} from '../../src/plugins/device-admin/device-admin.events.js';
import { UiTapped } from '../../src/plugins/ui/ui.events.js';
import { AppCrashed, AppNativeCrashed, AppNotResponding } from '../../src/plugins/logcat/logcat.events.js';
import { type GivenEvent, allProjections, given } from './projection-spec.js';

const agent: Actor = { kind: 'agent', session: 'sess-a', client: 'jest', pid: process.pid };
const cli: Actor = { kind: 'cli', pid: process.pid };
const system: Actor = { kind: 'system', pid: process.pid };
const sha = (c: string) => c.repeat(64);
export const root = '/work/projects/notes';

const session = (id: string) =>
  given(
    McpSessionStarted,
    {
      session: id,
      client_name: 'jest',
      client_version: '1',
      protocol_version: '2025-11-25',
      pid: 4242,
      toolsets: ['core', 'build'],
      read_only: false,
      project_root: root,
    },
    { stream: `mcp:${id}`, actor: { ...agent, session: id } },
  );
const toolCall = (id: string, tool: string, outcome: 'ok' | 'error') =>
  given(
    McpToolCalled,
    {
      session: id,
      tool,
      toolset: 'core',
      kind: 'R',
      outcome,
      error_code: outcome === 'error' ? 'NO_DEVICE' : null,
      duration_ms: 12,
      summary: `${tool} ${outcome}`,
      arguments: { limit: 5 },
    },
    { stream: `mcp:${id}`, actor: { ...agent, session: id } },
  );
const buildStarted = (id: string) =>
  given(
    BuildStarted,
    {
      build_id: id,
      project_root: root,
      kind: 'build',
      tasks: [':app:assembleDebug'],
      args: [],
      module: ':app',
      variant: 'debug',
      pid: 5151,
      timeout_sec: 600,
      log_path: `/tmp/build-logs/${id}.log`,
      provenance: {
        git: { commit: 'abc', branch: 'main', dirty: false, changed_files: 0 },
        build_files: [{ path: 'app/build.gradle.kts', sha256: sha('a') }],
        gradle_version: '8.9',
        jdk: { java_home: '/usr/lib/jvm/17', source: 'JAVA_HOME', version: '17' },
      },
    },
    { stream: `build:${id}`, correlation: id, actor: agent },
  );
const buildFinished = (id: string, status: 'success' | 'failed') =>
  given(
    BuildFinished,
    {
      build_id: id,
      status,
      duration_ms: 3000,
      exit_code: status === 'success' ? 0 : 1,
      signal: null,
      reason: status === 'success' ? null : 'Compilation failed.',
      cancelled_by: null,
      diagnostic_counts: { error: status === 'success' ? 0 : 1, warning: 1, info: 0 },
      diagnostics: [
        {
          severity: 'warning',
          source: 'kotlin',
          file: 'app/src/main/kotlin/Main.kt',
          line: 3,
          column: 7,
          message: 'unused variable',
          task: ':app:compileDebugKotlin',
        },
        ...(status === 'failed'
          ? [
              {
                severity: 'error' as const,
                source: 'kotlin' as const,
                file: 'app/src/main/kotlin/Main.kt',
                line: 9,
                column: 1,
                message: 'unresolved reference',
                task: ':app:compileDebugKotlin',
              },
            ]
          : []),
      ],
      diagnostics_total: status === 'success' ? 1 : 2,
      apks:
        status === 'success'
          ? [
              {
                path: '/work/projects/notes/app/build/outputs/apk/debug/app-debug.apk',
                module: ':app',
                variant: 'debug',
                sha256: sha('b'),
                size: 1000,
                package: 'com.example.notes',
                version_code: 1,
                version_name: '1.0',
              },
            ]
          : [],
      mappings: [],
      tests: null,
      log: { path: `/tmp/build-logs/${id}.log`, sha256: sha('c'), bytes: 10, lines: 2, truncated_lines: 0 },
    },
    { stream: `build:${id}`, correlation: id, actor: agent },
  );
const details = {
  kind: 'emulator' as const,
  model: 'sdk_gphone64',
  manufacturer: 'Google',
  api_level: 34,
  abi: 'x86_64',
  avd_name: 'Pixel_7',
};
const deviceMeta = (serial: string) => ({ stream: `device:${serial}`, device: serial, actor: system });
// Two machines sharing the log, each with its own emulator-5554; `system` above names no host (older events).
const deviceMetaOn = (host: string, serial: string) => ({ ...deviceMeta(serial), actor: { ...system, host } });
export const installed = (serial: string, versionCode: number, buildId: string | null, host?: string) =>
  given(
    AppInstalled,
    {
      device_serial: serial,
      package: 'com.example.notes',
      apk_path: '/work/projects/notes/app/build/outputs/apk/debug/app-debug.apk',
      apk_sha256: sha(versionCode === 1 ? 'b' : 'd'),
      apk_size: 1000,
      version_code: versionCode,
      version_name: `${versionCode}.0`,
      build_id: buildId,
      module: buildId ? ':app' : null,
      variant: buildId ? 'debug' : null,
      duration_ms: 800,
    },
    { ...deviceMeta(serial), package: 'com.example.notes', actor: host === undefined ? agent : { ...agent, host } },
  );

const crashBase = (serial: string, signature: string, build: 'b1' | null) => ({
  device_serial: serial,
  package: 'com.example.notes',
  pid: 4242,
  process: 'com.example.notes',
  signature,
  signature_hash: signature === 'java:java.lang.IllegalStateException@a.b' ? '1111111111111111' : '2222222222222222',
  time_ms: 1_764_500_000_000,
  first_line_seq: 10,
  last_line_seq: 14,
  lines: ['11-30 14:00:00.000  4242  4242 E AndroidRuntime: FATAL EXCEPTION: main'],
  truncated: false,
  build: build
    ? { build_id: build, apk_sha256: sha('b'), version_code: 1, variant: 'release', installed_seq: 1 }
    : null,
});
const crashMeta = (serial: string, host?: string) => ({
  ...(host === undefined ? deviceMeta(serial) : deviceMetaOn(host, serial)),
  package: 'com.example.notes',
});
export const javaCrash = (serial: string, build: 'b1' | null, host?: string) =>
  given(
    AppCrashed,
    {
      ...crashBase(serial, 'java:java.lang.IllegalStateException@a.b', build),
      thread: 'main',
      exception_class: 'java.lang.IllegalStateException',
      message: 'Note store is not initialised',
      r8_map_ids: ['5b46fdc'],
    },
    crashMeta(serial, host),
  );
const nativeCrash = given(
  AppNativeCrashed,
  {
    ...crashBase('emulator-5556', 'native:SIGSEGV@libnotes.so:crash', null),
    signal: 'SIGSEGV',
    fault_address: '0x0',
    abort_message: null,
    has_tombstone: true,
  },
  crashMeta('emulator-5556'),
);
const anr = given(
  AppNotResponding,
  {
    ...crashBase('emulator-5554', 'anr:com.example.notes:input-dispatching-timed-out', null),
    signature_hash: '3333333333333333',
    component: 'com.example.notes/.NotesActivity',
    reason: 'Input dispatching timed out',
  },
  crashMeta('emulator-5554'),
);

const launched = (serial: string, totalMs: number) =>
  given(
    AppLaunched,
    {
      device_serial: serial,
      package: 'com.example.notes',
      activity: 'com.example.notes/.NotesActivity',
      method: 'component',
      total_ms: totalMs,
      wait_ms: totalMs + 5,
      launch_state: 'COLD',
    },
    { ...deviceMeta(serial), package: 'com.example.notes', actor: agent },
  );
// A state-changing call naming its device (its intent), and a refused one (an outcome with no intent).
const stopIntent = given(
  McpToolCallStarted,
  { session: 'sess-a', tool: 'stop_app', toolset: 'device-admin', kind: 'D', arguments: {} },
  { stream: 'mcp:sess-a', device: 'emulator-5554', package: 'com.example.notes', actor: agent },
);
const stopOutcome = (correlation: string | null) =>
  given(
    McpToolCalled,
    {
      session: 'sess-a',
      tool: 'stop_app',
      toolset: 'device-admin',
      kind: 'D',
      outcome: correlation ? 'ok' : 'refused',
      error_code: correlation ? null : 'PACKAGE_OUT_OF_SCOPE',
      duration_ms: 40,
      summary: 'stopped',
      arguments: {},
    },
    { stream: 'mcp:sess-a', device: 'emulator-5554', package: 'com.example.notes', correlation, actor: agent },
  );
const debugSessionParts: [GivenEvent[], GivenEvent[], GivenEvent[]] = [
  [
    buildStarted('b1'),
    buildFinished('b1', 'success'),
    installed('emulator-5554', 1, 'b1'),
    installed('emulator-5556', 1, null),
    launched('emulator-5554', 420),
    javaCrash('emulator-5554', 'b1'),
    stopIntent,
  ],
  [
    stopOutcome(null),
    given(
      NetworkChanged,
      {
        device_serial: 'emulator-5554',
        requested: { wifi: false, mobile_data: null, airplane_mode: null },
        previous: { wifi: true, mobile_data: true, airplane_mode: false },
        current: { wifi: false, mobile_data: true, airplane_mode: false },
      },
      { ...deviceMeta('emulator-5554'), actor: agent },
    ),
    given(
      UiTapped,
      {
        device_serial: 'emulator-5554',
        foreground_package: 'com.example.notes',
        screen_hash_before: 'aaaaaaaaaaaa',
        screen_hash_after: 'bbbbbbbbbbbb',
        target: {
          path: null,
          resource_id: 'com.example.notes:id/crash',
          text: null,
          content_desc: null,
          class_name: null,
          x: 1,
          y: 2,
        },
        long_press: false,
      },
      { ...deviceMeta('emulator-5554'), actor: agent },
    ),
    given(
      AppExitReasonsRead,
      {
        device_serial: 'emulator-5554',
        package: 'com.example.notes',
        total: 2,
        reasons: { 'APP CRASH(EXCEPTION)': 2 },
        newest: null,
      },
      { ...deviceMeta('emulator-5554'), package: 'com.example.notes', actor: agent },
    ),
    buildStarted('b3'),
    buildFinished('b3', 'success'),
    installed('emulator-5554', 2, 'b3'),
  ],
  [
    launched('emulator-5554', 380),
    given(
      AppStopped,
      { device_serial: 'emulator-5554', package: 'com.example.notes', was_running: true },
      { ...deviceMeta('emulator-5554'), package: 'com.example.notes', actor: agent },
    ),
    given(
      AppUninstallObserved,
      { device_serial: 'emulator-5556', package: 'com.example.notes', observed_by: 'dump_app_info' },
      { ...deviceMeta('emulator-5556'), package: 'com.example.notes', actor: agent },
    ),
    anr,
    // Reinstalled by hand after the uninstall: an observed install opens a fourth session.
    given(
      AppInstallObserved,
      {
        device_serial: 'emulator-5556',
        package: 'com.example.notes',
        version_code: 3,
        version_name: '1.3',
        last_update_time: '2026-11-30 18:00:00',
        apk_sha256: null,
        build_id: null,
        observed_by: 'dump_app_info',
      },
      { ...deviceMeta('emulator-5556'), package: 'com.example.notes', actor: agent },
    ),
  ],
];

export interface Case {
  readonly projection: Projection;
  /** Appended by this process, then by the child process, then by this process again. */
  readonly parts: readonly [GivenEvent[], GivenEvent[], GivenEvent[]];
  /** Rows each table must hold afterwards, so an empty read model cannot pass. */
  readonly rowCounts: Record<string, number>;
}

export const cases: Case[] = [
  {
    projection: allProjections.find((p) => p.name === 'mcp_activity')!,
    parts: [
      [session('s1'), toolCall('s1', 'get_project_info', 'ok')],
      [session('s2'), toolCall('s2', 'list_devices', 'error'), toolCall('s1', 'get_build_status', 'ok')],
      [given(McpSessionEnded, { session: 's1', reason: 'stdin closed', calls: 2 }, { stream: 'mcp:s1', actor: agent })],
    ],
    rowCounts: { mcp_sessions: 2, mcp_tool_calls: 3 },
  },
  {
    projection: allProjections.find((p) => p.name === 'trusted_projects')!,
    parts: [
      [given(ProjectTrusted, { root, by: 'cli', confirmed: 'flag' }, { stream: `project:${root}`, actor: cli })],
      [
        given(ProjectTrusted, { root: '/work/other', by: 'cli' }, { stream: 'project:/work/other', actor: cli }),
        given(ProjectUntrusted, { root, by: 'cli' }, { stream: `project:${root}`, actor: cli }),
      ],
      [given(ProjectTrusted, { root, by: 'cli', confirmed: 'prompt' }, { stream: `project:${root}`, actor: cli })],
    ],
    rowCounts: { trusted_projects: 2 },
  },
  {
    projection: allProjections.find((p) => p.name === 'build_history')!,
    parts: [
      [buildStarted('b1'), buildStarted('b2')],
      [
        buildFinished('b1', 'success'),
        given(
          BuildCancelRequested,
          { build_id: 'b2', requested_by: 'jest', via: 'cancel_build' },
          { stream: 'build:b2', correlation: 'b2', actor: agent },
        ),
        given(
          BuildCancelled,
          { build_id: 'b2', cancelled_by: 'jest', via: 'cancel_build' },
          { stream: 'build:b2', correlation: 'b2', actor: agent },
        ),
        given(
          VariantSelected,
          { project_root: root, module: ':app', variant: 'release', selected_by: 'jest' },
          { stream: `project:${root}`, actor: agent },
        ),
      ],
      [buildStarted('b3'), buildFinished('b3', 'failed')],
    ],
    rowCounts: { builds: 3, build_diagnostics: 3, build_apks: 1, active_variants: 1 },
  },
  {
    projection: allProjections.find((p) => p.name === 'devices')!,
    parts: [
      [
        given(DeviceConnected, { serial: 'emulator-5554', state: 'device', ...details }, deviceMeta('emulator-5554')),
        given(DeviceConnected, { serial: 'emulator-5556', state: 'offline', ...details }, deviceMeta('emulator-5556')),
      ],
      [
        given(
          DeviceStateChanged,
          { serial: 'emulator-5556', from: 'offline', to: 'device', ...details, observed_by: 'jest' },
          deviceMeta('emulator-5556'),
        ),
        given(DeviceDisconnected, { serial: 'emulator-5554', last_state: 'device' }, deviceMeta('emulator-5554')),
        // Each host's first event about a serial seen before hosts were named continues that row as its own.
        given(
          DeviceConnected,
          { serial: 'emulator-5554', state: 'device', ...details, model: null },
          deviceMetaOn('laptop-a', 'emulator-5554'),
        ),
        given(
          DeviceConnected,
          { serial: 'emulator-5554', state: 'offline', ...details },
          deviceMetaOn('laptop-b', 'emulator-5554'),
        ),
      ],
      [
        given(DeviceConnected, { serial: 'emulator-5554', state: 'device', ...details }, deviceMeta('emulator-5554')),
        given(
          DeviceDisconnected,
          { serial: 'emulator-5554', last_state: 'offline' },
          deviceMetaOn('laptop-b', 'emulator-5554'),
        ),
        given(
          DeviceDisconnected,
          { serial: 'emulator-5556', last_state: 'device' },
          deviceMetaOn('laptop-a', 'emulator-5556'),
        ),
      ],
    ],
    // One row per host and serial: '' (no host) 5554 and 5556, laptop-a 5554 and 5556, laptop-b 5554.
    rowCounts: { devices: 5 },
  },
  {
    projection: allProjections.find((p) => p.name === 'installed_builds')!,
    parts: [
      [installed('emulator-5554', 1, 'b1'), installed('emulator-5554', 1, 'b1', 'laptop-a')],
      [
        installed('emulator-5556', 1, null),
        installed('emulator-5554', 2, null),
        installed('emulator-5554', 2, null, 'laptop-b'),
      ],
      [installed('emulator-5556', 2, 'b3'), installed('emulator-5554', 2, 'b3', 'laptop-a')],
    ],
    // One row per host, device and package: '' (no host) 5554 and 5556, laptop-a 5554, laptop-b 5554.
    rowCounts: { installed_builds: 4 },
  },
  {
    projection: allProjections.find((p) => p.name === 'crashes')!,
    parts: [
      [javaCrash('emulator-5554', 'b1'), nativeCrash],
      [javaCrash('emulator-5556', 'b1'), anr],
      [javaCrash('emulator-5554', null)],
    ],
    rowCounts: { crash_groups: 3, crash_group_builds: 1, crashes: 5 },
  },
  {
    projection: allProjections.find((p) => p.name === 'debug_sessions')!,
    parts: debugSessionParts,
    // Sessions: 5554 (crashed, superseded), 5556 (ended), 5554 again (launched, stopped, ANR), 5556 observed.
    // Timeline: launch, crash, stop intent, refused outcome, network, tap, exit reasons | ended | launch, stop, ANR.
    rowCounts: { debug_sessions: 4, debug_session_timeline: 11, debug_session_builds: 2, debug_sessions_pruned: 0 },
  },
];
