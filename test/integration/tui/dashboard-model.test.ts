import Database from 'better-sqlite3';
import { Subject } from 'rxjs';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { EventStore } from '../../../src/events/event-store.js';
import type { EventStream } from '../../../src/events/event-stream.js';
import { createEventStream } from '../../../src/events/event-stream.js';
import { DashboardModel } from '../../../src/tui/dashboard-model.js';
import type { DashboardSources } from '../../../src/tui/dashboard-sources.js';
import { appendThing, removeTempDirs, tempStorePath, testCatalog } from '../../support/event-store-fixtures.js';
import { waitFor } from '../../support/wait.js';

afterAll(removeTempDirs);

const noActions = {
  trust: async () => '',
  untrust: async () => '',
  cancelBuild: async () => '',
};

function sources(store: EventStore, stream: EventStream): DashboardSources {
  return { store, stream, projectRoot: null, isTrusted: () => false, actions: noActions };
}

/** A stream the test feeds by hand, to hand the model an event that does not extend the chain. */
function handStream(): EventStream & { push(event: StoredEvent): void } {
  const subject = new Subject<StoredEvent>();
  return {
    events$: subject.asObservable(),
    subscribe(handler) {
      const subscription = subject.subscribe(handler);
      return () => subscription.unsubscribe();
    },
    close: () => subject.complete(),
    push: (event) => subject.next(event),
  };
}

it('verifies the chain at start and checks each new event against it', async () => {
  const store = EventStore.open({ path: tempStorePath(), catalog: testCatalog() });
  for (let i = 0; i < 5; i++) appendThing(store, `a${i}`);
  const stream = createEventStream(store, { pollMs: 20 });
  const model = new DashboardModel(sources(store, stream));
  try {
    model.start({ verify: false });
    expect(model.snapshot().log.state).toBe('pending');
    appendThing(store, 'during');
    model.verifyChain();
    expect(model.snapshot().log).toMatchObject({ state: 'ok', verifiedThrough: 6, lastSeq: 6 });
    for (let i = 0; i < 3; i++) appendThing(store, `b${i}`);
    await waitFor(() => model.snapshot().log.verifiedThrough === 9, { what: 'seq 9 verified' });
    expect(model.snapshot().log).toMatchObject({ state: 'ok', lastSeq: 9, brokenAt: null });
  } finally {
    model.close();
    stream.close();
    store.close();
  }
});

it('reports a log whose stored rows were rewritten as broken at the first bad seq', () => {
  const path = tempStorePath();
  const store = EventStore.open({ path, catalog: testCatalog() });
  for (let i = 0; i < 4; i++) appendThing(store, `a${i}`);
  store.close();
  const db = new Database(path);
  for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).all() as {
    name: string;
  }[])
    db.exec(`DROP TRIGGER "${name}"`);
  db.prepare('UPDATE events SET data = ? WHERE seq = 2').run('{"count":99,"name":"a1"}');
  db.close();

  const reopened = EventStore.open({ path, catalog: testCatalog() });
  const stream = handStream();
  const model = new DashboardModel(sources(reopened, stream));
  try {
    model.start({ verify: false });
    model.verifyChain();
    expect(model.snapshot().log).toMatchObject({ state: 'broken', brokenAt: 2 });
  } finally {
    model.close();
    reopened.close();
  }
});

it('marks the log broken when a delivered event does not extend the verified chain', () => {
  const store = EventStore.open({ path: tempStorePath(), catalog: testCatalog() });
  const first = appendThing(store, 'a');
  const stream = handStream();
  const model = new DashboardModel(sources(store, stream));
  try {
    model.start({ verify: false });
    model.verifyChain();
    expect(model.snapshot().log).toMatchObject({ state: 'ok', verifiedThrough: 1 });
    const next = appendThing(store, 'b');
    stream.push({ ...next, data: { name: 'b', count: 1000 } });
    expect(model.snapshot().log).toMatchObject({ state: 'broken', brokenAt: 2 });
    expect(model.snapshot().log.reason).toMatch(/hash does not match/);
    expect(first.seq).toBe(1);
  } finally {
    model.close();
    store.close();
  }
});
