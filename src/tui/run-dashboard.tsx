import { render } from 'ink';
import { DashboardApp } from './dashboard-app.js';
import { DashboardModel, FRAME_MS } from './dashboard-model.js';
import type { DashboardSources } from './dashboard-sources.js';
import { colorsEnabled } from './screen-text.js';

/** The terminal's alternate screen, so quitting gives the shell back as it was. */
const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';

/**
 * Runs the dashboard on this terminal until `q` (or Ctrl-C, SIGTERM, SIGHUP). The model publishes at most one
 * change every FRAME_MS and Ink draws at most one frame per FRAME_MS, so the screen changes at most 10 times a
 * second whatever the log or the keyboard do.
 */
export async function runDashboard(sources: DashboardSources): Promise<void> {
  const model = new DashboardModel(sources);
  model.start();
  process.stdout.write(ENTER_ALT_SCREEN);
  const instance = render(<DashboardApp model={model} sources={sources} color={colorsEnabled()} />, {
    // The model sends at most one change per FRAME_MS; this bounds what keys add (a held key, a paste) to the same
    // 10 frames a second. Ink's throttle draws the first change at once and the rest at the end of the window.
    maxFps: 1000 / FRAME_MS,
    patchConsole: false,
    exitOnCtrlC: true,
  });
  const stop = () => instance.unmount();
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  try {
    await instance.waitUntilExit();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGHUP', stop);
    model.close();
    process.stdout.write(LEAVE_ALT_SCREEN);
  }
}
