import { z } from 'zod';
import { defineEvent } from '../../events/event-definition.js';

/** A human allowed the project's build code to run (CLI or TUI; never an MCP tool). */
export const ProjectTrusted = defineEvent({
  type: 'project.trusted',
  version: 1,
  description: 'A person trusted a project so its Gradle build may run.',
  schema: z.object({
    root: z.string().min(1),
    by: z.string(),
    /** How it was confirmed: "yes" at a terminal prompt, --yes, the demo's own project, or `y` in droidwright tui. */
    confirmed: z.enum(['prompt', 'flag', 'demo', 'tui']).optional(),
    /** The program that ran droidwright, without its arguments. */
    parent_command: z.string().max(200).nullable().optional(),
    agent_env: z.array(z.string().max(100)).max(20).optional(),
  }),
});

export const ProjectUntrusted = defineEvent({
  type: 'project.untrusted',
  version: 1,
  description: 'A person revoked trust in a project.',
  schema: z.object({ root: z.string().min(1), by: z.string() }),
});

export const McpSessionStarted = defineEvent({
  type: 'mcp.session_started',
  version: 1,
  description: 'An MCP client completed the initialize handshake with a droidwright server process.',
  schema: z.object({
    session: z.string(),
    client_name: z.string().nullable(),
    client_version: z.string().nullable(),
    protocol_version: z.string().nullable(),
    pid: z.number().int(),
    /**
     * The server's start time (Linux /proc/<pid>/stat field 22), so a crashed server whose pid was
     * reused is not reported alive; null without /proc, absent in events recorded before it was added.
     */
    pid_start: z
      .string()
      .regex(/^\d{1,20}$/)
      .nullable()
      .optional(),
    toolsets: z.array(z.string()),
    read_only: z.boolean(),
    project_root: z.string().nullable(),
  }),
});

export const TOOL_CALL_OUTCOMES = ['ok', 'error', 'refused', 'cancelled'] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

export const McpToolCalled = defineEvent({
  type: 'mcp.tool_called',
  version: 1,
  description: 'An MCP client called a tool: what, with which (redacted) arguments, and how it ended.',
  schema: z.object({
    session: z.string(),
    tool: z.string(),
    toolset: z.string().nullable(),
    kind: z.string().nullable(),
    outcome: z.enum(TOOL_CALL_OUTCOMES),
    error_code: z.string().nullable(),
    duration_ms: z.number().int().nonnegative(),
    summary: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  }),
});

export const McpToolCallStarted = defineEvent({
  type: 'mcp.tool_call_started',
  version: 1,
  description:
    'A W, D or O tool call passed validation and policy and is about to act: recorded before the tool touches a device or spawns anything. Its mcp.tool_called outcome carries this event id as correlation.',
  schema: z.object({
    session: z.string(),
    tool: z.string(),
    toolset: z.string(),
    kind: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  }),
});

export const CONFIRMATION_ANSWERS = ['accepted', 'declined', 'cancelled', 'unsupported'] as const;
export type ConfirmationAnswer = (typeof CONFIRMATION_ANSWERS)[number];

export const McpConfirmationAnswered = defineEvent({
  type: 'mcp.confirmation_answered',
  version: 1,
  description:
    'A server running with --confirm asked the person, through the MCP client (elicitation), whether a tool call may run, and got this answer; unsupported means the client could not ask and the call was refused. An accepted call then records mcp.tool_call_started with this event id as correlation.',
  schema: z.object({
    session: z.string(),
    tool: z.string(),
    toolset: z.string(),
    kind: z.string(),
    /** The --confirm mode that required the question. */
    mode: z.enum(['destructive', 'all-writes']),
    answer: z.enum(CONFIRMATION_ANSWERS),
    /** The question exactly as the person saw it (bounded). */
    question: z.string().max(4096),
    /** Why there was no answer (client error, timeout, cancelled request), when there was none. */
    detail: z.string().max(512).nullable(),
    waited_ms: z.number().int().nonnegative(),
    arguments: z.record(z.string(), z.unknown()),
  }),
});

export const McpSessionEnded = defineEvent({
  type: 'mcp.session_ended',
  version: 1,
  description: 'An MCP server process ended its session (stdin closed, or a signal).',
  schema: z.object({
    session: z.string(),
    reason: z.string(),
    calls: z.number().int().nonnegative(),
  }),
});

const Serial = z.string().min(1).max(128);
const Package = z.string().min(1).max(255);

export const AppExitReasonsRead = defineEvent({
  type: 'app.exit_reasons_read',
  version: 1,
  description:
    "An app's exit history was read from a device (get_exit_reasons): how many records it held and how many of the records read had each reason, so a debug session can compare why the app's processes ended.",
  schema: z.object({
    device_serial: Serial,
    package: Package,
    /** Records the device holds for the package (its history may reach back before the current install). */
    total: z.number().int().nonnegative(),
    /** Reason name (e.g. "APP CRASH(EXCEPTION)", "USER REQUESTED") → records of this read with it. */
    reasons: z.record(z.string().max(64), z.number().int().nonnegative()),
    /** Device time of the newest record read, as printed. */
    newest: z.string().max(64).nullable(),
  }),
});

export const AppUninstallObserved = defineEvent({
  type: 'app.uninstall_observed',
  version: 1,
  description:
    'A device tool found that a package droidwright had installed is no longer installed there (uninstalled, or the device was wiped); the debug session of that install ends.',
  schema: z.object({
    device_serial: Serial,
    package: Package,
    /** The tool that looked and found it missing. */
    observed_by: z.string().max(100),
  }),
});

export const AppInstallObserved = defineEvent({
  type: 'app.install_observed',
  version: 1,
  description:
    'A device tool found a package installed or updated that droidwright did not install (adb install by hand, Android Studio, a store); a debug session opens for that install.',
  schema: z.object({
    device_serial: Serial,
    package: Package,
    version_code: z.number().int().nullable(),
    version_name: z.string().max(200).nullable(),
    /** lastUpdateTime as the device prints it (device local time): one event per distinct value. */
    last_update_time: z.string().max(64).nullable(),
    /** SHA-256 of the base APK when cheaply known, else null. */
    apk_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    /** The recorded build that wrote an APK with that hash, looked up when recorded; null when none. */
    build_id: z.string().max(100).nullable(),
    /** The tool that looked and saw the install. */
    observed_by: z.string().max(100),
  }),
});

export const coreEvents = [
  ProjectTrusted,
  ProjectUntrusted,
  McpSessionStarted,
  McpToolCallStarted,
  McpToolCalled,
  McpConfirmationAnswered,
  McpSessionEnded,
  AppExitReasonsRead,
  AppUninstallObserved,
  AppInstallObserved,
];
