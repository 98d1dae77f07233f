// A second process writing the line store: `node line-writer.mjs <db> <serial> <batches> <batchSize>`.
import { SqliteLogLineStore } from '../../../src/plugins/logcat/services/sqlite-log-line-store.js';

const [path, serial, batches, size] = process.argv.slice(2);
const store = new SqliteLogLineStore({ path: path!, retention: () => ({ maxLines: 1_000_000, maxBytes: 2 ** 30 }) });
let n = 0;
for (let b = 0; b < Number(batches); b++) {
  const entries = Array.from({ length: Number(size) }, () => {
    n++;
    return {
      time: '',
      timeMs: 1_700_000_000_000 + n,
      pid: 42,
      tid: 42,
      level: 'I' as const,
      tag: 'Writer',
      message: `line ${n}`,
    };
  });
  store.append(serial!, entries, () => 'com.example.writer');
}
store.close();
process.stdout.write(`wrote ${n}\n`);
