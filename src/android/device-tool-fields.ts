import { z } from 'zod';

/*
 * Input fields every device tool shares, so the same argument means the same thing (and is described
 * the same way) in every toolset. Values are checked again by the validators before use.
 */

export const deviceSerialField = z.string().min(1).max(128).optional().describe('adb serial (list_devices).');

export const requiredDeviceSerialField = z.string().min(1).max(128).describe('adb serial (list_devices).');

export const packageField = z.string().min(1).max(255).describe('Application id.');

/** For read-only app tools: the project's app unless the agent names another. */
export const defaultedPackageField = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe("Application id; default: the project's only one.");

export const allowForeignPackageField = z
  .boolean()
  .optional()
  .describe('Needed for a package outside the project; only if the user asked for it.');

export const launchTimingFields = {
  total_ms: z.number().int().optional().describe('TotalTime reported by am start -W, in ms, when reported.'),
  wait_ms: z.number().int().optional().describe('WaitTime reported by am start -W, in ms, when reported.'),
  launch_state: z
    .string()
    .optional()
    .describe('LaunchState reported by am start -W (COLD, WARM, HOT, …), when reported.'),
};
