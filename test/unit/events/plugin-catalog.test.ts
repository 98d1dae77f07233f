import { EventCatalog, eventTypeNameProblem } from '../../../src/events/event-catalog.js';
import { collectEventContributions, createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { pluginModules } from '../../../src/plugins/index.js';

test("every plugin's events form one valid catalog (the store refuses to open otherwise)", () => {
  const home = process.env.DROIDWRIGHT_HOME!;
  const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, pluginModules);
  try {
    const { events } = collectEventContributions(container);
    expect(() => new EventCatalog(events)).not.toThrow();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['logcat.started', 'app.crashed', 'ui.tapped']));
  } finally {
    disposeContainer(container);
  }
});

test("Android's own ANR name is accepted as a term of art; other -ing names are not", () => {
  expect(eventTypeNameProblem('app.not_responding')).toBeUndefined();
  expect(eventTypeNameProblem('app.responding')).toMatch(/past-tense/);
  expect(eventTypeNameProblem('logcat.not_responding')).toMatch(/past-tense/);
});
