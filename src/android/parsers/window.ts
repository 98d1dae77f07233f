/** `pkg/.Act` or `pkg/pkg.Act` split into parts, with the class fully qualified. */
export interface Component {
  readonly package: string;
  readonly activity: string;
  /** As printed: `com.x/.Main`. */
  readonly flat: string;
}

export function parseComponent(flat: string): Component | null {
  const m = /^([A-Za-z][\w.]*)\/([\w.$]+)$/.exec(flat.trim());
  if (!m) return null;
  const pkg = m[1]!;
  const cls = m[2]!.startsWith('.') ? pkg + m[2]! : m[2]!;
  return { package: pkg, activity: cls, flat: flat.trim() };
}

export interface WindowFocus {
  /** The focused window's component, when it is an activity window. */
  readonly currentFocus: Component | null;
  /** The window title when the focus is not an activity (`StatusBar`, `NotificationShade`), else null. */
  readonly currentFocusTitle: string | null;
  readonly focusedApp: Component | null;
}

/** Reads `mCurrentFocus=` and `mFocusedApp=` from `dumpsys window` (any of its sections; old and new formats). */
export function parseWindowFocus(output: string): WindowFocus {
  let currentFocus: Component | null = null;
  let currentFocusTitle: string | null = null;
  let focusedApp: Component | null = null;
  for (const line of output.split(/\r?\n/)) {
    const focus = /mCurrentFocus=Window\{\S+(?: u\d+)? ([^\s}]+)/.exec(line);
    if (focus && !currentFocus && !currentFocusTitle) {
      const component = parseComponent(focus[1]!);
      if (component) currentFocus = component;
      else currentFocusTitle = focus[1]!;
    }
    if (/mFocusedApp=/.test(line) && !focusedApp) {
      const record = /ActivityRecord\{\S+(?: u\d+)? ([^\s}]+)/.exec(line);
      if (record) focusedApp = parseComponent(record[1]!);
    }
  }
  return { currentFocus, currentFocusTitle, focusedApp };
}
