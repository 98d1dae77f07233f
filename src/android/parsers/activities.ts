import { parseComponent, type Component } from './window.js';

export interface StackActivity extends Component {
  readonly taskId: number | null;
}

export interface ActivityStack {
  /** Activities from the top of the stack down, across every task, as `dumpsys activity activities` lists them. */
  readonly activities: readonly StackActivity[];
  /** The resumed (foreground) activity, when reported. */
  readonly resumed: Component | null;
}

const RECORD = /ActivityRecord\{\S+(?: u\d+)? ([^\s}]+)(?: t(-?\d+))?/;

/**
 * Reads `dumpsys activity activities`: `Hist #N:` (Android 7+) or `Run #N:` (older) rows give the stack
 * top-down; `mResumedActivity`, `ResumedActivity` or `topResumedActivity` names the foreground one.
 */
export function parseActivityStack(output: string): ActivityStack {
  const activities: StackActivity[] = [];
  let resumed: Component | null = null;
  for (const line of output.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (/^(\* )?(Hist|Run) #\d+:/.test(trimmed)) {
      const m = RECORD.exec(trimmed);
      const component = m ? parseComponent(m[1]!) : null;
      if (component) activities.push({ ...component, taskId: m![2] !== undefined ? Number(m![2]) : null });
    } else if (
      !resumed &&
      /^(mResumedActivity|ResumedActivity|topResumedActivity|mTopResumedActivity)[:=]/.test(trimmed)
    ) {
      const m = RECORD.exec(trimmed);
      if (m) resumed = parseComponent(m[1]!);
    }
  }
  return { activities, resumed };
}
