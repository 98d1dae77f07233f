import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { redactLocation } from './postgres-location.js';

/**
 * PostgreSQL, synchronously. The event store's contract is synchronous (projections run inside the
 * append, as better-sqlite3 allows), while every PostgreSQL driver for Node is asynchronous. So the
 * `pg` driver runs in a worker thread and this side blocks on Atomics.wait until the worker posts the
 * reply: one round trip per statement (about 0.4 ms on loopback), bounded by a timeout, and `pg` is
 * never loaded on the main thread (nothing changes for the SQLite default).
 *
 * Two connections: `writer` (transactions, appends, side tables) and `reader` (a read-only session, so a
 * statement handed to prepareRead cannot write whatever its text says), plus a third that only LISTENs.
 * A connection that fails is dropped and made again on its next use; the call that saw the failure throws
 * StoreUnavailableError (its transaction, if any, was rolled back by the server).
 */

export type PgSession = 'writer' | 'reader';

export interface PgResult {
  readonly rows: Record<string, unknown>[];
  /** Rows inserted, updated, deleted or returned. */
  readonly rowCount: number;
}

/** An error PostgreSQL itself reported (constraint, syntax, read-only violation): `code` is the SQLSTATE. */
export class PgQueryError extends Error {
  override readonly name = 'PgQueryError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface PgSyncClientOptions {
  /** How long connecting may take. Default 10000. */
  connectTimeoutMs?: number;
  /** Longest a single statement may run (server-side statement_timeout, and this side's wait). Default 30000. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity. Default "droidwright". */
  applicationName?: string;
}

interface WorkerReply {
  rows?: Record<string, unknown>[];
  rowCount?: number;
  error?: { message: string; code?: string; connection: boolean };
}

const require = createRequire(import.meta.url);

export class PgSyncClient {
  /** host:port/database without credentials: what errors, doctor and stats may show. */
  readonly location: string;
  private readonly worker: Worker;
  private readonly requests: MessagePort;
  private readonly notifications: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly statementTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private isClosed = false;

  private constructor(url: string, options: PgSyncClientOptions) {
    this.location = describeLocation(url);
    this.statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    const requests = new MessageChannel();
    const notifications = new MessageChannel();
    this.requests = requests.port1;
    this.notifications = notifications.port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        pgPath: require.resolve('pg'),
        url,
        requests: requests.port2,
        notifications: notifications.port2,
        flag: this.flag,
        applicationName: options.applicationName ?? 'droidwright',
        connectTimeoutMs: this.connectTimeoutMs,
        statementTimeoutMs: this.statementTimeoutMs,
      },
      transferList: [requests.port2, notifications.port2],
    });
    // Neither the worker nor the notification port may keep a CLI process alive.
    this.worker.unref();
    // A worker that dies (it should not) must not take the process with it; the next call times out cleanly.
    this.worker.on('error', () => {
      this.isClosed = true;
    });
    this.notifications.on('message', (m: { channel: string; payload: string }) => {
      for (const listener of this.listeners.get(m.channel) ?? []) {
        try {
          listener(m.payload);
        } catch {
          // A listener's failure is its own; the others still hear the notification.
        }
      }
    });
    this.notifications.unref();
  }

  /** Starts the worker and proves the writer connection works (SELECT 1), or throws StoreUnavailableError. */
  static connect(url: string, options: PgSyncClientOptions = {}): PgSyncClient {
    const client = new PgSyncClient(url, options);
    try {
      client.query('writer', 'SELECT 1');
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /** One statement in PostgreSQL syntax ($1, $2 …). int8 and numeric come back as numbers, booleans as 1/0. */
  query(session: PgSession, sql: string, params: readonly unknown[] = []): PgResult {
    const reply = this.call({ op: 'query', session, sql, params: params.map(toWire) });
    return { rows: reply.rows ?? [], rowCount: reply.rowCount ?? 0 };
  }

  /** Calls `onNotify` with each NOTIFY payload on `channel` (a plain identifier). Returns the unsubscribe. */
  listen(channel: string, onNotify: (payload: string) => void): () => void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new TypeError(`Not a channel name: ${channel}`);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      this.call({ op: 'listen', channel });
    }
    set.add(onNotify);
    return () => {
      set.delete(onNotify);
    };
  }

  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    try {
      this.call({ op: 'close' }, 2000);
    } catch {
      // Terminating the worker closes its sockets anyway.
    }
    this.notifications.close();
    this.requests.close();
    void this.worker.terminate();
  }

  /**
   * Waits until the worker has flagged its reply, at most `ms`. A wake-up alone proves nothing: the worker's
   * notify for the previous call can land after that call already saw the flag and returned, waking this
   * wait before this call's reply exists. So only the flag counts; returns false on timeout.
   */
  private awaitReply(ms: number): boolean {
    const deadline = Date.now() + ms;
    while (Atomics.load(this.flag, 0) === 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.flag, 0, 0, left);
    }
    return true;
  }

  private call(message: Record<string, unknown>, timeoutMs?: number): WorkerReply {
    if (this.isClosed && message.op !== 'close') {
      throw new StoreUnavailableError(`The connection to PostgreSQL at ${this.location} was closed.`);
    }
    const wait = timeoutMs ?? this.statementTimeoutMs + this.connectTimeoutMs + 1000;
    Atomics.store(this.flag, 0, 0);
    this.requests.postMessage(message);
    if (!this.awaitReply(wait)) {
      // The worker is stuck (a network that drops packets): replace it rather than read a late reply later.
      this.isClosed = true;
      void this.worker.terminate();
      throw new StoreUnavailableError(
        `PostgreSQL at ${this.location} did not answer within ${Math.round(wait / 1000)} s. Check that the server is up and reachable from this machine; this connection was closed.`,
      );
    }
    const received = receiveMessageOnPort(this.requests);
    const reply = received?.message as WorkerReply | undefined;
    if (!reply) throw new StoreUnavailableError(`PostgreSQL worker for ${this.location} gave no reply.`);
    if (reply.error) {
      if (reply.error.connection) {
        throw new StoreUnavailableError(
          `Cannot reach the PostgreSQL event log at ${this.location}: ${reply.error.message}. Check that the server is running and reachable, that pg_hba.conf admits this host, and the credentials (the URL, PGPASSWORD or ~/.pgpass).`,
        );
      }
      throw new PgQueryError(reply.error.message, reply.error.code ?? '');
    }
    return reply;
  }
}

