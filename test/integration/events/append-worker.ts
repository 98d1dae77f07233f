// Child process for the integration tests, bundled with esbuild before it runs (see bundle-worker.ts).
//   concurrent <db> <count> <label>  append <count> events in random batches of 1-50, then print a JSON summary
//   ack <db>                          append random batches forever, printing "ack <seq> <hash>" after each commit
//   burst <db> <count>                append <count> single events, then exit
import { EventStore } from '../../../src/events/event-store.js';
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
} else if (mode === 'burst') {
  const count = Number(rest[0]);
  for (let i = 0; i < count; i++) appendThing(store, `burst-${i}`, i, { actor });
  store.close();
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
