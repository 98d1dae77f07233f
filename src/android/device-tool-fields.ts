import { z } from 'zod';

/*
 * Input fields every device tool shares, so the same argument means the same thing (and is described
 * the same way) in every toolset. Values are checked again by the validators before use.
 */

export const deviceSerialField = z
  .string()
  .min(1)
  .max(128)
  .optional()
  .describe('adb serial (list_devices); needed only when several devices are online.');

export const requiredDeviceSerialField = z
  .string()
  .min(1)
  .max(128)
  .describe('adb serial of the device (from list_devices).');

export const packageField = z.string().min(1).max(255).describe('Application id of the app, e.g. com.example.app.');

/** For read-only app tools: the project's app unless the agent names another. */
export const defaultedPackageField = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe("Application id, e.g. com.example.app; defaults to the project's application id when it has exactly one.");

export const allowForeignPackageField = z
  .boolean()
  .optional()
  .describe(
    "Act on a package that is not one of the selected project's application ids. Pass true only when the user explicitly asked for that package.",
  );

export const launchTimingFields = {
  total_ms: z.number().int().optional().describe('TotalTime reported by am start -W, in ms, when reported.'),
  wait_ms: z.number().int().optional().describe('WaitTime reported by am start -W, in ms, when reported.'),
  launch_state: z
    .string()
    .optional()
    .describe('LaunchState reported by am start -W (COLD, WARM, HOT, …), when reported.'),
};
