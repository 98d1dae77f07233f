import { homedir } from 'node:os';
import { join } from 'node:path';
import { buildLogsDir, eventsDbPath, resolveHome } from '../../../src/kernel/paths.js';

test('resolveHome uses $DROIDWRIGHT_HOME, else ~/.droidwright', () => {
  expect(resolveHome({ DROIDWRIGHT_HOME: '/x/y' })).toBe('/x/y');
  expect(resolveHome({ DROIDWRIGHT_HOME: '  ' })).toBe(join(homedir(), '.droidwright'));
  expect(resolveHome({})).toBe(join(homedir(), '.droidwright'));
  expect(eventsDbPath('/h')).toBe('/h/events.db');
  expect(buildLogsDir('/h')).toBe('/h/build-logs');
});
