import 'reflect-metadata';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { agentActor } from '../../support/event-store-fixtures.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { writeManyVariantsProject } from '../../support/large-project.js';
import { startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createTempHome } from '../../support/temp-home.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { WIRE_LIMIT_BYTES } from '../../../src/kernel/bounded-output.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { withinListingBudget } from '../../../src/plugins/build/services/source-snapshot.js';
import { AppCrashed } from '../../../src/plugins/logcat/logcat.events.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { openTestLineStore } from '../../integration/logcat/line-store-support.js';

/*
 * No tool answers more than 128 KiB on the wire, whatever the arguments: every tool is called through
 * the built CLI and the SDK's real client, with the arguments that make its answer largest, against a
 * log seeded with many builds, diagnostics, sessions and events, a 6,912-variant project, a 2,000-line
 * build log of long lines, and a phone whose app requests hundreds of permissions.
 */

type Result = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: any };

const BUILDS = 150;
const SESSIONS = 400;
const DIAGNOSTICS = 250;
const CRASH_GROUPS = 230;

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let root: string;
let mcp: McpTestClient;
const sizes = new Map<string, number>();

/** The JSON of the whole result message (the JSON-RPC envelope adds a few dozen bytes). */
function wireSize(result: unknown): number {
  return Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
}

async function call(c: McpTestClient, name: string, args: Record<string, unknown>): Promise<Result | McpError> {
  try {
    const result = (await c.client.callTool({ name, arguments: args })) as Result;
    sizes.set(name, Math.max(sizes.get(name) ?? 0, wireSize(result)));
    return result;
  } catch (error) {
    // Refusals still answered as JSON-RPC errors carry one message; their size is bounded by the adapter.
    if (error instanceof McpError) {
      sizes.set(
        name,
        Math.max(sizes.get(name) ?? 0, wireSize({ error: { code: error.code, message: error.message } })),
      );
      return error;
    }
    throw error;
  }
}

function structured(result: Result | McpError): any {
  if (result instanceof McpError) throw result;
  if (result.isError) throw new Error(result.content.map((c) => c.text).join(' '));
  return result.structuredContent;
}

/** Writes, through the real event store, what months of heavy use leave behind. */
function seedLog(projectRoot: string, logPath: string): string {
  const container = createContainer(
    { home: home.home, cwd: projectRoot, projectPath: projectRoot, readOnly: false, env: process.env },
    pluginModules,
  );
  try {
    const store = container.get<EventStoreProvider>(EventStoreProvider)();
    const long = (label: string, n: number) => `${label} ${'x'.repeat(n)}`;
    let lastBuild = '';
    for (let b = 0; b < BUILDS; b++) {
      const id = `b${String(b).padStart(4, '0')}${'f'.repeat(20)}`;
      lastBuild = id;
      store.appendMany([
        {
          type: 'build.started',
          stream: `build:${id}`,
          correlation: id,
          actor: agentActor,
          data: {
            build_id: id,
            project_root: projectRoot,
            kind: 'build',
            tasks: Array.from({ length: 20 }, (_, t) => `:app:assembleD0f${t}D1f0D2f0Debug`),
            args: [],
            module: ':app',
            variant: 'd0f0D1f0D2f0Debug',
            pid: process.pid,
            timeout_sec: 600,
            log_path: logPath,
            // As many changed files as build.started may list, each build's different: compare_builds at its largest.
            provenance: {
              git: {
                commit: 'c'.repeat(40),
                branch: long('feature/branch', 200),
                dirty: true,
                changed_files: 5000,
                files: withinListingBudget(
                  Array.from({ length: 500 }, (_, f) => ({
                    path: `app/src/main/kotlin/b${b}/${long(`File${f}`, 150)}.kt`,
                    change: 'modified' as const,
                    sha256: 'd'.repeat(64),
                    git_blob: 'e'.repeat(40),
                  })),
                ),
                files_omitted: 4500,
              },
              build_files: [],
              gradle_version: long('8.9', 100),
              agp_version: long('8.5.0', 100),
              jdk: { java_home: null, source: null, version: long('17', 100) },
            },
          },
        },
      ]);
      store.appendMany([
        {
          type: 'build.finished',
          stream: `build:${id}`,
          correlation: id,
          actor: agentActor,
          data: {
            build_id: id,
            status: 'failed',
            duration_ms: 1000,
            exit_code: 1,
            signal: null,
            reason: long('Compilation failed', 3000),
            cancelled_by: null,
            diagnostic_counts: { error: DIAGNOSTICS, warning: 0, info: 0 },
            diagnostics: Array.from({ length: b === BUILDS - 1 ? DIAGNOSTICS : 1 }, (_, d) => ({
              severity: 'error',
              source: 'kotlin',
              file: `/project/app/src/main/kotlin/com/example/File${d}.kt`,
              line: d + 1,
              column: null,
              message: long(`Unresolved reference "q${d}" \u0001`, 600),
              task: ':app:compileKotlin',
            })),
            diagnostics_total: DIAGNOSTICS,
            apks: Array.from({ length: 100 }, (_, a) => ({
              path: `/project/app/build/outputs/apk/v${a}/app-v${a}.apk`,
              module: ':app',
              variant: `v${a}`,
              sha256: 'a'.repeat(64),
              size: 1000,
              package: 'com.example.many',
              version_code: 1,
              version_name: '1.0',
            })),
            mappings: [],
            tests: null,
            log: { path: logPath, sha256: 'b'.repeat(64), bytes: 1, lines: 2000, truncated_lines: 0 },
          },
        },
      ]);
    }
    for (let s = 0; s < SESSIONS; s++) {
      const session = `session-${s}-${'e'.repeat(24)}`;
      store.appendMany([
        {
          type: 'mcp.session_started',
          stream: `mcp:${session}`,
          actor: { kind: 'agent', session, client: 'c', pid: 1 },
          data: {
            session,
            client_name: long('client', 200),
            client_version: '1.0',
            protocol_version: '2025-11-25',
            pid: 1,
            toolsets: ['core', 'build', 'device-admin'],
            read_only: false,
            project_root: projectRoot,
          },
        },
      ]);
    }
    // Crash groups past the list maximum, each crash with its whole bounded block of escaping-heavy lines.
    for (let g = 0; g < CRASH_GROUPS; g++) {
      const lines = Array.from(
        { length: 120 },
        (_, i) => `11-30 14:00:00.000  4242  4242 E AndroidRuntime: \tat "x" \u0001 ${i} ${'z'.repeat(930)}`,
      );
      store.append(
        AppCrashed,
        {
          device_serial: 'emulator-5554',
          package: 'com.example.many',
          pid: 4242,
          process: 'com.example.many',
          signature: `java:java.lang.IllegalStateException@${long(`com.example.many.C${g}`, 1800)}`,
          signature_hash: g.toString(16).padStart(16, '0'),
          time_ms: 1_764_500_000_000 + g,
          first_line_seq: null,
          last_line_seq: null,
          lines,
          truncated: true,
          build: null,
          thread: long('main', 500),
          exception_class: 'java.lang.IllegalStateException',
          message: long('"message"', 3900),
          r8_map_ids: [],
        },
        { stream: 'device:emulator-5554', device: 'emulator-5554', package: 'com.example.many', actor: agentActor },
      );
    }
    return lastBuild;
  } finally {
    disposeContainer(container);
  }
}

