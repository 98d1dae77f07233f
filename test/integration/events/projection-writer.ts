// Child process for projection-rebuild.test.ts, bundled with esbuild before it runs (see bundle-worker.ts).
//   <db> <events.json>  append the given events one transaction each through the real store, with every
//                       plugin projection loaded, then print "appended <n>"
import { readFileSync } from 'node:fs';
import { appendGiven, type GivenEvent, openPluginStore, pluginCatalog } from '../../support/projection-spec.js';

const [path, eventsFile] = process.argv.slice(2);
const events = JSON.parse(readFileSync(eventsFile, 'utf8')) as GivenEvent[];
const store = openPluginStore(path);
try {
  appendGiven(store, pluginCatalog(), events);
  process.stdout.write(`appended ${events.length}\n`);
} finally {
  store.close();
}
