import { z } from 'zod';

/* Input fields the run-configuration tools share, described once. */

export const runConfigurationNameField = z
  .string()
  .min(1)
  .max(128)
  .describe('Name of the run configuration, as list_run_configurations shows it (e.g. "app-debug").');

export const buildTimeoutField = z
  .number()
  .int()
  .min(1)
  .max(3600)
  .optional()
  .describe('Stop the build after this many seconds; capped by buildTimeoutSec in settings (default 600).');
