import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adbHostRequest, freePort, loadSources, pidsWithHome } from './bench-support.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'dist', 'cli.js');

async function loadModules() {
  return loadSources(
    'droidwright-bench-ui/ui',
    "export { startSimulatedDevice } from './src/sim/start-simulated-device.ts';\n" +
      "export { fitPng, pngSize } from './src/plugins/ui/services/screenshot-service.ts';\n",
  );
}

function stats(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { name, runs: samples.length, median: at(0.5), p90: at(0.9), min: sorted[0] };
}

async function connectDevice(port, device) {
  await adbHostRequest(port, `host:connect:${device.serial}`);
  for (let i = 0; !(await adbHostRequest(port, 'host:devices')).includes(`${device.serial}\tdevice`); i++) {
    if (i > 300) throw new Error('device did not come online');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The same screens through the most-used peer, @mobilenext/mobile-mcp, when installed (`npm run bench:peers`, kept out
 * of the dependencies: its platform binaries are not all on every registry, which breaks `npm ci`): its
 * list-elements bytes (default text and json) and latency against ours. It sends usage analytics unless
 * MOBILEMCP_DISABLE_TELEMETRY=1 (set here); run the benchmark without network (`unshare -rn`). It gets a HOME of
 * its own, and the mobilecli daemon it leaves is stopped by PID.
 */
async function peerComparison(screens, env, Client, StdioClientTransport) {
  const { existsSync } = await import('node:fs');
  const entry = [
    join(root, 'node_modules/.cache/bench-peers/node_modules/@mobilenext/mobile-mcp/lib/index.js'),
    join(root, 'node_modules/@mobilenext/mobile-mcp/lib/index.js'),
  ].find((path) => existsSync(path));
  if (!entry) return [{ name: 'mobile-mcp not installed (npm run bench:peers): no peer comparison' }];
  const peerHome = mkdtempSync(join(tmpdir(), 'droidwright-bench-peer-home-'));
  const peer = new Client({ name: 'bench-ui-peer', version: '0' });
  const rows = [];
  try {
    await peer.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [entry],
        env: { ...env, HOME: peerHome, MOBILEMCP_DISABLE_TELEMETRY: '1' },
        cwd: peerHome,
        stderr: 'ignore',
      }),
    );
    for (const screen of screens) {
      const list = (format) =>
        peer.callTool({ name: 'mobile_list_elements_on_screen', arguments: { device: screen.serial, format } });
      const first = await list('text');
      if (first.isError) {
        rows.push({ name: `peer list-elements failed: ${JSON.stringify(first.content).slice(0, 60)}` });
        continue;
      }
      const samples = [];
      let text = first;
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        text = await list('text');
        samples.push(performance.now() - t0);
      }
      rows.push(stats(`mobile-mcp list-elements: ${screen.label}`, samples));
      const json = await list('json');
      const bytes = (result) => Buffer.byteLength(result.content.map((c) => c.text ?? '').join(''));
      rows.push({ name: '  its bytes, text format (default)', median: bytes(text) });
      rows.push({ name: '  its bytes, json format', median: bytes(json) });
    }
    const shots = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await peer.callTool({ name: 'mobile_take_screenshot', arguments: { device: screens[0].serial } });
      shots.push(performance.now() - t0);
    }
    rows.push(stats('mobile-mcp take_screenshot (login)', shots));
  } catch (error) {
    rows.push({ name: `peer comparison failed: ${String(error.message ?? error).slice(0, 60)}` });
  } finally {
    await peer.close().catch(() => undefined);
    for (const pid of pidsWithHome(peerHome)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(peerHome, { recursive: true, force: true });
  }
  return rows;
}

export async function runUiBenchmarks() {
  const { startSimulatedDevice, fitPng, pngSize } = await loadModules();
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-ui-'));
  const port = await freePort();
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(port), DROIDWRIGHT_HOME: home };
  const server = spawn('adb', ['-P', String(port), 'nodaemon', 'server'], { env, stdio: 'ignore' });
  const devices = [];
  let client;
  const rows = [];
  try {
    for (let i = 0; ; i++) {
      try {
        await adbHostRequest(port, 'host:version');
        break;
      } catch (error) {
        if (i > 300) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const screens = [
      { label: 'login (notes-app)', scenario: 'notes-app', component: 'com.example.notes/.LoginActivity' },
      { label: 'feed, 2,397 nodes', scenario: 'large-feed', component: 'com.example.feed/.FeedActivity' },
    ];
    for (const screen of screens) {
      const device = await startSimulatedDevice({
        port: 0,
        androidOptions: { scenario: screen.scenario, backgroundLogRate: 0 },
      });
      devices.push(device);
      await connectDevice(port, device);
      device.android.state.am.launch(...screen.component.split('/'));
      screen.serial = device.serial;
    }
    client = new Client({ name: 'bench-ui', version: '0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--toolsets', 'ui'], env, cwd: home }),
    );
    for (const screen of screens) {
      const read = async () =>
        client.callTool({ name: 'get_ui_hierarchy', arguments: { device_serial: screen.serial } });
      await read();
      const samples = [];
      let result;
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        result = await read();
        samples.push(performance.now() - t0);
      }
      rows.push(stats(`get_ui_hierarchy: ${screen.label}`, samples));
      const data = result.structuredContent;
      rows.push({
        name: `  interactive view bytes (${data.rows.length}/${data.total} rows)`,
        median: Buffer.byteLength(JSON.stringify(data)),
      });
    }
    const png = await (async () => {
      const { stdout } = await new Promise((resolve, reject) => {
        const chunks = [];
        const child = spawn('adb', ['-P', String(port), '-s', screens[0].serial, 'exec-out', 'screencap', '-p'], {
          env,
        });
        child.stdout.on('data', (c) => chunks.push(c));
        child.once('error', reject);
        child.once('close', () => resolve({ stdout: Buffer.concat(chunks) }));
      });
      return stdout;
    })();
    const size = pngSize(png);
    await fitPng(png, size, 1280, Number.POSITIVE_INFINITY);
    const downscale = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await fitPng(png, size, 1280, Number.POSITIVE_INFINITY);
      downscale.push(performance.now() - t0);
    }
    rows.push(stats(`screenshot downscale ${size.width}×${size.height} → 1280`, downscale));
    rows.push(...(await peerComparison(screens, env, Client, StdioClientTransport)));
    return rows;
  } finally {
    await client?.close().catch(() => undefined);
    for (const device of devices) await device.stop();
    await adbHostRequest(port, 'host:kill').catch(() => undefined);
    setTimeout(() => server.kill('SIGKILL'), 2000).unref();
    rmSync(home, { recursive: true, force: true });
  }
}
