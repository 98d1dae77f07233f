import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { adbHostRequest, startOwnedAdbServer, type OwnedAdbServer } from '../android/adb-server-process.js';
import { locateAdb } from '../android/sdk-locator.js';
import { cliActor } from '../shared/actor.js';
import { createContainer } from '../kernel/composition-root.js';
import { packagePath } from '../kernel/package-root.js';
import { resolveHome } from '../kernel/paths.js';
import { eventLogLocation, isPostgresStore, storeOption } from '../kernel/store-location.js';
import { redactLocation } from '../events/postgres/postgres-location.js';
import { TrustService } from '../plugins/core/trust-service.js';
import { pluginModules } from '../plugins/index.js';
import {
  freeEmulatorPort,
  startSimulatedDevice,
  waitUntilListed,
  type RunningSimulatedDevice,
} from '../sim/start-simulated-device.js';
import type { CommandInput } from '../cli/command-spec.js';
import type { demoFlags } from '../cli/command-specs.js';
import { UsageError } from '../kernel/usage-error.js';
import { collectTrustEvidence } from '../cli/trust-evidence.js';
import { demoSteps, type DemoState } from './demo-steps.js';

const out = (line = '') => process.stdout.write(`${line}\n`);

function firstText(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((c): c is { type: 'text'; text: string } => (c as { type?: string }).type === 'text');
  return text?.text ?? '';
}

export async function runDemoCommand({ values }: CommandInput<typeof demoFlags>): Promise<number> {
  let givenAdbPort: number | undefined;
  if (values['adb-port'] !== undefined) {
    givenAdbPort = Number(values['adb-port']);
    if (!Number.isInteger(givenAdbPort) || givenAdbPort <= 0 || givenAdbPort > 65535)
      throw new UsageError(`--adb-port needs a port number, got ${values['adb-port']}.`);
  }
  const wait = values['no-wait'] !== true;
  const adb = locateAdb({ env: process.env });
  if (!adb) {
    process.stderr.write(
      'droidwright demo needs adb. Install it (Debian: apt-get install adb) or set ANDROID_HOME, then run again.\n',
    );
    return 1;
  }

  let server: OwnedAdbServer | null = null;
  let device: RunningSimulatedDevice | null = null;
  let client: Client | null = null;
  const workDir = mkdtempSync(join(tmpdir(), 'droidwright-demo-'));
  let trustedProject: { trust: TrustService; root: string } | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = (): Promise<void> => (cleaning ??= stopEverything());
  const stopEverything = async () => {
    await client?.close().catch(() => undefined);
    await device?.stop().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    // A trust grant must not outlive its project: a later directory at the same /tmp path would inherit it.
    if (trustedProject) {
      try {
        trustedProject.trust.untrust(trustedProject.root, cliActor());
      } catch {
        // The log may be unwritable by now; the directory is removed below either way.
      }
    }
    rmSync(workDir, { recursive: true, force: true });
  };

  // Ctrl-C at any moment stops what the demo started; while the session runs, that means leaving early.
  let waitForStop: (() => void) | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (waitForStop) return waitForStop();
    process.stderr.write(`\n${signal}: stopping the demo's device and adb server.\n`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    if (givenAdbPort === undefined) server = await startOwnedAdbServer(adb.path);
    const port = givenAdbPort ?? server!.port;
    // Emulator mode, where every device-admin tool works: a TCP serial looks like wireless adb, on which Wi-Fi and
    // airplane-mode toggles are refused. The device tells the adb server about itself, as an emulator does.
    device = await startSimulatedDevice({ emulatorPort: await freeEmulatorPort() });
    await adbHostRequest(port, `host:emulator:${device.port}`);
    await waitUntilListed(port, device.serial);
    out(`• adb server on port ${port}${server ? ` (pid ${server.pid}, started for this demo)` : ''}`);
    out(`• simulated device ${device.serial} (scenario: notes app)`);

    const projectDir = join(workDir, 'notes-app');
    cpSync(packagePath('examples', 'notes-app'), projectDir, { recursive: true });
    const home = resolveHome();
    // --store (as $DROIDWRIGHT_STORE) reaches the `droidwright mcp` below through the environment it inherits.
    const store = storeOption(process.env);
    const container = createContainer(
      { home, ...store, cwd: projectDir, projectPath: projectDir, readOnly: false, env: process.env },
      pluginModules,
    );
    // The demo plays the developer here: trusting is a terminal action, recorded like `droidwright trust`.
    const trust = container.get(TrustService);
    trust.trust(projectDir, cliActor(), collectTrustEvidence('demo'));
    trustedProject = { trust, root: projectDir };
    out(`• demo project ${projectDir} (trusted, as \`droidwright trust\` would)`);
    const log = eventLogLocation({ home, ...store });
    out(`• event log ${isPostgresStore(log) ? redactLocation(log) : log}`);
    out();

    const entry = process.argv[1];
    if (!entry || !existsSync(entry))
      throw new Error('Cannot find the droidwright entry script to spawn `droidwright mcp`.');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [entry, 'mcp', '--project', projectDir],
      env: {
        ...(process.env as Record<string, string>),
        ANDROID_ADB_SERVER_PORT: String(port),
        DROIDWRIGHT_HOME: home,
      },
      stderr: 'ignore',
    });
    client = new Client({ name: 'droidwright-demo', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    out(`An MCP client connected to \`droidwright mcp\`: ${tools.length} tools.`);
    out();

    const state: DemoState = { serial: device.serial, projectDir };
    let failures = 0;
    for (const step of demoSteps) {
      const args = step.args(state);
      out(`→ ${step.tool} ${JSON.stringify(args)}`);
      out(`  ${step.why}`);
      let result: { content?: unknown; structuredContent?: Record<string, unknown>; isError?: boolean };
      try {
        result = (await client.callTool({ name: step.tool, arguments: args })) as typeof result;
      } catch (error) {
        // Unknown tools and malformed requests are JSON-RPC errors; refusals are isError results below.
        if (!step.expectError) failures++;
        out(`✗ refused: ${(error as Error).message}`);
        out();
        continue;
      }
      const text = firstText(result).split('\n')[0];
      if (result.isError && !step.expectError) failures++;
      out(`${result.isError ? '✗' : '←'} ${text}`);
      if (result.structuredContent) step.after?.(result.structuredContent, state);
      out();
    }

    await client.close();
    client = null;
    out(
      failures === 0
        ? 'The scripted session completed.'
        : `The scripted session had ${failures} unexpected failure(s).`,
    );
    out();
    out('What happened is in the event log:');
    out('  droidwright events list --limit 30');
    out('  droidwright events verify');
    if (!wait) return failures === 0 ? 0 : 1;

    out();
    out('The simulated device is still running. Point your agent at it:');
    out(`  export ANDROID_ADB_SERVER_PORT=${port}`);
    out(`  adb devices                       # lists ${device.serial}`);
    out(
      `  claude mcp add droidwright -e ANDROID_ADB_SERVER_PORT=${port} -- npx droidwright mcp --project ${projectDir}`,
    );
    out(
      `  codex mcp add droidwright --env ANDROID_ADB_SERVER_PORT=${port} -- npx droidwright mcp --project ${projectDir}`,
    );
    out('Press Ctrl-C to stop the device and the adb server.');
    await new Promise<void>((resolve) => {
      waitForStop = resolve;
      void device!.stopped.then(resolve);
    });
    return 0;
  } catch (error) {
    process.stderr.write(`droidwright demo failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
