// What the event-store benchmark and its appender child load, bundled from source by bench-support's
// bundleSources (into node_modules/.cache, so the PostgreSQL client's worker thread resolves `pg`): both
// stores, the tail, the test harness's PostgreSQL cluster (one initdb/pg_ctl logic for tests and bench),
// and the one event type every measurement appends.
import { z } from 'zod';
import { EventCatalog } from '../src/events/event-catalog.js';
import { defineEvent, type NewEvent } from '../src/events/event-definition.js';

export { EventStore } from '../src/events/event-store.js';
export { createEventStream } from '../src/events/event-stream.js';
export { postgresBinDir, startPostgresCluster } from '../test/support/postgres-cluster.js';

const thingHappened = defineEvent({
  type: 'bench.thing_happened',
  version: 1,
  description: 'benchmark event',
  schema: z.object({ n: z.number(), text: z.string() }),
});

export function benchCatalog(): EventCatalog {
  return new EventCatalog([thingHappened]);
}

/** The size of a typical tool-call event: a stream, device, package and a 200-character payload. */
export function benchEvent(n: number): NewEvent {
  return {
    type: thingHappened.type,
    stream: 'bench:1',
    device: 'emulator-5554',
    package: 'com.example.app',
    data: { n, text: 'x'.repeat(200) },
  };
}
