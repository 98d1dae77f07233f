/** `getprop` output: `[key]: [value]` lines; a value may span lines. */
export function parseGetprop(text: string): Record<string, string> {
  const props: Record<string, string> = {};
  const re = /^\[([^\]\n]+)\]: \[([\s\S]*?)\]\r?$/gm;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text))) props[match[1]!] = match[2]!;
  return props;
}

/** Integer property or null (never 0 for "unknown"). */
export function intProp(props: Record<string, string>, key: string): number | null {
  const raw = props[key]?.trim();
  if (!raw || !/^-?\d+$/.test(raw)) return null;
  return Number(raw);
}
