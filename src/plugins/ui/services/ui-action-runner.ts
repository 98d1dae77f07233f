import { inject, injectable } from 'inversify';
import { DeviceInspector } from '../../../android/device-inspector.js';
import { elementIds } from '../../../android/ui/element-ids.js';
import { formatInteractiveRow, interactiveElements, simpleClassName } from '../../../android/ui/interactive-view.js';
import { diffUiCaptures } from '../../../android/ui/ui-diff.js';
import { isActionable, isEditable, type UiNode, type UiSnapshot } from '../../../android/ui/ui-dump-parser.js';
import { resolveSingleTarget, type UiSelector, type UiTarget } from '../../../android/ui/ui-selectors.js';
import { type ErrorCode, InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import type { ActionOutput } from '../ui-action-fields.js';
import type { UiTargetSchema } from '../ui.events.js';
import { type UiCapture, UiCapturer } from './ui-capturer.js';
import type { z } from 'zod';

/*
 * The frame every acting tool runs in: pick the device, capture the screen, refuse when it is not the screen
 * the agent read (expect_screen_hash), resolve the target on that same capture, act, let the screen settle,
 * and describe what changed. The tools supply only the action.
 */

/** Diff rows returned after an action: enough to act again without re-reading, bounded for the response. */
const ACTION_DIFF_ENTRIES = 30;
/** After an action the screen is captured until two captures agree, at most this many times. */
const SETTLE_MAX_CAPTURES = 4;
const SETTLE_FIRST_WAIT_MS = 150;
const SETTLE_INTERVAL_MS = 250;
/** Deadline of each capture after an action: shorter than a read's, as a screen turned off never answers. */
const SETTLE_CAPTURE_DEADLINE_MS = 15_000;

export type UiTargetRecord = z.infer<typeof UiTargetSchema>;

export interface UiActionFrame {
  readonly serial: string;
  readonly before: UiCapture;
}

export interface TargetArgs {
  readonly element?: string;
  readonly text?: string;
  readonly text_contains?: string;
  readonly resource_id?: string;
}

const REFUSAL_CODES: Record<string, ErrorCode> = {
  not_found: 'ELEMENT_NOT_FOUND',
  ambiguous: 'ELEMENT_AMBIGUOUS',
  disabled: 'ELEMENT_DISABLED',
  not_visible: 'ELEMENT_NOT_VISIBLE',
};

function clip(value: string, max: number): string | null {
  if (!value) return null;
  return value.length > max ? value.slice(0, max) : value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const SELECTOR_KEYS = ['text', 'text_contains', 'resource_id'] as const;
const SELECTOR_VALUE_MAX = 1000;

/** A target from exactly one of `element` and the selector fields, or an argument error naming the field. */
export function targetFromArgs(args: TargetArgs, required = true): UiTarget | null {
  const selector: Record<string, string> = {};
  for (const key of SELECTOR_KEYS) {
    const value = args[key];
    if (value === undefined) continue;
    if (value.length > SELECTOR_VALUE_MAX)
      throw new InvalidArgumentsError(`${key} is over ${SELECTOR_VALUE_MAX} characters.`, 'INVALID_ARGUMENT', key);
    selector[key] = value;
  }
  const hasSelector = Object.keys(selector).length > 0;
  if (args.element !== undefined && hasSelector)
    throw new InvalidArgumentsError(
      'Give either element or selector fields (text, resource_id, …), not both.',
      'INVALID_ARGUMENT',
      'element',
    );
  if (args.element !== undefined) return { element: args.element };
  if (hasSelector) return { selector: selector as UiSelector };
  if (!required) return null;
  throw new InvalidArgumentsError(
    'Name the element: element (an id or tree path from get_ui_hierarchy) or selector fields (e.g. text: "Sign in").',
    'INVALID_ARGUMENT',
    'element',
  );
}

/** The node as a view row (`login_button Button "Sign in" @540,1210 click`), for results and refusals. */
export function describeNode(snapshot: UiSnapshot, node: UiNode): string {
  const element = interactiveElements(snapshot).find((candidate) => candidate.node === node);
  if (element) return formatInteractiveRow(element);
  const id = elementIds(snapshot).idOf.get(node) ?? node.path;
  const label = node.text || node.contentDesc;
  const center = node.center ? ` @${node.center.x},${node.center.y}` : '';
  return `${id} ${simpleClassName(node.className)}${label ? ` ${JSON.stringify(label.slice(0, 80))}` : ''}${center}`;
}

/** The deepest actionable node under a point (else the deepest node there), for recording what a tap hit. */
export function nodeAt(snapshot: UiSnapshot, x: number, y: number): UiNode | null {
  let hit: UiNode | null = null;
  let actionable: UiNode | null = null;
  for (const node of snapshot.nodes) {
    const b = node.bounds;
    if (!b || x < b.left || x >= b.right || y < b.top || y >= b.bottom) continue;
    hit = node;
    if (isActionable(node)) actionable = node;
  }
  return actionable ?? hit;
}

/** The field text input goes to: the focused text field of the capture. */
export function focusedEditable(snapshot: UiSnapshot): UiNode | null {
  return snapshot.nodes.find((node) => node.flags.focused && isEditable(node)) ?? null;
}

/** What the event log keeps of a target: identifying fields, never a password field's text. */
export function targetRecord(node: UiNode | null, point: { x: number; y: number }): UiTargetRecord {
  return {
    path: node?.path ?? null,
    resource_id: node ? clip(node.resourceId, 512) : null,
    text: node && !node.flags.password ? clip(node.text, 200) : null,
    content_desc: node ? clip(node.contentDesc, 200) : null,
    class_name: node ? clip(node.className, 256) : null,
    x: point.x,
    y: point.y,
  };
}

@injectable()
export class UiActionRunner {
  constructor(
    @inject(DeviceInspector) private readonly devices: DeviceInspector,
    @inject(UiCapturer) private readonly capturer: UiCapturer,
  ) {}

  /** Selects the device and captures its screen; refuses with SCREEN_CHANGED when it is not the expected one. */
  async begin(args: { device_serial?: string; expect_screen_hash?: string }, ctx: ToolContext): Promise<UiActionFrame> {
    const serial = await this.devices.select(args.device_serial, ctx);
    const before = await this.capturer.capture(serial, { signal: ctx.signal });
    if (args.expect_screen_hash !== undefined && before.screenHash !== args.expect_screen_hash) {
      throw new ToolError(
        'SCREEN_CHANGED',
        `The screen changed since you read it (expected ${args.expect_screen_hash}, now ${before.screenHash}); nothing was done. Read it again (get_ui_hierarchy or compare_ui_state) and retry with expect_screen_hash ${before.screenHash}.`,
        { screen_hash: before.screenHash },
      );
    }
    return { serial, before };
  }

  /** The one usable node the target names on the frame's capture, or a refusal naming why (and the candidates). */
  resolve(frame: UiActionFrame, target: UiTarget, options: { requireEnabled?: boolean } = {}): UiNode {
    const snapshot = frame.before.snapshot;
    const resolution = resolveSingleTarget(snapshot, target, options);
    if (resolution.ok) return resolution.node;
    const candidates = resolution.candidates.map((node) => describeNode(snapshot, node));
    throw new ToolError(
      REFUSAL_CODES[resolution.reason] ?? 'ELEMENT_NOT_FOUND',
      resolution.reason === 'ambiguous'
        ? `${resolution.message}. Candidates: ${candidates.join(' | ')}`
        : resolution.message,
      { screen_hash: frame.before.screenHash, ...(candidates.length > 0 ? { candidates } : {}) },
    );
  }

  /** Captures until the screen stops changing (two captures agree) or SETTLE_MAX_CAPTURES were taken. */
  async settle(frame: UiActionFrame, signal: AbortSignal): Promise<UiCapture> {
    await sleep(SETTLE_FIRST_WAIT_MS, signal);
    const options = { signal, deadlineMs: SETTLE_CAPTURE_DEADLINE_MS };
    let latest = await this.capturer.capture(frame.serial, options);
    for (let i = 1; i < SETTLE_MAX_CAPTURES && !signal.aborted; i++) {
      await sleep(SETTLE_INTERVAL_MS, signal);
      const next = await this.capturer.capture(frame.serial, options);
      const stable = next.screenHash === latest.screenHash;
      latest = next;
      if (stable) break;
    }
    return latest;
  }

  /**
   * Settles after the action and hands `record` the new capture, or null when it could not be taken (the action
   * happened all the same, so its event is appended before the error is reported).
   */
  async afterAction(
    frame: UiActionFrame,
    ctx: ToolContext,
    record: (after: UiCapture | null) => void,
  ): Promise<UiCapture> {
    let after: UiCapture;
    try {
      after = await this.settle(frame, ctx.signal);
    } catch (error) {
      record(null);
      // The input was delivered: say so, or the agent would repeat an action that happened (a tap, a key).
      if (error instanceof ToolError && error.code !== 'CANCELLED')
        throw new ToolError(
          error.code,
          `The action was sent, but reading the screen after it failed: ${error.message}`,
          error.details,
        );
      throw error;
    }
    record(after);
    return after;
  }

  /** The result every acting tool returns: the new hash and, when the screen changed, the diff. */
  output(frame: UiActionFrame, after: UiCapture, target?: UiNode | null, targetOn = frame.before): ActionOutput {
    const before = frame.before;
    const data: ActionOutput = {
      device_serial: frame.serial,
      screen_hash: after.screenHash,
      screen_changed: after.screenHash !== before.screenHash,
      ...(target ? { target: describeNode(targetOn.snapshot, target) } : {}),
    };
    if (!data.screen_changed) return data;
    const diff = diffUiCaptures(
      { snapshot: before.snapshot, activity: before.activity },
      { snapshot: after.snapshot, activity: after.activity },
      ACTION_DIFF_ENTRIES,
    );
    const lines = [
      ...(diff.packageChanged && diff.afterPackage ? [`package ${diff.afterPackage}`] : []),
      ...(diff.activityChanged && after.activity ? [`activity ${after.activity}`] : []),
      ...diff.changed.map((c) => `~ ${c.before} → ${c.after}`),
      ...diff.added.map((row) => `+ ${row}`),
      ...diff.removed.map((row) => `- ${row}`),
      ...(diff.omitted > 0 ? [`… ${diff.omitted} more`] : []),
    ];
    return lines.length > 0 ? { ...data, diff: lines } : data;
  }

  /** Event fields every action shares. */
  eventBase(frame: UiActionFrame, after: UiCapture | null) {
    return {
      device_serial: frame.serial,
      foreground_package: frame.before.snapshot.foregroundPackage,
      screen_hash_before: frame.before.screenHash,
      screen_hash_after: after?.screenHash ?? null,
    };
  }

  /** Event meta: the device's stream, the device and the app in front. */
  eventMeta(frame: UiActionFrame) {
    const pkg = frame.before.snapshot.foregroundPackage;
    return { stream: `device:${frame.serial}`, device: frame.serial, ...(pkg ? { package: pkg } : {}) };
  }

  /** A one-line summary ending with what happened to the screen. */
  summary(action: string, data: ActionOutput): string {
    if (!data.screen_changed) return `${action}; screen unchanged (${data.screen_hash})`;
    return `${action}; screen now ${data.screen_hash}${data.diff ? ` (${data.diff.length} diff lines)` : ''}`;
  }
}
