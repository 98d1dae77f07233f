// The other machine in the cross-machine tail benchmark (bench-event-stores.mjs): its own process and its
// own DROIDWRIGHT_HOST, appending one event every <intervalMs> and printing "ack <seq> <epoch ms>" the
// moment each append returns (committed), so the tail can measure commit-to-delivery on one clock.
//   node bench-store-appender.mjs <bundle.mjs> <log> <count> <intervalMs>
import { pathToFileURL } from 'node:url';

const [bundle, location, count, intervalMs] = process.argv.slice(2);
const { EventStore, benchCatalog, benchEvent } = await import(pathToFileURL(bundle).href);
const store = EventStore.open({ path: location, catalog: benchCatalog() });
const actor = { kind: 'agent', session: `appender-${process.pid}`, pid: process.pid };
try {
  for (let i = 0; i < Number(count); i++) {
    const [stored] = store.appendMany([{ ...benchEvent(i), actor }]);
    process.stdout.write(`ack ${stored.seq} ${performance.timeOrigin + performance.now()}\n`);
    await new Promise((resolve) => setTimeout(resolve, Number(intervalMs)));
  }
} finally {
  store.close();
}
