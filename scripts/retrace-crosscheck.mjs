// Cross-checks the built-in retracer against ProGuard's ReTrace (Debian's proguard-cli) on generated mappings:
// random classes, methods, line ranges and inline chains, and traces drawn from them. Not a test (it needs Java
// and proguard-cli): `apt-get install proguard-cli`, then `node scripts/retrace-crosscheck.mjs [cases] [seed]`.
// Ambiguous frames are not generated: the two tools print alternatives differently by design.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cases = Number(process.argv[2] ?? 50);
let seed = Number(process.argv[3] ?? 1);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (list) => list[int(0, list.length - 1)];
const CLASSPATH = '/usr/share/java/proguard-retrace.jar:/usr/share/java/proguard.jar';

const dir = mkdtempSync(join(tmpdir(), 'retrace-crosscheck-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export * from ${JSON.stringify(join(root, 'src/android/retrace/proguard-mapping.ts'))};`,
      `export * from ${JSON.stringify(join(root, 'src/android/retrace/retracer.ts'))};`,
    ].join('\n'),
  );
  await build({
    entryPoints: [entry],
    outfile: join(dir, 'retrace.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
  });
  const { parseProguardMapping, retraceStackTrace } = await import(pathToFileURL(join(dir, 'retrace.mjs')).href);

  let same = 0;
  const failures = [];
  for (let n = 0; n < cases; n++) {
    const lines = [`# compiler: R8`, `# pg_map_id: ${n.toString(16).padStart(7, '0')}`];
    const frames = [];
    const classCount = int(1, 4);
    for (let c = 0; c < classCount; c++) {
      const original = `com.example.p${n}.Class${c}${random() < 0.3 ? '$Inner' : ''}`;
      const obfuscated = `a.b${c}`;
      lines.push(`${original} -> ${obfuscated}:`);
      if (random() < 0.5) lines.push(`    int field${c} -> a`);
      const methodCount = int(1, 3);
      for (let m = 0; m < methodCount; m++) {
        const name = String.fromCharCode(97 + m);
        const method = `method${m}`;
        let minified = 1;
        let source = int(10, 200);
        for (let r = int(1, 4); r > 0; r--) {
          const span = int(0, 3);
          const range = `${minified}:${minified + span}`;
          if (random() < 0.4) {
            const inlined = `com.example.p${n}.Helper${int(0, 2)}`;
            const at = int(1, 90);
            lines.push(`    ${range}:void ${inlined}.helper${r}(int):${at}:${at + span} -> ${name}`);
            lines.push(`    ${range}:void ${method}(java.lang.String):${source} -> ${name}`);
            source += 1;
          } else {
            lines.push(`    ${range}:void ${method}(java.lang.String):${source}:${source + span} -> ${name}`);
            source += span + 1;
          }
          frames.push({ cls: obfuscated, name, line: int(minified, minified + span) });
          minified += span + 1;
        }
      }
    }
    const trace = [random() < 0.5 ? 'java.lang.IllegalStateException: boom' : `a.b0: obfuscated exception`];
    for (let f = int(1, 8); f > 0; f--) {
      if (random() < 0.2) trace.push('\tat android.os.Handler.handleCallback(Handler.java:942)');
      else {
        const frame = pick(frames);
        trace.push(`\tat ${frame.cls}.${frame.name}(SourceFile:${frame.line})`);
      }
    }
    const mappingFile = join(dir, `mapping-${n}.txt`);
    const traceFile = join(dir, `trace-${n}.txt`);
    writeFileSync(mappingFile, `${lines.join('\n')}\n`);
    writeFileSync(traceFile, `${trace.join('\n')}\n`);
    const proguard = execFileSync('java', ['-cp', CLASSPATH, 'proguard.retrace.ReTrace', mappingFile, traceFile], {
      encoding: 'utf8',
    });
    const ours = retraceStackTrace(parseProguardMapping(`${lines.join('\n')}\n`), `${trace.join('\n')}\n`);
    if (ours === proguard) same++;
    else failures.push({ n, mapping: lines.join('\n'), trace: trace.join('\n'), proguard, ours });
  }
  console.log(`${same}/${cases} generated traces retrace identically to ProGuard ReTrace`);
  for (const f of failures.slice(0, 3)) {
    console.log(`--- case ${f.n}\n${f.mapping}\n--- trace\n${f.trace}\n--- proguard\n${f.proguard}--- ours\n${f.ours}`);
  }
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
