import { parseLogcatLine } from '../../../android/logcat/logcat-text-parser.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { validatePackageName } from '../../../kernel/validation.js';
import type { CrashRecord } from './crash-history.js';

/** `MM-DD HH:MM:SS.mmm  pid  tid L tag     : message` as formatThreadtime writes it (also `00-00 …` for no time). */
const THREADTIME_HEAD = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ [VDIWEFA] .*? ?: ?(.*)$/;

/** The messages of a crash's recorded lines: the stack as the app printed it, without logcat's columns. */
export function crashMessages(record: CrashRecord): string[] {
  return record.data.lines.map((line) => {
    const parsed = parseLogcatLine(line, 'threadtime', { year: 2000 });
    if (parsed) return parsed.message;
    return THREADTIME_HEAD.exec(line)?.[1] ?? line;
  });
}

const FRAME = /^\s*(?:at |#\d+ pc )/;

/** The first `count` frame lines (`at …` or `#00 pc …`), trimmed. */
export function topFrames(messages: readonly string[], count: number): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (!FRAME.test(m)) continue;
    out.push(m.trim());
    if (out.length === count) break;
  }
  return out;
}

export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The packages a crash tool reads: the one named, else the project's application ids, else every package. */
export function crashPackages(pkg: string | undefined, scope: PackageScopeGuard): string[] | null {
  if (pkg !== undefined) return [validatePackageName(pkg)];
  const ids = scope.scope()?.packages ?? [];
  return ids.length > 0 ? [...ids] : null;
}
