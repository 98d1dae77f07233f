/*
 * Codex keeps MCP servers in TOML (`[mcp_servers.<name>]` with `command` and `args`). Without its CLI,
 * setup edits that one table as lines: the rest of the file is kept byte for byte.
 */
import type { ServerLaunch } from './agent-integration.js';

const TOML_STRING = /"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g;

function tomlString(token: string): string {
  return token.startsWith("'") ? token.slice(1, -1) : (JSON.parse(token) as string);
}

function headerName(line: string): string | null {
  const m = /^\s*\[\s*([^\]]+?)\s*\]\s*(?:#.*)?$/.exec(line);
  return m ? m[1]!.replace(/"([^"]*)"/g, '$1').replace(/\s*\.\s*/g, '.') : null;
}

/** Line range [start, end) of `[mcp_servers.<name>]` and its subtables (`.env`), or null. */
function tableRange(lines: string[], name: string): [number, number] | null {
  const table = `mcp_servers.${name}`;
  const start = lines.findIndex((line) => headerName(line) === table);
  if (start < 0) return null;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const header = headerName(lines[end]!);
    if (header !== null && header !== table && !header.startsWith(`${table}.`)) break;
  }
  // Blank lines before the next table belong to the gap, not to this one.
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  return [start, end];
}

/** `command` and `args` of `[mcp_servers.<name>]`, or undefined when there is no such table. */
export function readTomlServer(text: string, name: string): ServerLaunch | null | undefined {
  const lines = text.split('\n');
  const range = tableRange(lines, name);
  if (!range) return undefined;
  const body = lines.slice(range[0] + 1, range[1]).join('\n');
  const command = /^\s*command\s*=\s*("(?:[^"\\\n]|\\.)*"|'[^'\n]*')/m.exec(body)?.[1];
  if (!command) return null;
  const argsText = /^\s*args\s*=\s*\[([\s\S]*?)\]/m.exec(body)?.[1] ?? '';
  const args = [...argsText.matchAll(TOML_STRING)].map((m) => tomlString(m[0]));
  return { command: tomlString(command), args };
}

export function removeTomlServer(text: string, name: string): string {
  const lines = text.split('\n');
  const range = tableRange(lines, name);
  if (!range) return text;
  let [start, end] = range;
  // Take one blank line before the table with it (setup adds one when appending).
  if (start > 0 && lines[start - 1]!.trim() === '') start--;
  else if (end < lines.length && lines[end]!.trim() === '') end++;
  lines.splice(start, end - start);
  return lines.join('\n');
}

export function setTomlServer(text: string, name: string, launch: ServerLaunch): string {
  const base = removeTomlServer(text, name);
  const table = [
    `[mcp_servers.${name}]`,
    `command = ${JSON.stringify(launch.command)}`,
    `args = [${launch.args.map((a) => JSON.stringify(a)).join(', ')}]`,
  ].join('\n');
  if (base.trim() === '') return `${table}\n`;
  return `${base.replace(/\n*$/, '')}\n\n${table}\n`;
}
