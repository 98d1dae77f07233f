import { EventStore } from '../../../src/events/event-store.js';
import { crashesProjection, readCrashGroups, readNewestCrash } from '../../../src/plugins/logcat/crashes.projection.js';
import { removeTempDirs, tempStorePath } from '../../support/event-store-fixtures.js';
import { javaCrash } from '../../support/projection-cases.js';
import { appendGiven, pluginCatalog } from '../../support/projection-spec.js';

// Two laptops sharing a log each have an emulator-5554: "crashes on emulator-5554" means this laptop's.
describe('crashes on a log shared by two machines', () => {
  let store: EventStore;
  beforeEach(() => {
    store = EventStore.open({ path: tempStorePath(), catalog: pluginCatalog(), projections: [crashesProjection] });
  });
  afterEach(() => store.close());
  afterAll(() => removeTempDirs());

  it("filters by this machine's device, counts crashes from before hosts as its own, and rebuilds the same", () => {
    appendGiven(store, pluginCatalog(), [
      javaCrash('emulator-5554', null), // seq 1: before hosts were named
      javaCrash('emulator-5554', 'b1', 'laptop-b'), // 2
    ]);
    const onDevice = (host: string) => ({
      groups: readCrashGroups(store, { packages: null, device: 'emulator-5554', offset: 0, limit: 10 }, host).total,
      newest: readNewestCrash(store, { packages: null, device: 'emulator-5554' }, host)?.seq ?? null,
    });
    expect(onDevice('laptop-a')).toEqual({ groups: 1, newest: 1 });
    expect(onDevice('laptop-b')).toEqual({ groups: 1, newest: 2 });
    // Unfiltered, the group counts every machine's crashes.
    expect(readCrashGroups(store, { packages: null, device: null, offset: 0, limit: 10 }).groups[0]!.crashes).toBe(2);
    expect(store.prepareRead('SELECT seq, host FROM crashes ORDER BY seq').all()).toEqual([
      { seq: 1, host: '' },
      { seq: 2, host: 'laptop-b' },
    ]);

    const tables = crashesProjection.tables.map((t) => store.prepareRead(`SELECT * FROM ${t}`).all());
    store.rebuildProjections(['crashes']);
    expect(crashesProjection.tables.map((t) => store.prepareRead(`SELECT * FROM ${t}`).all())).toEqual(tables);
  });
});
