import { firstValueFrom, toArray } from 'rxjs';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { EventStore } from '../../../src/events/event-store.js';
import { createEventStream, ofType, type EventStream } from '../../../src/events/event-stream.js';
import {
  appendThing,
  removed,
  removeTempDirs,
  tempStorePath,
  testActor,
  testCatalog,
  thing,
} from '../../support/event-store-fixtures.js';
import { sleep, waitFor } from '../../support/wait.js';
import { itWhen, probeFileWatch } from '../../support/capabilities.js';

// The wake-up test needs fs.watch to report a change within 3 s; it skips, saying why, only where it does not.
const itWithFileWatch = itWhen(await probeFileWatch());

const cleanup: { close(): void }[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c.close();
});
afterAll(removeTempDirs);

function setup(fromSeq?: number): { store: EventStore; other: EventStore; stream: EventStream } {
  const path = tempStorePath();
  const store = EventStore.open({ path, catalog: testCatalog() });
  // A second connection stands in for another process: its appends reach `store` only through the log.
  const other = EventStore.open({ path, catalog: testCatalog() });
  if (fromSeq !== undefined) other.appendMany([thing('old1'), thing('old2'), thing('old3')]);
  const stream = createEventStream(store, { pollMs: 50, fromSeq });
  cleanup.push(store, other, stream);
  return { store, other, stream };
}

const until = (condition: () => boolean, timeoutMs = 2000) => waitFor(condition, { timeoutMs, intervalMs: 10 });

const seqs = (events: StoredEvent[]) => events.map((e) => e.seq);

describe('createEventStream', () => {
  it('delivers own appends synchronously and narrows with ofType', () => {
    const { store, stream } = setup();
    const all: StoredEvent[] = [];
    const removals: StoredEvent<{ name: string }>[] = [];
    stream.events$.subscribe((e) => all.push(e));
    stream.events$.pipe(ofType<{ name: string }>('*.thing_removed')).subscribe((e) => removals.push(e));
    appendThing(store, 'a');
    store.appendMany([removed('a'), thing('b')]);
    expect(seqs(all)).toEqual([1, 2, 3]);
    expect(removals.map((e) => e.data.name)).toEqual(['a']);
  });

  it('tails another connection, keeps seq order when own appends interleave, and never duplicates', async () => {
    const { store, other, stream } = setup();
    const got: StoredEvent[] = [];
    stream.subscribe((e) => got.push(e));
    other.appendMany([thing('x1'), thing('x2')]);
    // Own append right after: the gap (1, 2) is read first, synchronously.
    appendThing(store, 'own');
    expect(seqs(got)).toEqual([1, 2, 3]);
    appendThing(other, 'x3');
    await until(() => got.length === 4);
    await sleep(120);
    expect(seqs(got)).toEqual([1, 2, 3, 4]);
  });

  itWithFileWatch('is woken by file changes, not only by the poll', async () => {
    const path = tempStorePath();
    const store = EventStore.open({ path, catalog: testCatalog() });
    const other = EventStore.open({ path, catalog: testCatalog() });
    const stream = createEventStream(store, { pollMs: 60_000 });
    cleanup.push(store, other, stream);
    const got: StoredEvent[] = [];
    stream.subscribe((e) => got.push(e));
    appendThing(other, 'x');
    await until(() => got.length === 1, 3000);
  });

  it('replays after fromSeq to subscribers made right after creation, then goes live', async () => {
    const { store, stream } = setup(1);
    const got: StoredEvent[] = [];
    stream.events$.subscribe((e) => got.push(e));
    await until(() => got.length === 2);
    appendThing(store, 'new');
    expect(seqs(got)).toEqual([2, 3, 4]);
  });

  it('keeps every subscriber in seq order when a subscriber appends', () => {
    const { store, stream } = setup();
    const first: number[] = [];
    const second: number[] = [];
    stream.events$.subscribe((e) => {
      first.push(e.seq);
      if (e.seq === 1) appendThing(store, 'from-subscriber');
    });
    stream.events$.subscribe((e) => second.push(e.seq));
    appendThing(store, 'a');
    expect(first).toEqual([1, 2]);
    expect(second).toEqual([1, 2]);
  });

  it('isolates a throwing subscribe() handler: it is reported and everyone keeps receiving', () => {
    const path = tempStorePath();
    const store = EventStore.open({ path, catalog: testCatalog() });
    const reported: number[] = [];
    const stream = createEventStream(store, { onSubscriberError: (_error, e) => reported.push(e.seq) });
    cleanup.push(store, stream);
    const flaky: number[] = [];
    const steady: number[] = [];
    stream.subscribe((e) => {
      flaky.push(e.seq);
      throw new Error('handler bug');
    });
    stream.subscribe((e) => steady.push(e.seq), { types: ['test.*'] });
    store.appendMany([
      thing('a'),
      thing('b'),
      { type: 'other.app_installed', stream: 's', data: { apk: 'x' }, actor: testActor },
    ]);
    expect(flaky).toEqual([1, 2, 3]);
    expect(steady).toEqual([1, 2]);
    expect(reported).toEqual([1, 2, 3]);
  });

  it('completes on close and when its store closes', async () => {
    const { store, stream } = setup();
    const done = firstValueFrom(stream.events$.pipe(toArray()));
    appendThing(store, 'a');
    stream.close();
    appendThing(store, 'b');
    expect(seqs(await done)).toEqual([1]);

    const second = createEventStream(store, { pollMs: 20 });
    const ended = firstValueFrom(second.events$.pipe(toArray()));
    store.close();
    expect(await ended).toEqual([]);
  });
});
