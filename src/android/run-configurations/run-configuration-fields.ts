import { z } from 'zod';

/* Input fields the run-configuration tools share, described once. */

export const runConfigurationNameField = z
  .string()
  .min(1)
  .max(128)
  .describe('Run configuration name, as list_run_configurations shows it.');

export const buildTimeoutField = z
  .number()
  .int()
  .min(1)
  .max(3600)
  .optional()
  .describe('Build time limit in s; buildTimeoutSec (default 600) caps it.');
