// What human output may do on the stream it goes to: colors and the width to lay out in. Decoration is for
// terminals; a pipe or a file gets plain text whatever its width.

/**
 * Colors on `stream`: FORCE_COLOR turns them on (off when "0" or "false"), as Node's own tty does, and takes
 * precedence; a non-empty NO_COLOR (no-color.org) turns them off; otherwise only on a terminal.
 */
export function colorsOn(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR) return false;
  return stream.isTTY === true;
}

/** The terminal's width, or undefined when `stream` is not a terminal (then nothing is wrapped or cut to fit). */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number } = process.stdout): number | undefined {
  return stream.isTTY && stream.columns ? stream.columns : undefined;
}
