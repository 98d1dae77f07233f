import { z } from 'zod';
import { defineEvent } from '../../events/event-definition.js';

const Serial = z.string().min(1).max(128);
const ScreenHash = z.string().min(8).max(64);

/** What an action aimed at, as recorded: the element's tree path and identifying fields, never a password's text. */
export const UiTargetSchema = z.object({
  path: z.string().max(4000).nullable(),
  resource_id: z.string().max(512).nullable(),
  text: z.string().max(200).nullable(),
  content_desc: z.string().max(200).nullable(),
  class_name: z.string().max(256).nullable(),
  x: z.number().int(),
  y: z.number().int(),
});

const ActionBase = {
  device_serial: Serial,
  /** The app in the foreground when the action was made. */
  foreground_package: z.string().max(255).nullable(),
  screen_hash_before: ScreenHash.nullable(),
  screen_hash_after: ScreenHash.nullable(),
};

export const UiTapped = defineEvent({
  type: 'ui.tapped',
  version: 1,
  description:
    'A tap (or long press) was sent to a device, at coordinates or on an element, with the screen before and after.',
  schema: z.object({ ...ActionBase, target: UiTargetSchema, long_press: z.boolean() }),
});

export const UiTextEntered = defineEvent({
  type: 'ui.text_entered',
  version: 1,
  description:
    'Text was typed into a device; recorded as its length and SHA-256 only, with the field it went to and the method used.',
  schema: z.object({
    ...ActionBase,
    target: UiTargetSchema.nullable(),
    length: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    method: z.enum(['input_text', 'ime_broadcast', 'clipboard']),
    cleared_first: z.boolean(),
  }),
});

export const UiSwiped = defineEvent({
  type: 'ui.swiped',
  version: 1,
  description:
    'A swipe or scroll gesture was sent to a device, from and to coordinates, with the screen before and after.',
  schema: z.object({
    ...ActionBase,
    from: z.object({ x: z.number().int(), y: z.number().int() }),
    to: z.object({ x: z.number().int(), y: z.number().int() }),
    duration_ms: z.number().int().nonnegative(),
    target: UiTargetSchema.nullable(),
  }),
});

export const UiKeySent = defineEvent({
  type: 'ui.key_sent',
  version: 1,
  description: 'A key event (back, home, enter, …) was sent to a device, or the soft keyboard was hidden.',
  schema: z.object({ ...ActionBase, key: z.string().max(64), keycode: z.number().int().nonnegative() }),
});

export const UiScreenshotTaken = defineEvent({
  type: 'ui.screenshot_taken',
  version: 1,
  description:
    "A device's screen was captured as a PNG: the hash and size of what the device sent and of what was returned.",
  schema: z.object({
    device_serial: Serial,
    foreground_package: z.string().max(255).nullable(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    bytes: z.number().int().nonnegative(),
    returned_width: z.number().int().positive(),
    returned_height: z.number().int().positive(),
  }),
});

export const uiEvents = [UiTapped, UiTextEntered, UiSwiped, UiKeySent, UiScreenshotTaken] as const;
