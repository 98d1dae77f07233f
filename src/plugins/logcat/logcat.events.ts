import { z } from 'zod';
import { defineEvent } from '../../events/event-definition.js';

const Serial = z.string().min(1).max(128);
const Package = z.string().min(1).max(255);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Count = z.number().int().nonnegative();

/** Log lines kept in a crash event: the block itself and a few lines around it, each cut to 1,000 characters. */
export const CRASH_CONTEXT_MAX_LINES = 120;

export const LogcatStarted = defineEvent({
  type: 'logcat.started',
  version: 1,
  description:
    "A logcat worker began streaming a device's log into the line store; `pid` is the worker process, `took_over` names a dead worker whose lease it took.",
  schema: z.object({
    device_serial: Serial,
    pid: z.number().int().positive(),
    format: z.enum(['binary', 'threadtime']),
    buffers: z.array(z.string().max(16)).max(8),
    took_over: z.number().int().positive().nullable(),
  }),
});

export const LogcatStopped = defineEvent({
  type: 'logcat.stopped',
  version: 1,
  description:
    'A logcat worker stopped, saying why, with what it read, stored, evicted by retention and dropped at ingest.',
  schema: z.object({
    device_serial: Serial,
    pid: z.number().int().positive(),
    reason: z.enum(['requested', 'device_gone', 'idle', 'signal', 'error']),
    detail: z.string().max(1000).nullable(),
    read: Count,
    stored: Count,
    evicted: Count,
    dropped: Count,
  }),
});

/** What a crash event says about the build installed when it happened (from the installed-builds read model). */
export const CrashBuildSchema = z.object({
  build_id: z.string().max(64).nullable(),
  apk_sha256: Sha256,
  version_code: z.number().int(),
  variant: z.string().nullable(),
  /** Seq of the `app.installed` event the link was made from. */
  installed_seq: z.number().int().positive(),
});

const CrashBase = {
  device_serial: Serial,
  package: Package.nullable(),
  pid: z.number().int().nullable(),
  process: z.string().max(512).nullable(),
  /** Exception class + first app frames (line numbers dropped), see src/android/logcat/crash-signature.ts. */
  signature: z.string().max(2000),
  signature_hash: z.string().min(8).max(64),
  /** Device time of the block's first line, epoch ms as the line store keeps it. */
  time_ms: z.number().int().nullable(),
  /** Line-store seqs of the block's first and last lines, so the tools can show the log around it. */
  first_line_seq: z.number().int().nonnegative().nullable(),
  last_line_seq: z.number().int().nonnegative().nullable(),
  /** The block's lines in threadtime form, bounded by CRASH_CONTEXT_MAX_LINES. */
  lines: z.array(z.string().max(1000)).max(CRASH_CONTEXT_MAX_LINES),
  truncated: z.boolean(),
  build: CrashBuildSchema.nullable(),
};

export const AppCrashed = defineEvent({
  type: 'app.crashed',
  version: 1,
  description:
    'An app died of an uncaught Java/Kotlin exception (`FATAL EXCEPTION` in the log), with its stack, signature and the installed build.',
  schema: z.object({
    ...CrashBase,
    thread: z.string().max(512),
    exception_class: z.string().max(512),
    message: z.string().max(4000).nullable(),
    /** `r8-map-id-…` markers found in the frames: the mapping the build was minified with. */
    r8_map_ids: z.array(z.string().max(128)).max(4),
  }),
});

export const AppNativeCrashed = defineEvent({
  type: 'app.native_crashed',
  version: 1,
  description:
    'A process died of a fatal signal (`Fatal signal` + the tombstone crash_dump logs), with its backtrace frames, signature and the installed build.',
  schema: z.object({
    ...CrashBase,
    signal: z.string().max(32).nullable(),
    fault_address: z.string().max(64).nullable(),
    abort_message: z.string().max(4000).nullable(),
    has_tombstone: z.boolean(),
  }),
});

export const AppNotResponding = defineEvent({
  type: 'app.not_responding',
  version: 1,
  description:
    'The system reported an ANR for an app (`ANR in …`), with its reason, signature and the installed build.',
  schema: z.object({
    ...CrashBase,
    component: z.string().max(512).nullable(),
    reason: z.string().max(4000).nullable(),
  }),
});

export const logcatEvents = [LogcatStarted, LogcatStopped, AppCrashed, AppNativeCrashed, AppNotResponding] as const;