beforeAll(async () => {
  home = createTempHome('response-size');
  root = realpathSync(writeManyVariantsProject(join(home.home, 'many'), [12, 12, 24]));
  const logDir = join(home.home, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, 'big.log');
  // 2,000 lines of 600 characters, with quotes and control characters that escaping inflates.
  writeFileSync(
    logPath,
    Array.from({ length: 2000 }, (_, i) => `line ${i} "quoted" \u0001 ${'y'.repeat(570)}`).join('\n'),
  );
  seedLog(root, logPath);
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  const outputs = join(root, 'app', 'build', 'outputs', 'apk', 'debug');
  mkdirSync(outputs, { recursive: true });
  await buildTestApk({
    packageName: 'com.example.many',
    versionCode: 1,
    versionName: '1.0',
    activities: ['.MainActivity'],
    permissions: Array.from({ length: 400 }, (_, i) => `com.example.many.permission.CUSTOM_PERMISSION_NUMBER_${i}`),
    outDir: outputs,
  });
  mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, ['--project', root]);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await phone?.stop();
  await adb?.stop();
  home?.cleanup();
});

describe('every tool answers within 128 KiB on the wire', () => {
  it('bounds the big cases and pages them with a cursor', async () => {
    const variants = structured(await call(mcp, 'list_build_variants', { limit: 1000 }));
    expect(variants).toMatchObject({ total: 6912, has_more: true, modules: [{ module: ':app', variant_total: 6912 }] });
    const second = structured(await call(mcp, 'list_build_variants', { limit: 1000, cursor: variants.next_cursor }));
    expect(second.variants[0].name).not.toBe(variants.variants[0].name);

    const history = structured(await call(mcp, 'list_build_history', { limit: 100 }));
    expect(history).toMatchObject({ total: BUILDS, has_more: true });
    expect(history.builds[0].apks_total).toBe(100);

    const diagnostics = structured(await call(mcp, 'get_build_errors', { limit: 500 }));
    expect(diagnostics).toMatchObject({ total: DIAGNOSTICS, has_more: true });

    const log = structured(await call(mcp, 'get_build_log', { lines: 2000 }));
    expect(log).toMatchObject({ matched: 2000, has_more: true, truncated: true });
    expect(log.lines.at(-1)).toContain('line 1999');

    const sessions = structured(await call(mcp, 'list_mcp_sessions', { limit: 100 }));
    expect(sessions.has_more).toBe(true);

    const events = structured(await call(mcp, 'query_events', { limit: 500, verbose: true }));
    expect(events.has_more).toBe(true);
    const compact = structured(await call(mcp, 'query_events', { limit: 500, exclude_types: ['mcp.*'] }));
    expect(compact.events.every((e: { type: string }) => !e.type.startsWith('mcp.'))).toBe(true);
    expect(compact.events[0]).toEqual(
      expect.objectContaining({ seq: expect.any(Number), type: expect.any(String), summary: expect.any(String) }),
    );
    expect(compact.events[0]).not.toHaveProperty('data');

    const types = structured(await call(mcp, 'list_event_types', {}));
    expect(types.types).toContainEqual(expect.objectContaining({ type: 'app.installed' }));
  }, 120_000);

  it('calls every tool with its largest arguments', async () => {
    const serial = phone.serial;
    const apk = 'app/build/outputs/apk/debug/com.example.many-1.apk';
    const pkg = 'com.example.many';
    await call(mcp, 'install_apk', { device_serial: serial, apk_path: apk });
    const calls: [string, Record<string, unknown>][] = [
      ['get_project_info', {}],
      ['run_health_check', {}],
      ['query_events', { limit: 500, verbose: true }],
      ['list_event_types', {}],
      ['list_mcp_sessions', { limit: 100 }],
      ['list_devices', { limit: 200 }],
      ['get_device_info', { device_serial: serial }],
      ['dump_app_info', { device_serial: serial, package: pkg, limit: 500 }],
      ['get_memory_info', { device_serial: serial, package: pkg }],
      ['get_app_runtime_state', { device_serial: serial, package: pkg }],
      ['get_exit_reasons', { device_serial: serial, package: pkg, limit: 100 }],
      ['list_avds', { limit: 200 }],
      ['list_build_variants', { limit: 1000 }],
      ['get_build_config', { limit: 100 }],
      ['find_apk_path', {}],
      ['list_build_history', { limit: 100 }],
      ['compare_builds', { limit: 500 }],
      ['get_build_status', {}],
      ['get_build_errors', { limit: 500 }],
      ['get_build_log', { lines: 2000 }],
      ['set_active_variant', { variant: 'd0f11D1f11D2f23Release' }],
      ['cancel_build', {}],
      ['run_gradle_task', { task: 'assembleDebug', wait: false }],
      ['run_tests', { wait: false }],
      ['list_run_configurations', { limit: 100 }],
      ['build_run_configuration', { name: 'app-d0f11D1f11D2f23Release' }],
      ['run_run_configuration', { name: 'app-d0f11D1f11D2f23Release', device_serial: serial }],
      ['launch_app', { device_serial: serial, package: pkg }],
      ['open_deep_link', { device_serial: serial, uri: 'https://example.com/x', package: pkg }],
      ['open_app_settings', { device_serial: serial, package: pkg }],
      ['grant_runtime_permission', { device_serial: serial, package: pkg, permission: 'android.permission.CAMERA' }],
      ['revoke_runtime_permission', { device_serial: serial, package: pkg, permission: 'android.permission.CAMERA' }],
      ['restart_app', { device_serial: serial, package: pkg }],
      ['stop_app', { device_serial: serial, package: pkg }],
      ['set_device_orientation', { device_serial: serial, orientation: 'landscape' }],
      ['set_network_state', { device_serial: serial, mobile_data: false }],
      ['launch_avd', { name: 'Missing_AVD' }],
      ['stop_avd', { device_serial: 'emulator-5554' }],
      ['ui_tap', { device_serial: serial, x: 540, y: 1200 }],
      ['ui_tap_element', { device_serial: serial, text_contains: 'a' }],
      ['ui_fill_input', { device_serial: serial, text_contains: 'a', value: 'x'.repeat(1000) }],
      ['ui_type_text', { device_serial: serial, text: '% '.repeat(500) }],
      ['ui_type_text_unicode', { device_serial: serial, text: '€'.repeat(333) }],
      ['clear_focused_input', { device_serial: serial }],
      ['hide_soft_keyboard', { device_serial: serial }],
      ['send_ui_key', { device_serial: serial, key: 'home', times: 50 }],
      ['ui_swipe', { device_serial: serial, direction: 'up' }],
      ['ui_scroll_until_element', { device_serial: serial, text: 'Nothing here', max_swipes: 25 }],
      ['get_crash_logs', { package: pkg, count: 200 }],
      ['get_crash_stack_trace', { package: pkg }],
      // Started, then stopped: the worker must not outlive the test.
      ['start_logcat', { device_serial: serial }],
      ['get_logcat_entries', { device_serial: serial, count: 10_000 }],
      ['get_logcat_stats', { device_serial: serial }],
      ['wait_for_log', { device_serial: serial, marker: 'never printed', timeout_ms: 100 }],
      ['clear_logcat', { device_serial: serial }],
      ['stop_logcat', { device_serial: serial }],
      ['get_crash_logs', { count: 200 }],
      ['get_crash_stack_trace', {}],
      ['list_debug_sessions', { limit: 50 }],
      ['compare_debug_sessions', {}],
    ];
    // The longest lines the tools print (messages are cut at 2,000 characters), as many as a page may ask for.
    const lines = openTestLineStore(home.home);
    const long = 'é'.repeat(3000);
    lines.append(
      serial,
      Array.from({ length: 10_000 }, (_, i) => ({
        time: '',
        timeMs: 1_700_000_000_000 + i,
        pid: 4_000_000,
        tid: 4_000_000,
        level: 'E' as const,
        tag: `T${'\u0001'.repeat(100)}${i % 300}`,
        message: long,
      })),
      () => 'com.example.many',
    );
    lines.close();
    for (const [name, args] of calls) await call(mcp, name, args);
    // The install above opened a debug session that every call since has added to.
    const newest = structured(await call(mcp, 'list_debug_sessions', { limit: 1 })).sessions[0].session_id;
    const session = structured(await call(mcp, 'get_debug_session', { session_id: newest, max_events: 500 }));
    expect(session.events.length).toBeGreaterThan(20);
    // Two builds listing hundreds of long changed paths each: a page within budget, then the cursor.
    const compared = structured(await call(mcp, 'compare_builds', { limit: 500 }));
    expect(compared).toMatchObject({ has_more: true, partial: expect.any(Array) });
    expect(compared.total).toBeGreaterThan(compared.files.length);
    // The ui tools on the 2,397-node feed screen: the largest view, tree, find and screenshot there are.
    await phone.stop();
    phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, scenario: 'large-feed' } });
    await adb.adb(['-s', phone.serial, 'shell', 'am start -W -n com.example.feed/.FeedActivity']);
    const feed = phone.serial;
    const uiCalls: [string, Record<string, unknown>][] = [
      ['get_ui_hierarchy', { device_serial: feed, limit: 500 }],
      ['get_ui_hierarchy', { device_serial: feed, view: 'sparse' }],
      ['get_ui_hierarchy', { device_serial: feed, view: 'diff' }],
      ['list_clickable_elements', { device_serial: feed, limit: 500 }],
      ['find_ui_elements', { device_serial: feed, class: 'TextView', max: 100 }],
      ['find_ui_parent', { device_serial: feed, element: '0.0.1.0.0' }],
      ['compare_ui_state', { device_serial: feed, max_entries: 200 }],
      ['wait_for_element', { device_serial: feed, class: 'TextView', timeout_ms: 2000 }],
      ['ui_wait_for_idle', { device_serial: feed }],
      ['ui_assert_element', { device_serial: feed, class: 'ImageButton' }],
      ['screenshot', { device_serial: feed, max_dimension: 8192 }],
      ['screenshot', { device_serial: feed, full_size: true }],
    ];
    for (const [name, args] of uiCalls) {
      const result = await call(mcp, name, args);
      expect(result instanceof McpError || !result.isError).toBe(true);
    }
    const { tools } = await mcp.client.listTools();
    expect([...sizes.keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    const over = [...sizes].filter(([, bytes]) => bytes > WIRE_LIMIT_BYTES);
    expect(over).toEqual([]);
  }, 180_000);

  it('answers a build file of 20 million variants at once with a capped list', async () => {
    const bomb = writeManyVariantsProject(join(home.home, 'bomb'), [10, 10, 10, 10, 10, 10, 10]);
    const client = await startMcpClient({ home: home.home, adbPort: adb.port }, ['--project', bomb]);
    try {
      const result = await call(client, 'list_build_variants', { limit: 1000 });
      const data = structured(result);
      expect(data.modules[0]).toMatchObject({ variant_total: 20_000_000, listed_only: 10_000 });
      expect(data.has_more).toBe(true);
      expect(wireSize(result)).toBeLessThanOrEqual(WIRE_LIMIT_BYTES);
      const config = structured(await call(client, 'get_build_config', {}));
      expect(config.modules[0].product_flavor_total).toBe(70);
      const runs = await call(client, 'list_run_configurations', { limit: 100 });
      expect(structured(runs)).toMatchObject({ total: 2000, has_more: true, derived_capped: true });
      expect(wireSize(runs)).toBeLessThanOrEqual(WIRE_LIMIT_BYTES);
    } finally {
      await client.close();
    }
  }, 60_000);
});
