import { join } from 'node:path';
import type { LogLineStore, StoredLogLine } from '../../../src/plugins/logcat/services/log-line-store.js';
import { SqliteLogLineStore } from '../../../src/plugins/logcat/services/sqlite-log-line-store.js';

/** The line store of a data directory (`logcat.db`), as the worker and the tools open it. */
export function openTestLineStore(dir: string): LogLineStore {
  return new SqliteLogLineStore({
    path: join(dir, 'logcat.db'),
    retention: () => ({ maxLines: 1_000_000, maxBytes: 256 * 2 ** 20 }),
  });
}

/** Every stored line of a device, oldest first. */
export function storedLines(store: LogLineStore, serial: string): StoredLogLine[] {
  const out: StoredLogLine[] = [];
  for (let from = 0; ; ) {
    const page = store.range(serial, from, Number.MAX_SAFE_INTEGER, 50_000);
    if (page.length === 0) return out;
    out.push(...page);
    from = page[page.length - 1]!.seq + 1;
  }
}
