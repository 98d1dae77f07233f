// Measures the logcat parsers' throughput (lines/s) on this machine: `-v threadtime` text through
// LogcatTextParser, `logcat -B` bytes through LogcatBinaryDecoder, and both followed by CrashDetector.
// Not a test (numbers depend on the machine): run `node scripts/logcat-parser-throughput.mjs [lines]`.
// The input is the real CTS capture in test/fixtures/logcat, repeated with rising timestamps, in 64 KiB chunks.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const total = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'logcat-throughput-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export * from ${JSON.stringify(join(root, 'src/android/logcat/logcat-text-parser.ts'))};`,
      `export * from ${JSON.stringify(join(root, 'src/android/logcat/logcat-binary-decoder.ts'))};`,
      `export * from ${JSON.stringify(join(root, 'src/android/logcat/crash-detector.ts'))};`,
    ].join('\n'),
  );
  await build({
    entryPoints: [entry],
    outfile: join(dir, 'parsers.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
  });
  const {
    LogcatTextParser,
    LogcatBinaryDecoder,
    encodeLogcatBinaryEntry,
    priorityOfLevel,
    parseLogcatText,
    CrashDetector,
  } = await import(pathToFileURL(join(dir, 'parsers.mjs')).href);

  const capture = parseLogcatText(
    readFileSync(join(root, 'test/fixtures/logcat/cts_logcat_native_crash_angler_android7.txt'), 'utf8'),
    {
      year: 2017,
    },
  ).entries;
  const pad = (n, w) => String(n).padStart(w, '0');
  const lines = [];
  const binary = [];
  for (let i = 0; i < total; i++) {
    const e = capture[i % capture.length];
    const ms = 1_504_460_000_000 + i;
    const d = new Date(ms);
    const time = `${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}`;
    lines.push(
      `${time} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag.padEnd(8)}: ${e.message} #${i}`,
    );
    binary.push(
      encodeLogcatBinaryEntry({
        pid: e.pid,
        tid: e.tid,
        sec: Math.floor(ms / 1000),
        nsec: (ms % 1000) * 1e6,
        lid: 0,
        uid: 1000,
        priority: priorityOfLevel(e.level),
        tag: e.tag,
        message: `${e.message} #${i}`,
      }),
    );
  }
  const text = Buffer.from(`${lines.join('\n')}\n`);
  const bytes = Buffer.concat(binary);
  const CHUNK = 64 * 1024;

  function time(label, size, run) {
    run(); // warm-up
    const started = performance.now();
    const count = run();
    const seconds = (performance.now() - started) / 1000;
    if (count !== total) throw new Error(`${label}: ${count} entries, expected ${total}`);
    const rate = Math.round(total / seconds);
    console.log(
      `${label.padEnd(44)} ${rate.toLocaleString('en-US').padStart(12)} lines/s  (${(size / seconds / 1e6).toFixed(0)} MB/s)`,
    );
  }

  const decoder = new TextDecoder();
  const textRun = (detect) => () => {
    const parser = new LogcatTextParser({ format: 'threadtime', year: 2017 });
    const detector = detect ? new CrashDetector() : null;
    let n = 0;
    for (let i = 0; i < text.length; i += CHUNK) {
      for (const e of parser.push(decoder.decode(text.subarray(i, i + CHUNK), { stream: true }))) {
        n++;
        detector?.push(e, 0);
      }
    }
    n += parser.end().length;
    return n;
  };
  const binaryRun = (detect) => () => {
    const parser = new LogcatBinaryDecoder();
    const detector = detect ? new CrashDetector() : null;
    let n = 0;
    for (let i = 0; i < bytes.length; i += CHUNK) {
      for (const e of parser.push(bytes.subarray(i, i + CHUNK))) {
        n++;
        detector?.push(e, 0);
      }
    }
    return n;
  };
  console.log(`${total.toLocaleString('en-US')} entries, Node ${process.version}`);
  time('threadtime text (LogcatTextParser)', text.length, textRun(false));
  time('threadtime text + CrashDetector', text.length, textRun(true));
  time('logcat -B v4 binary (LogcatBinaryDecoder)', bytes.length, binaryRun(false));
  time('logcat -B v4 binary + CrashDetector', bytes.length, binaryRun(true));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
