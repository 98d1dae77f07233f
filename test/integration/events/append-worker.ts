// Child process for the integration tests, bundled with esbuild before it runs (see bundle-worker.ts).
// <log> is where the log is: a SQLite file or a postgres:// URL (the same modes prove both stores).
//   concurrent <log> <count> <label>  append <count> events in random batches of 1-50, then print a JSON summary
//   ack <log>                          append random batches forever, printing "ack <seq> <hash>" after each commit
//   burst <log> <count>                append <count> single events, then exit
//   resilient <log> <label>            like ack, but live through a lost connection or a server restart:
//                                      "unavailable <message>" for each append refused with STORE_UNAVAILABLE,
//                                      then go on; "error <message>" and exit 1 for anything else
//   tail <log> <pollMs>                another machine's view: events$ from now on, "event <seq> <session> <name>"
//                                      for each delivered event, until killed
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { EventStore } from '../../../src/events/event-store.js';
import { createEventStream } from '../../../src/events/event-stream.js';
import { isBusyError } from '../../../src/events/store-unavailable-error.js';
import { appendThing, testCatalog, thing, thingsProjection } from '../../support/event-store-fixtures.js';

const [mode, path, ...rest] = process.argv.slice(2);
const store = EventStore.open({ path, catalog: testCatalog(), projections: [thingsProjection()] });
const actor = { kind: 'agent' as const, session: `worker-${process.pid}`, pid: process.pid };
const batchOf = (n: number, label: string, from: number) =>
  Array.from({ length: n }, (_, i) => ({ ...thing(`${label}-${(from + i) % 17}`, from + i), actor }));

if (mode === 'concurrent') {
  const total = Number(rest[0]);
  const label = rest[1];
  let appended = 0;
  let busyErrors = 0;
  const otherErrors: string[] = [];
  while (appended < total) {
    const n = Math.min(total - appended, 1 + Math.floor(Math.random() * 50));
    try {
      store.appendMany(batchOf(n, label, appended));
      appended += n;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (isBusyError(error) || isBusyError(cause)) busyErrors++;
      else otherErrors.push(String(error));
      if (busyErrors + otherErrors.length > 20) break;
    }
  }
  process.stdout.write(`${JSON.stringify({ appended, busyErrors, otherErrors })}\n`);
  store.close();
} else if (mode === 'ack') {
  process.stdout.write('ready\n');
  for (let i = 0; ; ) {
    const n = 1 + Math.floor(Math.random() * 20);
    const stored = store.appendMany(batchOf(n, 'ack', i));
    i += n;
    // Pipes are synchronous on Linux: once this returns, the parent can read the line even after SIGKILL.
    process.stdout.write(stored.map((e) => `ack ${e.seq} ${e.hash}\n`).join(''));
  }
} else if (mode === 'resilient') {
  const label = rest[0];
  const pause = new Int32Array(new SharedArrayBuffer(4));
  process.stdout.write('ready\n');
  for (let i = 0; ; ) {
    const n = 1 + Math.floor(Math.random() * 20);
    let stored: StoredEvent[];
    try {
      stored = store.appendMany(batchOf(n, label, i));
    } catch (error) {
      const message = String((error as Error).message ?? error).replace(/\s+/g, ' ');
      if ((error as { code?: unknown }).code !== 'STORE_UNAVAILABLE') {
        process.stdout.write(`error ${message}\n`);
        process.exit(1);
      }
      process.stdout.write(`unavailable ${message}\n`);
      // The server may be down for a second: do not spin on refused connections.
      Atomics.wait(pause, 0, 0, 20);
      continue;
    } finally {
      i += n;
    }
    process.stdout.write(stored.map((e) => `ack ${e.seq} ${e.hash}\n`).join(''));
  }
} else if (mode === 'tail') {
  const stream = createEventStream(store, { pollMs: Number(rest[0]) });
  stream.subscribe((e) => {
    const { name } = e.data as { name: string };
    process.stdout.write(`event ${e.seq} ${e.actor.session ?? '-'} ${name}\n`);
  });
  process.stdout.write('ready\n');
  // The stream's own timers are unref'd so a CLI can exit; this process lives to tail until killed.
  setInterval(() => {}, 60_000);
} else if (mode === 'burst') {
  const count = Number(rest[0]);
  for (let i = 0; i < count; i++) appendThing(store, `burst-${i}`, i, { actor });
  store.close();
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
