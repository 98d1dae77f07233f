/**
 * A unified diff of one edit. Setup changes one contiguous region of a config file, so the common
 * leading and trailing lines are context and the middle is the change: no general diff algorithm needed.
 */
export function unifiedDiff(path: string, before: string, after: string, context = 2): string {
  if (before === after) return '';
  const toLines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const a = toLines(before);
  const b = toLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - context);
  const aEnd = a.length - tail;
  const bEnd = b.length - tail;
  const after_ = Math.min(tail, context);
  const lines = [
    `--- ${path}`,
    `+++ ${path}`,
    `@@ -${from + 1},${aEnd + after_ - from} +${from + 1},${bEnd + after_ - from} @@`,
    ...a.slice(from, head).map((l) => ` ${l}`),
    ...a.slice(head, aEnd).map((l) => `-${l}`),
    ...b.slice(head, bEnd).map((l) => `+${l}`),
    ...a.slice(aEnd, aEnd + after_).map((l) => ` ${l}`),
  ];
  return lines.join('\n');
}
