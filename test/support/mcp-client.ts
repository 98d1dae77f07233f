import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { agentEnvironmentMarkers } from '../../src/cli/trust-evidence.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { isAlive, sleep } from './wait.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(REPO_ROOT, 'dist', 'cli.js');

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the e2e tests.`);
}

export { freePort } from './free-port.js';

export interface CliEnv {
  readonly home: string;
  readonly adbPort: number;
  readonly extra?: Record<string, string>;
}

function childEnv(env: CliEnv): Record<string, string> {
  const base: Record<string, string> = {};
  // A developer may run the suite from an AI coding tool's shell; its markers would make `trust` refuse.
  const agentMarkers = agentEnvironmentMarkers(process.env);
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !agentMarkers.includes(key)) base[key] = value;
  return { ...base, DROIDWRIGHT_HOME: env.home, ANDROID_ADB_SERVER_PORT: String(env.adbPort), ...env.extra };
}

/** The home when it is a directory (no Gradle project there), else the temp directory. */
function defaultCwd(env: CliEnv): string {
  try {
    return statSync(env.home).isDirectory() ? env.home : tmpdir();
  } catch {
    return tmpdir();
  }
}

/** Stops a process we started: SIGTERM, then SIGKILL if it lingers. */
export async function stopPid(pid: number | null | undefined, graceMs = 3000): Promise<void> {
  if (!pid || !isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && isAlive(pid)) await sleep(25);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}

export interface McpTestClient {
  readonly client: Client;
  readonly pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `node dist/cli.js mcp ...` and connects the SDK's real Client over stdio. */
export async function startMcpClient(
  env: CliEnv,
  args: readonly string[] = [],
  options: { cwd?: string; clientName?: string; capabilities?: ClientCapabilities } = {},
): Promise<McpTestClient> {
  assertBuilt();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: childEnv(env),
    cwd: options.cwd ?? defaultCwd(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: options.clientName ?? 'droidwright-e2e', version: '1.2.3' },
    options.capabilities ? { capabilities: options.capabilities } : undefined,
  );
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    client,
    pid,
    stderr: () => stderr,
    async close() {
      await client.close().catch(() => undefined);
      await stopPid(pid);
    },
  };
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/cli.js <args>` to completion (stdin closed unless `input` is given). */
export function runCli(
  env: CliEnv,
  args: readonly string[],
  options: { cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: childEnv(env),
      cwd: options.cwd ?? defaultCwd(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => void stopPid(child.pid), options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export type ToolCallResult = Awaited<ReturnType<McpTestClient['client']['callTool']>>;

/** A successful call's structured result; fails the test with the error text when the call was an error. */
export function resultData(result: ToolCallResult): Record<string, unknown> {
  expect(result.isError ? JSON.stringify(result.content) : '').toBe('');
  return result.structuredContent as Record<string, unknown>;
}

/** An error result's text; fails the test when the call succeeded. */
export function resultErrorText(result: ToolCallResult): string {
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]!.text;
}
