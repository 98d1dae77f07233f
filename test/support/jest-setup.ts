// Every test process gets its own DROIDWRIGHT_HOME so no test can touch a developer's real ~/.droidwright.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.DROIDWRIGHT_HOME?.includes('droidwright-test-')) {
  process.env.DROIDWRIGHT_HOME = mkdtempSync(join(tmpdir(), 'droidwright-test-home-'));
}
// Never talk to a developer's adb server on 5037 by accident.
if (!process.env.ANDROID_ADB_SERVER_PORT) process.env.ANDROID_ADB_SERVER_PORT = '1';