/** `user@host:port/database`, never the password (the URL's, or one passed as a query parameter). */
function describeLocation(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return redactLocation(url);
  }
}

function toWire(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * The worker: plain CommonJS, evaluated from this string so it needs no file of its own next to the
 * bundle or the TypeScript sources. Each request gets exactly one reply; errors carry `connection: true`
 * when the socket (not the statement) failed, and that client is replaced on the next request.
 */
const WORKER_SOURCE = String.raw`
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const parsers = {
  20: (v) => Number(v), // int8: seq, epoch ms, counts
  1700: (v) => Number(v), // numeric: sum(), avg()
  16: (v) => (v === 't' ? 1 : 0), // bool, as SQLite would give it
};
const types = { getTypeParser: (oid, format) => parsers[oid] || pg.types.getTypeParser(oid, format) };
const { requests, notifications, flag } = workerData;
const cells = new Int32Array(flag.buffer);
const clients = { writer: null, reader: null, listener: null };
// A session whose connection died inside a transaction must not reconnect silently and go on: the
// server rolled the transaction back, so every statement fails until the caller ends it.
const inTransaction = { writer: false, reader: false };
const lostTransaction = { writer: false, reader: false };
const channels = new Set();
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '28P01', '28000', '3D000']);

function isConnectionError(e, client) {
  if (!e) return false;
  if (CONNECTION_CODES.has(e.code)) return true;
  if (client && client._ending) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(String(e.message));
}

async function open(session) {
  const client = new pg.Client({
    connectionString: workerData.url,
    types,
    application_name: workerData.applicationName,
    connectionTimeoutMillis: workerData.connectTimeoutMs,
    statement_timeout: session === 'listener' ? 0 : workerData.statementTimeoutMs,
  });
  client.on('error', () => { if (clients[session] === client) clients[session] = null; });
  client.on('end', () => { if (clients[session] === client) clients[session] = null; });
  if (session === 'listener') {
    client.on('notification', (n) => notifications.postMessage({ channel: n.channel, payload: n.payload || '' }));
  }
  await client.connect();
  if (session === 'reader') await client.query('SET default_transaction_read_only = on');
  if (session === 'listener') for (const c of channels) await client.query('LISTEN ' + c);
  clients[session] = client;
  return client;
}

async function handle(m) {
  if (m.op === 'close') {
    await Promise.all(Object.values(clients).filter(Boolean).map((c) => c.end().catch(() => {})));
    return {};
  }
  if (m.op === 'listen') {
    channels.add(m.channel);
    const client = clients.listener || (await open('listener'));
    if (clients.listener === client) await client.query('LISTEN ' + m.channel);
    return {};
  }
  const begins = /^\s*(BEGIN|START\s+TRANSACTION)\b/i.test(m.sql);
  const ends = /^\s*(COMMIT|ROLLBACK|END|ABORT)\b/i.test(m.sql);
  if (inTransaction[m.session] && !clients[m.session]) lostTransaction[m.session] = true;
  if (lostTransaction[m.session]) {
    if (ends) {
      inTransaction[m.session] = false;
      lostTransaction[m.session] = false;
      if (/^\s*(ROLLBACK|ABORT)\b/i.test(m.sql)) return { rows: [], rowCount: 0 };
    }
    const e = new Error('the connection was lost inside a transaction, which the server rolled back');
    e.code = '08006';
    throw e;
  }
  const client = clients[m.session] || (await open(m.session));
  const result = await client.query(m.sql, m.params);
  if (begins) inTransaction[m.session] = true;
  if (ends) inTransaction[m.session] = false;
  // Several statements without parameters (BEGIN; ...; SELECT ...) save round trips: the last one answers.
  const r = Array.isArray(result) ? result[result.length - 1] : result;
  return { rows: r.rows, rowCount: r.rowCount ?? 0 };
}

requests.on('message', async (m) => {
  let reply;
  try {
    reply = await handle(m);
  } catch (e) {
    const client = clients[m.session || 'listener'];
    const connection = isConnectionError(e, client) || !client;
    if (connection && client) { clients[m.session || 'listener'] = null; client.end().catch(() => {}); }
    if (connection && m.session && inTransaction[m.session] && !/^\s*(ROLLBACK|ABORT)\b/i.test(m.sql)) lostTransaction[m.session] = true;
    if (m.session && /^\s*(ROLLBACK|ABORT)\b/i.test(m.sql || '')) { inTransaction[m.session] = false; lostTransaction[m.session] = false; }
    reply = { error: { message: String((e && e.message) || e), code: e && e.code, connection } };
  }
  requests.postMessage(reply);
  Atomics.store(cells, 0, 1);
  Atomics.notify(cells, 0);
});

// Re-LISTEN after the listener connection dropped (server restart): the caller's poll covers the gap.
setInterval(() => {
  if (channels.size > 0 && !clients.listener) open('listener').catch(() => {});
}, 1000).unref();
`;
