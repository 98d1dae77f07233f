/*
 * Turns Gradle console output (`--console=plain`, stdout and stderr merged) into structured
 * diagnostics. It is fed line by line while the build runs, so memory is bounded by the number of
 * diagnostics kept, not by the size of the log.
 */

export type DiagnosticSeverity = 'error' | 'warning' | 'info';
export type DiagnosticSource =
  | 'kotlin'
  | 'ksp'
  | 'javac'
  | 'lint'
  | 'aapt2'
  | 'r8'
  | 'agp'
  | 'gradle'
  | 'config-cache'
  | 'script';

export interface BuildDiagnostic {
  readonly severity: DiagnosticSeverity;
  readonly source: DiagnosticSource;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly message: string;
  readonly task: string | null;
}

export const MAX_DIAGNOSTICS = 2000;
const MAX_MESSAGE_CHARS = 2000;
const MAX_BLOCK_LINES = 400;

const TASK_LINE = /^> Task (:\S*)(?: (?:FAILED|UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?$/;
const CONFIGURE_LINE = /^> Configure project /;
/** Kotlin K2 `e: file:///p/A.kt:4:54 msg` (and `:23:23: msg` in scripts), K1 `e: /p/A.kt: (12, 5): msg`. */
const KOTLIN_K2 = /^([ewi]): (file:\/\/\S+?|\/\S+?):(\d+):(\d+):? (.*)$/;
const KOTLIN_K1 = /^([ewi]): (\S+?): \((\d+), (\d+)\): (.*)$/;
const KOTLIN_BARE = /^([ew]): (?!\[ksp\])(.+)$/;
const KSP = /^([ewi]): \[ksp\] (?:(\/\S+?|file:\/\/\S+?|[A-Za-z]:\\\S+?):(\d+)(?::(\d+))?: )?(.*)$/;
/** javac prints its own lines unindented; the same lines reappear indented inside Gradle's failure block. */
const JAVAC = /^(\/\S+?\.java|[A-Za-z]:\\\S+?\.java):(\d+): (error|warning): (.*)$/;
const JAVAC_DETAIL = /^\s+(symbol|location):\s+(.*)$/;
const LINT = /^(\S+?):(\d+): (Error|Warning|Information|Hint|Fatal): (.*\[[A-Za-z0-9_]+\])$/;
/** `com.example.app-main-7:/layout/activity_main.xml:11: error: msg` and bare `error: msg` from AAPT2. */
const AAPT2_LINK = /^\s*(?:([A-Za-z0-9_.-]+):\/(\S+?):(\d+): )?(error|warning): (.*)$/;
const AAPT2_COMPILE =
  /Resource compilation failed \(Failed to compile (?:\S+ )?resource file (\S+?)\. Cause: (?:[\w.$]+(?:Exception|Error): )?(.*)\)\.(?: Check logs for more details\.)?$/;
const AGP_ERROR = /^(ERROR|WARNING|INFO):\s*(?:(\/\S+?|[A-Za-z]:\\\S+?|file:\/\/\S+?):(\d+)(?::(\d+))?: )?(.*)$/;
/** The JVM's own warnings on stderr (Unsafe, native access) are not build diagnostics. */
const JVM_NOISE =
  /^WARNING: (A terminally deprecated method|sun\.misc\.Unsafe|A restricted method|Use --enable-native-access|Restricted methods will be blocked|Please consider reporting|An illegal reflective access|Illegal reflective access|All illegal access operations)/;
const R8_MISSING = /^Missing class \S+ \(referenced from: .*\)$/;
const CC_HEADER = /^\d+ problems? (?:was|were) found (?:storing|reusing|loading|updating)?\s*the configuration cache/;
const CC_BULLET = /^- (.*)$/;
const WHERE_BUILD_FILE = /^(?:Build|Settings|Script|Init script) file '(.+)' line: (\d+)$/;

function severityOf(letter: string): DiagnosticSeverity {
  if (letter === 'e' || letter === 'error' || letter === 'ERROR' || letter === 'Error' || letter === 'Fatal')
    return 'error';
  if (letter === 'w' || letter === 'warning' || letter === 'WARNING' || letter === 'Warning') return 'warning';
  return 'info';
}

/** `file:///Users/dev/A.kt` → `/Users/dev/A.kt`; plain paths are returned as they are. */
export function normalizePath(path: string): string {
  if (!path.startsWith('file:')) return path;
  try {
    return decodeURIComponent(new URL(path).pathname);
  } catch {
    return path.replace(/^file:\/\//, '');
  }
}

function clip(message: string): string {
  const trimmed = message.trim();
  return trimmed.length > MAX_MESSAGE_CHARS ? `${trimmed.slice(0, MAX_MESSAGE_CHARS)}…` : trimmed;
}

type Section = 'none' | 'what-went-wrong' | 'where' | 'other';

export class GradleOutputParser {
  private readonly diagnostics: BuildDiagnostic[] = [];
  private readonly seen = new Set<string>();
  private currentTask: string | null = null;
  private truncatedCount = 0;

  private section: Section = 'none';
  private block: string[] = [];
  private where: { file: string; line: number } | null = null;

  /** True after a config-cache problem header until its bullet list ends. */
  private inCcList = false;
  /** Index of the last javac diagnostic, so `symbol:` / `location:` lines can be appended to it. */
  private lastJavac: { index: number; extra: string[] } | null = null;

  push(rawLine: string): void {
    const line = rawLine.replace(/\r$/, '');
    if (line.startsWith('* What went wrong:')) {
      this.closeBlock();
      this.section = 'what-went-wrong';
      return;
    }
    if (line.startsWith('* Where:')) {
      this.closeBlock();
      this.section = 'where';
      return;
    }
    if (
      /^\* (Try|Exception is|Get more help|Query):?/.test(line) ||
      /^={10,}$/.test(line) ||
      /^BUILD (FAILED|SUCCESSFUL)/.test(line)
    ) {
      this.closeBlock();
      this.section = 'other';
      if (/^BUILD /.test(line)) this.section = 'none';
      return;
    }
    if (this.section === 'where') {
      const m = WHERE_BUILD_FILE.exec(line.trim());
      if (m) this.where = { file: m[1]!, line: Number(m[2]) };
      return;
    }
    if (this.section === 'what-went-wrong') {
      if (this.block.length < MAX_BLOCK_LINES) this.block.push(line);
      // AAPT2 link errors and config-cache bullets live inside the block, indented.
      this.scanInsideBlock(line);
      return;
    }
    if (this.section === 'other') {
      if (/^(\d+: Task failed|FAILURE:)/.test(line)) this.section = 'none';
      else return;
    }
    this.scanLine(line);
  }

  /** Ends the stream; returns every diagnostic (deduplicated, in order of appearance). */
  finish(): BuildDiagnostic[] {
    this.closeBlock();
    this.flushJavac();
    return [...this.diagnostics];
  }

  /** Diagnostics dropped because MAX_DIAGNOSTICS was reached. */
  get dropped(): number {
    return this.truncatedCount;
  }

  private add(d: Omit<BuildDiagnostic, 'message'> & { message: string }): number {
    const diagnostic: BuildDiagnostic = { ...d, message: clip(d.message) };
    const key =
      diagnostic.file !== null
        ? `${diagnostic.file}|${diagnostic.line}|${diagnostic.message}`
        : `${diagnostic.source}|${diagnostic.message}`;
    if (this.seen.has(key)) return -1;
    this.seen.add(key);
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) {
      this.truncatedCount++;
      return -1;
    }
    this.diagnostics.push(diagnostic);
    return this.diagnostics.length - 1;
  }

  private flushJavac(): void {
    if (!this.lastJavac) return;
    const { index, extra } = this.lastJavac;
    this.lastJavac = null;
    if (extra.length === 0 || index < 0) return;
    const d = this.diagnostics[index]!;
    const message = clip(`${d.message} (${extra.join('; ')})`);
    this.seen.add(`${d.file}|${d.line}|${message}`);
    this.diagnostics[index] = { ...d, message };
  }

  private scanLine(line: string): void {
    if (this.lastJavac) {
      const detail = JAVAC_DETAIL.exec(line);
      if (detail) {
        this.lastJavac.extra.push(`${detail[1]}: ${detail[2]!.trim()}`);
        return;
      }
      // Source echo and caret lines sit between the error and its details.
      if (/^\s+\S/.test(line) && !/^\s+at /.test(line)) return;
      this.flushJavac();
    }

    const task = TASK_LINE.exec(line);
    if (task) {
      this.currentTask = task[1]!;
      this.inCcList = false;
      return;
    }
    if (CONFIGURE_LINE.test(line)) {
      this.currentTask = null;
      return;
    }
    if (this.scanConfigCache(line, 'warning')) return;

    let m: RegExpExecArray | null;
    if ((m = KSP.exec(line))) {
      this.add({
        severity: severityOf(m[1]!),
        source: 'ksp',
        file: m[2] ? normalizePath(m[2]) : null,
        line: m[3] ? Number(m[3]) : null,
        column: m[4] ? Number(m[4]) : null,
        message: m[5]!,
        task: this.currentTask,
      });
      return;
    }
    if ((m = KOTLIN_K2.exec(line)) || (m = KOTLIN_K1.exec(line))) {
      const file = normalizePath(m[2]!);
      this.add({
        severity: severityOf(m[1]!),
        source: /\.gradle\.kts$/.test(file) ? 'script' : 'kotlin',
        file,
        line: Number(m[3]),
        column: Number(m[4]),
        message: m[5]!,
        task: this.currentTask,
      });
      return;
    }
    if ((m = KOTLIN_BARE.exec(line))) {
      this.add({
        severity: severityOf(m[1]!),
        source: 'kotlin',
        file: null,
        line: null,
        column: null,
        message: m[2]!,
        task: this.currentTask,
      });
      return;
    }
    if ((m = JAVAC.exec(line))) {
      const index = this.add({
        severity: severityOf(m[3]!),
        source: 'javac',
        file: m[1]!,
        line: Number(m[2]),
        column: null,
        message: m[4]!,
        task: this.currentTask,
      });
      this.lastJavac = { index, extra: [] };
      return;
    }
    if ((m = LINT.exec(line))) {
      this.add({
        severity: severityOf(m[3]!),
        source: 'lint',
        file: normalizePath(m[1]!),
        line: Number(m[2]),
        column: null,
        message: m[4]!,
        task: this.currentTask,
      });
      return;
    }
    if ((m = AGP_ERROR.exec(line)) && !JVM_NOISE.test(line)) {
      let message = m[5]!;
      let source: DiagnosticSource = 'agp';
      if (/^R8: /.test(message)) {
        source = 'r8';
        message = message.slice(4);
      } else if (/\bR8\b/.test(message)) {
        source = 'r8';
      }
      message = message.replace(/^Resource and asset merger: /, '');
      if (message.trim() === '') return;
      this.add({
        severity: severityOf(m[1]!),
        source,
        file: m[2] ? normalizePath(m[2]) : null,
        line: m[3] ? Number(m[3]) : null,
        column: m[4] ? Number(m[4]) : null,
        message,
        task: this.currentTask,
      });
      return;
    }
    if (R8_MISSING.test(line)) {
      this.add({
        severity: 'error',
        source: 'r8',
        file: null,
        line: null,
        column: null,
        message: line,
        task: this.currentTask,
      });
      return;
    }
    // AAPT2 outside Gradle's failure block (older AGP prints them right under the task).
    if ((m = AAPT2_LINK.exec(line)) && m[1]) this.addAapt2(m);
  }

  private addAapt2(m: RegExpExecArray, task: string | null = this.currentTask): void {
    this.add({
      severity: severityOf(m[4]!),
      source: 'aapt2',
      file: m[2] ?? null,
      line: m[3] ? Number(m[3]) : null,
      column: null,
      message: m[5]!,
      task,
    });
  }

  /** Handles the config-cache problem list; returns true when the line belonged to it. */
  private scanConfigCache(line: string, severity: DiagnosticSeverity): boolean {
    if (CC_HEADER.test(line.trim())) {
      this.inCcList = true;
      return true;
    }
    if (!this.inCcList) return false;
    const bullet = CC_BULLET.exec(line.trim());
    if (bullet && !line.startsWith('  ')) {
      const text = bullet[1]!;
      const buildFile = /^(?:Build|Settings|Script|Init script) file '([^']+)': (.*)$/.exec(text);
      const task = /^Task `([^`]+)` of type `[^`]+`: (.*)$/.exec(text);
      if (buildFile)
        this.add({
          severity,
          source: 'config-cache',
          file: buildFile[1]!,
          line: null,
          column: null,
          message: buildFile[2]!,
          task: null,
        });
      else if (task)
        this.add({
          severity,
          source: 'config-cache',
          file: null,
          line: null,
          column: null,
          message: `${task[1]}: ${task[2]}`,
          task: task[1]!,
        });
      else
        this.add({ severity, source: 'config-cache', file: null, line: null, column: null, message: text, task: null });
      return true;
    }
    if (/^\s+See https?:/.test(line)) return true;
    this.inCcList = false;
    return false;
  }

  private blockTask(lines: readonly string[] = this.block): string | null {
    const header = lines.find((l) => l.trim() !== '');
    const m = header ? /^Execution failed for task '([^']+)'/.exec(header.trim()) : null;
    return m ? m[1]! : null;
  }

  private scanInsideBlock(line: string): void {
    if (this.scanConfigCache(line, 'error')) return;
    const m = AAPT2_LINK.exec(line);
    if (m && /^\s/.test(line)) {
      this.addAapt2(m, this.blockTask() ?? this.currentTask);
    }
  }

  private closeBlock(): void {
    this.inCcList = false;
    if (this.section !== 'what-went-wrong' || this.block.length === 0) {
      this.block = [];
      return;
    }
    const lines = this.block;
    this.block = [];
    const header = lines.find((l) => l.trim() !== '')?.trim();
    if (!header) return;
    if (header === 'Script compilation error:') {
      this.scriptErrors(lines);
      return;
    }
    if (/^Configuration cache problems found/.test(header)) return;
    const task = this.blockTask(lines);
    const causes = lines.map((l) => /^\s*> (.*)$/.exec(l)?.[1]).filter((c): c is string => c !== undefined);
    const cause = causes.length > 0 ? causes[causes.length - 1]!.trim() : null;
    const headline = header.replace(/\.$/, '');
    const located = cause
      ? /^(\/\S+?|[A-Za-z]:\\\S+?):(\d+)(?::(\d+))?: (?:Error|error|ERROR): (.*)$/.exec(cause)
      : null;
    // R8 names the position at the end of its cause: `…, position: offset: 96, line: 3, column: 19, origin: /p/rules.pro`.
    const position = cause ? /\bline: (\d+), column: (\d+), origin: (\S+)$/.exec(cause) : null;
    if (located) {
      this.add({
        severity: 'error',
        source: 'gradle',
        file: located[1]!,
        line: Number(located[2]),
        column: located[3] ? Number(located[3]) : null,
        message: located[4]!,
        task,
      });
    } else if (position) {
      this.add({
        severity: 'error',
        source: 'gradle',
        file: normalizePath(position[3]!),
        line: Number(position[1]),
        column: Number(position[2]),
        message: `${headline}: ${cause}`,
        task,
      });
    } else {
      this.add({
        severity: 'error',
        source: 'gradle',
        file: this.where?.file ?? null,
        line: this.where?.line ?? null,
        column: null,
        message: cause ? `${headline}: ${cause}` : headline,
        task,
      });
    }
    const compile = cause ? AAPT2_COMPILE.exec(cause) : null;
    if (compile)
      this.add({
        severity: 'error',
        source: 'aapt2',
        file: compile[1]!,
        line: null,
        column: null,
        message: compile[2]!,
        task,
      });
    this.where = null;
  }

  /** `Line 23: <code>` followed by a caret line `   ^ message`, located by the `* Where:` section. */
  private scriptErrors(lines: string[]): void {
    for (let i = 0; i < lines.length; i++) {
      const code = /^(\s*Line (\d+): )(.*)$/.exec(lines[i]!);
      if (!code) continue;
      const caret = lines[i + 1] !== undefined ? /^(\s*)\^ (.*)$/.exec(lines[i + 1]!) : null;
      if (!caret) continue;
      const column = caret[1]!.length - code[1]!.length + 1;
      this.add({
        severity: 'error',
        source: 'script',
        file: this.where?.file ?? null,
        line: Number(code[2]),
        column: column > 0 ? column : null,
        message: caret[2]!,
        task: null,
      });
      i++;
    }
    this.where = null;
  }
}

/** Parses a whole output at once (tests, and re-reading a stored log). */
export function parseGradleOutput(text: string): BuildDiagnostic[] {
  const parser = new GradleOutputParser();
  for (const line of text.split('\n')) parser.push(line);
  return parser.finish();
}

export function countBySeverity(diagnostics: readonly BuildDiagnostic[]): {
  error: number;
  warning: number;
  info: number;
} {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}
