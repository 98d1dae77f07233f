import { render } from 'ink';
import { DashboardApp } from './dashboard-app.js';
import { DashboardModel } from './dashboard-model.js';
import type { DashboardSources } from './dashboard-sources.js';
import { colorsEnabled } from './screen-text.js';

/** The terminal's alternate screen, so quitting gives the shell back as it was. */
const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';

/**
 * Runs the dashboard on this terminal until `q` (or Ctrl-C, SIGTERM, SIGHUP). The model publishes at most one
 * change every FRAME_MS, so a flood of events costs at most 10 frames a second.
 */
export async function runDashboard(sources: DashboardSources): Promise<void> {
  const model = new DashboardModel(sources);
  model.start();
  process.stdout.write(ENTER_ALT_SCREEN);
  const instance = render(<DashboardApp model={model} sources={sources} color={colorsEnabled()} />, {
    // The model already sends at most one change per FRAME_MS; a second throttle here would only add its delay
    // to every frame. Keys still redraw at once.
    maxFps: 30,
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
