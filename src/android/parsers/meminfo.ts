/** `dumpsys meminfo <package>` for one process. Sizes are kB as printed; a column a release lacks is null. */
export interface MemInfo {
  readonly pid: number | null;
  readonly process: string | null;
  /** Column header → TOTAL row value, e.g. `Pss Total`, `Private Dirty`, `Rss Total`, `Heap Size`. */
  readonly totals: Readonly<Record<string, number>>;
  readonly totalPssKb: number | null;
  readonly totalRssKb: number | null;
  readonly privateDirtyKb: number | null;
  readonly nativeHeap: HeapInfo | null;
  readonly javaHeap: HeapInfo | null;
  /** `App Summary` rows (Java Heap, Native Heap, Code, Stack, Graphics, Private Other, System, …) in kB. */
  readonly summary: Readonly<Record<string, number>>;
  /** `Objects` counters (Views, Activities, AppContexts, …). */
  readonly objects: Readonly<Record<string, number>>;
}

export interface HeapInfo {
  readonly sizeKb: number | null;
  readonly allocatedKb: number | null;
  readonly freeKb: number | null;
}

export type MemInfoParse =
  | { readonly found: true; readonly info: MemInfo }
  | { readonly found: false; readonly reason: string };

interface Column {
  name: string;
  end: number;
}

/** The two header lines are right-aligned over the numbers: pair words that end in the same column. */
function headerColumns(top: string, bottom: string): Column[] {
  const words = (line: string): Column[] =>
    [...line.matchAll(/\S+/g)].map((m) => ({ name: m[0], end: m.index! + m[0].length }));
  const upper = words(top);
  return words(bottom).map((w) => {
    const over = upper.find((u) => Math.abs(u.end - w.end) <= 1);
    return { name: over ? `${over.name} ${w.name}` : w.name, end: w.end };
  });
}

function rowValues(line: string, columns: readonly Column[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const m of line.matchAll(/\d+/g)) {
    const end = m.index! + m[0].length;
    const col = columns.find((c) => Math.abs(c.end - end) <= 1);
    if (col) values[col.name] = Number(m[0]);
  }
  return values;
}

function heap(values: Record<string, number> | undefined): HeapInfo | null {
  if (!values) return null;
  return {
    sizeKb: values['Heap Size'] ?? null,
    allocatedKb: values['Heap Alloc'] ?? null,
    freeKb: values['Heap Free'] ?? null,
  };
}

export function parseMeminfo(output: string): MemInfoParse {
  const lines = output.split(/\r?\n/);
  const header = lines.map((l) => /\*\* MEMINFO in pid (\d+) \[([^\]]+)\] \*\*/.exec(l)).find((m) => m);
  if (!header) {
    const first = lines.find((l) => l.trim().length > 0)?.trim() ?? '(no output)';
    return { found: false, reason: first.slice(0, 200) };
  }
  let columns: Column[] = [];
  const rows: Record<string, Record<string, number>> = {};
  const summary: Record<string, number> = {};
  const objects: Record<string, number> = {};
  let section: 'table' | 'summary' | 'objects' | 'other' = 'table';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (columns.length === 0 && /^-+(\s+-+)+$/.test(trimmed) && i >= 2) {
      columns = headerColumns(lines[i - 2]!, lines[i - 1]!);
      continue;
    }
    if (trimmed === 'App Summary') section = 'summary';
    else if (trimmed === 'Objects') section = 'objects';
    else if (/^(Dalvik Details|SQL|DATABASES|Asset Allocations|Unreachable memory)$/.test(trimmed)) section = 'other';
    if (section === 'table' && columns.length > 0) {
      const m = /^\s*([A-Za-z.][A-Za-z .:]*?)\s+\d/.exec(line);
      if (m) rows[m[1]!.trim()] = rowValues(line, columns);
    } else if (section === 'summary') {
      for (const pair of trimmed.matchAll(/([A-Z][A-Za-z ]*?):\s+(\d+)/g)) summary[pair[1]!.trim()] = Number(pair[2]);
    } else if (section === 'objects') {
      for (const pair of trimmed.matchAll(/([A-Za-z][A-Za-z ]*?):\s+(\d+)/g))
        objects[pair[1]!.trim()] = Number(pair[2]);
    }
  }
  const totals = rows.TOTAL ?? {};
  const totalLine = lines.find((l) => /TOTAL PSS:\s+\d+/.test(l));
  const summaryPss = totalLine ? Number(/TOTAL PSS:\s+(\d+)/.exec(totalLine)![1]) : undefined;
  const summaryRss =
    totalLine && /TOTAL RSS:\s+(\d+)/.test(totalLine) ? Number(/TOTAL RSS:\s+(\d+)/.exec(totalLine)![1]) : undefined;
  // The "TOTAL PSS: …" line is not a table row; keep it out of the summary map.
  for (const key of Object.keys(summary)) if (/^TOTAL/.test(key)) delete summary[key];
  return {
    found: true,
    info: {
      pid: Number(header[1]),
      process: header[2]!,
      totals,
      totalPssKb: totals['Pss Total'] ?? summaryPss ?? null,
      totalRssKb: totals['Rss Total'] ?? summaryRss ?? null,
      privateDirtyKb: totals['Private Dirty'] ?? null,
      nativeHeap: heap(rows['Native Heap']),
      javaHeap: heap(rows['Dalvik Heap']),
      summary,
      objects,
    },
  };
}
