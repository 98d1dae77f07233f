import Database from 'better-sqlite3';
import { join } from 'node:path';
import { EventStore, StoreUnavailableError } from '../../../src/events/event-store.js';
import { createTempHome } from '../../support/temp-home.js';
import { appendThing, testActor, testCatalog, thingHappened } from '../../support/event-store-fixtures.js';

/*
 * appendAsync waits for another connection's write lock on timers, not by blocking the event loop, and
 * gives up after its bound with a message that states how long it waited.
 */
describe('EventStore.appendAsync under another connection’s write lock', () => {
  const temp = createTempHome('append-async');
  const path = join(temp.home, 'events.db');
  let store: EventStore;
  let locker: Database.Database;

  beforeAll(() => {
    store = EventStore.open({ path, catalog: testCatalog() });
    appendThing(store, 'first');
    locker = new Database(path, { timeout: 0 });
  });

  afterAll(() => {
    if (locker.inTransaction) locker.exec('ROLLBACK');
    locker.close();
    store.close();
    temp.cleanup();
  });

  test('refuses after its bound with STORE_UNAVAILABLE, while timers keep firing', async () => {
    locker.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = Date.now();
    try {
      const error = await store
        .appendAsync(
          thingHappened,
          { name: 'blocked', count: 1 },
          { stream: 'thing:blocked', actor: testActor },
          { maxWaitMs: 600 },
        )
        .catch((e: unknown) => e);
      const waited = Date.now() - started;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/stayed locked by another process for more than (\d+) ms/);
      const stated = Number(/more than (\d+) ms/.exec((error as Error).message)![1]);
      expect(stated).toBeGreaterThanOrEqual(600);
      expect(stated).toBeLessThanOrEqual(waited);
      expect(waited).toBeLessThan(2000);
      // The event loop ran between attempts: a blocked 600 ms wait would leave the ticker at zero or one.
      expect(ticks).toBeGreaterThan(5);
    } finally {
      clearInterval(ticker);
      locker.exec('ROLLBACK');
    }
    expect(store.query({ limit: 10 }).map((e) => (e.data as { name: string }).name)).toEqual(['first']);
  });

  test('succeeds as soon as the lock is released within the bound', async () => {
    locker.exec('BEGIN IMMEDIATE');
    setTimeout(() => locker.exec('COMMIT'), 200);
    const stored = await store.appendAsync(
      thingHappened,
      { name: 'after-release', count: 1 },
      { stream: 'thing:after-release', actor: testActor },
      { maxWaitMs: 5000 },
    );
    expect(stored.seq).toBe(2);
    expect(appendThing(store, 'sync').seq).toBe(3);
    expect(store.verify().ok).toBe(true);
  });
});
