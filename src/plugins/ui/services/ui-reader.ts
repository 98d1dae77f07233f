import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'inversify';
import { DeviceInspector } from '../../../android/device-inspector.js';
import { elementIds } from '../../../android/ui/element-ids.js';
import { formatInteractiveRow, interactiveElements, simpleClassName } from '../../../android/ui/interactive-view.js';
import {
  buildSparseTree,
  flagWords,
  SPARSE_TREE_DEFAULT_MAX_BYTES,
  type SparseTree,
} from '../../../android/ui/sparse-tree.js';
import { diffUiCaptures, type UiDiff } from '../../../android/ui/ui-diff.js';
import type { UiNode } from '../../../android/ui/ui-dump-parser.js';
import {
  EmptySelectorError,
  findElements,
  type FindResult,
  SELECTOR_FIELDS,
  type UiSelector,
} from '../../../android/ui/ui-selectors.js';
import { clip, type Page, pageOf } from '../../../kernel/bounded-output.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import { type UiCapture, UiCapturer } from './ui-capturer.js';

/** Full sparse trees kept in the data dir (`ui-trees/`): the newest this many. */
const KEPT_TREE_FILES = 50;

/** What every reading tool reports about the screen it read. */
export interface ScreenFacts {
  device_serial: string;
  screen_hash: string;
  package?: string;
  activity?: string;
}

/**
 * The reading side of the ui toolset: selects the device, captures through UiCapturer, and shapes the
 * foundations' views (src/android/ui) into bounded tool data.
 */
@injectable()
export class UiReader {
  constructor(
    @inject(DeviceInspector) private readonly devices: DeviceInspector,
    @inject(UiCapturer) readonly capturer: UiCapturer,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
  ) {}

  selectDevice(requested: string | undefined, ctx: ToolContext): Promise<string> {
    return this.devices.select(requested, ctx);
  }

  async capture(requested: string | undefined, ctx: ToolContext, deadlineMs?: number): Promise<UiCapture> {
    const serial = await this.selectDevice(requested, ctx);
    return this.capturer.capture(serial, { signal: ctx.signal, deadlineMs });
  }

  facts(capture: UiCapture): ScreenFacts {
    return {
      device_serial: capture.deviceSerial,
      screen_hash: capture.screenHash,
      ...(capture.snapshot.foregroundPackage ? { package: capture.snapshot.foregroundPackage } : {}),
      ...(capture.activity ? { activity: capture.activity } : {}),
    };
  }

  /** Interactive-view rows, paged; `actionableOnly` keeps the elements a tap acts on. */
  rows(capture: UiCapture, page: { limit: number; cursor?: string }, actionableOnly = false): Page<string> {
    const elements = interactiveElements(capture.snapshot).filter((e) => !actionableOnly || e.actionable);
    return pageOf(elements.map(formatInteractiveRow), page);
  }

  /** The sparse tree within 16 KiB; when it had to be cut, the whole tree is written to the data dir. */
  sparse(capture: UiCapture): { tree: SparseTree; file: string | null } {
    const tree = buildSparseTree(capture.snapshot, { maxBytes: SPARSE_TREE_DEFAULT_MAX_BYTES });
    if (tree.truncatedAtDepth === null && tree.childrenLimit === null) return { tree, file: null };
    const full = buildSparseTree(capture.snapshot, { maxBytes: Number.POSITIVE_INFINITY });
    const dir = join(this.options.home, 'ui-trees');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${capture.deviceSerial.replace(/[^\w.-]+/g, '_')}-${capture.screenHash}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        device_serial: capture.deviceSerial,
        screen_hash: capture.screenHash,
        captured_at: new Date(capture.capturedAt).toISOString(),
        roots: full.roots,
      }),
    );
    pruneOldest(dir, KEPT_TREE_FILES);
    return { tree, file };
  }

  diff(before: UiCapture, after: UiCapture, maxEntries: number): UiDiff {
    return diffUiCaptures(
      { snapshot: before.snapshot, activity: before.activity },
      { snapshot: after.snapshot, activity: after.activity },
      maxEntries,
    );
  }

  /** Refuses a selector with no field set before anything is read (findElements would refuse it on every read). */
  requireSelector(selector: UiSelector): void {
    if (SELECTOR_FIELDS.every((field) => selector[field] === undefined)) {
      throw new InvalidArgumentsError(new EmptySelectorError().message, 'INVALID_ARGUMENT');
    }
  }

  find(capture: UiCapture, selector: UiSelector, max: number): FindResult {
    try {
      return findElements(capture.snapshot, selector, max);
    } catch (error) {
      if (error instanceof EmptySelectorError) throw new InvalidArgumentsError(error.message, 'INVALID_ARGUMENT');
      throw error;
    }
  }

  /**
   * One element as a line: `id path Class "text" desc="…" res=com.x:id/y hint="…" [l,t][r,b] @x,y flags`,
   * parts it lacks left out, texts cut to 200 characters.
   */
  element(capture: UiCapture, node: UiNode): string {
    const parts = [
      elementIds(capture.snapshot).idOf.get(node) ?? node.path,
      node.path,
      simpleClassName(node.className) || '?',
    ];
    if (node.text) parts.push(JSON.stringify(clip(node.text, 200)));
    if (node.contentDesc) parts.push(`desc=${JSON.stringify(clip(node.contentDesc, 200))}`);
    if (node.resourceId) parts.push(`res=${clip(node.resourceId, 200)}`);
    if (node.hint && !node.text) parts.push(`hint=${JSON.stringify(clip(node.hint, 200))}`);
    const b = node.bounds;
    if (b) parts.push(`[${b.left},${b.top}][${b.right},${b.bottom}]`);
    if (node.center) parts.push(`@${node.center.x},${node.center.y}`);
    const flags = flagWords(node);
    if (flags) parts.push(flags);
    return parts.join(' ');
  }
}

function pruneOldest(dir: string, keep: number): void {
  try {
    const files = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const file of files.slice(keep)) rmSync(file.path, { force: true });
  } catch {
    // Housekeeping: a file another process removed first is not a failure of this read.
  }
}
