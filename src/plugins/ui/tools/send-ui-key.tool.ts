import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { UI_KEY_NAMES, UI_KEYS } from '../services/ui-keys.js';
import { actionOutput, deviceSerialField, expectScreenHashField } from '../ui-action-fields.js';
import { UiKeySent } from '../ui.events.js';

export function createSendUiKeyTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'send_ui_key',
    toolset: 'ui',
    kind: 'W',
    title: 'Send a key',
    description: 'Press a named key. Returns the diff.',
    input: z.object({
      device_serial: deviceSerialField,
      key: z.enum(UI_KEY_NAMES).describe('The key.'),
      times: z.number().int().min(1).max(50).optional().describe('Presses, default 1.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    async handler(args, ctx) {
      const frame = await deps.runner.begin(args, ctx);
      const keycode = UI_KEYS[args.key];
      const times = args.times ?? 1;
      await deps.input.keyevents(frame.serial, Array<number>(times).fill(keycode), ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) => {
        for (let i = 0; i < times; i++)
          ctx.append(
            UiKeySent,
            { ...deps.runner.eventBase(frame, capture), key: args.key, keycode },
            deps.runner.eventMeta(frame),
          );
      });
      const data = deps.runner.output(frame, after);
      return { data, summary: deps.runner.summary(`pressed ${args.key}${times > 1 ? ` ×${times}` : ''}`, data) };
    },
  });
}
