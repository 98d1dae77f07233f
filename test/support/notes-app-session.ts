// The set-up the end-to-end loops over the demo project share: a real adb server, the simulated phone on it,
// a copy of examples/notes-app (trusted through the CLI) and an MCP client serving it.
import { cpSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from '@jest/globals';
import type { RunningSimulatedDevice } from '../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from './adb-server.js';
import { type CliEnv, type McpTestClient, runCli, startMcpClient } from './mcp-client.js';
import { startSimOnAdb } from './sim-device.js';

export interface NotesAppSession {
  adb: TestAdbServer;
  phone: RunningSimulatedDevice;
  env: CliEnv;
  /** The copy's real path (symlinks resolved, as the server reports it). */
  project: string;
  mcp: McpTestClient;
  /** Closes the client, then stops the phone and the adb server by PID. */
  stop(): Promise<void>;
}

/** `prepare` edits the copy before it is trusted and served (a source file, a shared configuration). */
export async function startNotesAppSession(
  home: string,
  prepare: (project: string) => void = () => {},
): Promise<NotesAppSession> {
  const adb = await startAdbServer();
  let phone: RunningSimulatedDevice | undefined;
  try {
    phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
    const env: CliEnv = { home: join(home, 'data'), adbPort: adb.port };
    const copy = join(home, 'notes-app');
    cpSync(resolve('examples/notes-app'), copy, { recursive: true });
    const project = realpathSync(copy);
    prepare(project);
    expect((await runCli(env, ['trust', '--yes', project])).code).toBe(0);
    const mcp = await startMcpClient(env, ['--project', project]);
    const running = phone;
    return {
      adb,
      phone: running,
      env,
      project,
      mcp,
      async stop() {
        await mcp.close();
        await running.stop();
        await adb.stop();
      },
    };
  } catch (error) {
    await phone?.stop();
    await adb.stop();
    throw error;
  }
}
