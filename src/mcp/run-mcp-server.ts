import { PassThrough, type Readable } from 'node:stream';
import { format } from 'node:util';
import { createStderrLogger } from '../kernel/logger.js';
import { selectProject } from '../kernel/project-selection.js';
import type { RuntimeOptions } from '../kernel/runtime-options.js';
import { droidwrightVersion } from '../kernel/version.js';
import { CatalogFront } from './catalog-front.js';
import type { FullSession } from './full-session.js';
import { buildInstructions } from './instructions.js';
import { CATALOG_FILE, readToolCatalog } from './tool-catalog.js';
import { resolveServedTools } from './toolset-selection.js';

/** How long `droidwright mcp` may take to stop once its client goes away or it gets a signal. */
const SHUTDOWN_LIMIT_MS = 1500;
/** After a handshake with no tools/list, how long to wait before loading the rest (to record the session). */
const IDLE_LOAD_MS = 100;

/** Stdout carries only JSON-RPC: anything a dependency prints goes to stderr instead. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

/**
 * `droidwright mcp`: serves one MCP session on stdin/stdout until stdin closes or a signal arrives.
 * Resolves with the exit code. Bad flags (unknown toolset, missing --project) throw before the
 * transport starts, so the caller can exit 2 without a half-started server.
 *
 * Start-up: the handshake and the listings are answered from the build's tool catalog by CatalogFront,
 * with nothing but this module's few imports evaluated; the SDK, zod, the container and every plugin
 * (full-session.ts) are loaded in the background once the client has listed the tools (or has been idle
 * after the handshake), or at once when a message needs them. Without a catalog (sources run directly)
 * the full server reads stdin from the start.
 */
export async function runMcpServer(options: RuntimeOptions): Promise<number> {
  guardStdout();
  const logger = createStderrLogger('mcp', options.env);
  const project = selectProject({ projectPath: options.projectPath, cwd: options.cwd });
  const catalog = readToolCatalog(new URL(`./${CATALOG_FILE}`, import.meta.url), droidwrightVersion());

  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));
  let full: Promise<FullSession> | undefined;
  let loaded: FullSession | undefined;
  let front: CatalogFront | undefined;
  let ending: Promise<void> | undefined;

  const end = (reason: string): void => {
    // A second stop (the client's SIGTERM after it closed stdin) must not wait behind the first.
    if (ending) return;
    // A client that completed the handshake is on record (session started, then ended) as before.
    if (front?.handshakeComplete) front.handOver();
    ending = (full ?? Promise.resolve(undefined))
      .then(async (session) => {
        if (!session) return;
        try {
          await session.session.close(reason);
        } finally {
          session.dispose();
        }
      })
      .catch((error: unknown) => logger.error(`closing the session failed: ${(error as Error).message}`))
      .finally(() => finish(0));
    // Clients SIGKILL a server that lingers (the SDK after 2 s + 2 s): leave well before that.
    setTimeout(() => {
      loaded?.dispose();
      finish(0);
    }, SHUTDOWN_LIMIT_MS).unref();
  };
  const loadFull = (input: Readable, dropReplyTo?: string): Promise<FullSession> =>
    (full ??= import('./full-session.js')
      .then(({ startFullSession }) =>
        startFullSession(options, logger, catalog, input, () => end('transport closed'), dropReplyTo),
      )
      .then((session) => (loaded = session)));

  if (catalog) {
    const served = resolveServedTools({ toolsets: () => catalog.toolsets }, options.toolsets, options.readOnly);
    let idleTimer: NodeJS.Timeout | undefined;
    const startFront: CatalogFront = new CatalogFront({
      catalog,
      served,
      serverInfo: { name: 'droidwright', version: droidwrightVersion() },
      instructions: buildInstructions(catalog.toolsets, served, project.root, options.confirm),
      write: (line) => process.stdout.write(line),
      handOver: (replay, dropReplyTo) => {
        clearTimeout(idleTimer);
        const input = new PassThrough();
        if (replay) input.write(replay);
        loadFull(input, dropReplyTo).catch((error: unknown) => {
          logger.error(`droidwright mcp could not start its tools: ${(error as Error)?.stack ?? String(error)}`);
          finish(1);
        });
        return (text) => input.write(text);
      },
      // The client has what it needs to start; what remains loads while it reads the list.
      onListed: () => setImmediate(() => startFront.handOver()),
      onHandshake: () => {
        idleTimer = setTimeout(() => startFront.handOver(), IDLE_LOAD_MS);
      },
    });
    front = startFront;
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => startFront.push(chunk));
  } else {
    await loadFull(process.stdin);
  }
  process.stdin.once('end', () => end('stdin closed'));
  process.stdin.once('close', () => end('stdin closed'));
  process.stdout.on('error', (error: NodeJS.ErrnoException) => end(`stdout ${error.code ?? 'error'}`));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => end(signal));
  return done;
}
