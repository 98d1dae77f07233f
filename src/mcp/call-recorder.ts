import type { EventDefinition, EventMeta, ReadonlyData, StoredEvent } from '../events/event-definition.js';
import type { Actor } from '../shared/actor.js';
import type { EventStoreProvider } from '../kernel/event-store-provider.js';
import { processStartTime } from '../kernel/process-identity.js';
import type { Logger } from '../kernel/tool-definition.js';
import {
  type ToolCallOutcome,
  McpSessionStarted,
  McpToolCallStarted,
  McpToolCalled,
  McpSessionEnded,
  McpConfirmationAnswered,
  type ConfirmationAnswer,
} from '../plugins/core/core.events.js';
import { redactArguments, truncateUtf8 } from './redaction.js';

export const MAX_SUMMARY_BYTES = 120;
/** Client names and versions are the client's to choose: kept to this many bytes in every record. */
export const MAX_CLIENT_FIELD_BYTES = 200;
/** The event columns `device` and `package` take short identifiers only. */
const MAX_COLUMN_LENGTH = 255;

export interface SessionFacts {
  readonly clientName: string | null;
  readonly clientVersion: string | null;
  readonly protocolVersion: string | null;
  readonly toolsets: readonly string[];
  readonly readOnly: boolean;
  readonly projectRoot: string | null;
}

export interface CallIntent {
  readonly tool: string;
  readonly toolset: string;
  readonly kind: string;
  /** Validated arguments: `device_serial` and `package` also fill the event's device and package. */
  readonly args: Record<string, unknown>;
  readonly sensitive?: readonly string[];
  /** The id of the mcp.confirmation_answered that allowed the call, under --confirm. */
  readonly confirmationId?: string;
}

export interface ConfirmationRecord {
  readonly tool: string;
  readonly toolset: string;
  readonly kind: string;
  readonly mode: 'destructive' | 'all-writes';
  readonly answer: ConfirmationAnswer;
  readonly question: string;
  readonly detail: string | null;
  readonly waitedMs: number;
  readonly args: Record<string, unknown>;
  readonly sensitive?: readonly string[];
}

export interface CallRecord {
  readonly tool: string;
  readonly toolset: string | null;
  readonly kind: string | null;
  readonly outcome: ToolCallOutcome;
  readonly errorCode: string | null;
  readonly durationMs: number;
  readonly summary: string;
  readonly args: unknown;
  readonly sensitive?: readonly string[];
  /** The call's mcp.tool_call_started id, else its mcp.confirmation_answered id, when one was recorded. */
  readonly intentId?: string;
  readonly device?: unknown;
  readonly package?: unknown;
}

/** A short identifier from the arguments for an event column, or nothing. */
function column(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_COLUMN_LENGTH ? value : undefined;
}

/** A client-chosen name cut to a bound the store always accepts. */
export function boundClientField(value: string | undefined | null): string | undefined {
  return value ? truncateUtf8(value, MAX_CLIENT_FIELD_BYTES) : undefined;
}

/**
 * Writes a session's activity to the log. A call's intent (W, D, O tools) must be recorded before it
 * acts, so `toolCallStarted` throws when it cannot be written; every other record never makes a call
 * fail: when the log cannot be written, the call still answers and the failure goes to stderr.
 * Arguments are bounded and client names cut, so no record is ever refused for its size.
 */
export class CallRecorder {
  calls = 0;
  /**
   * The session's start record, while it waits for the log: every later record of the session waits for
   * it, so a call made right after the handshake never precedes mcp.session_started in the log.
   */
  private started: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: EventStoreProvider,
    readonly sessionId: string,
    private readonly logger: Logger,
    /** Longest wait for another process's write lock when recording an intent or outcome. */
    private readonly maxWaitMs?: number,
  ) {}

  private append<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
  ): void {
    try {
      this.store().append(definition, data, meta);
    } catch (error) {
      this.logger.error(`could not record ${definition.type} in the event log: ${(error as Error).message}`);
    }
  }

  private async appendAsync<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
  ): Promise<StoredEvent<D>> {
    await this.started;
    return this.appendNow(definition, data, meta);
  }

  /** Appends at once when the log is free (async so that a log that cannot be opened rejects, not throws). */
  private async appendNow<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
  ): Promise<StoredEvent<D>> {
    return this.store().appendAsync(definition, data, meta, { maxWaitMs: this.maxWaitMs });
  }

  /** Records the handshake. Waits for a locked log on timers, never blocking other requests; never throws. */
  sessionStarted(actor: Actor, facts: SessionFacts): void {
    const meta = { stream: `mcp:${this.sessionId}`, actor };
    this.started = this.appendNow(
      McpSessionStarted,
      {
        session: this.sessionId,
        client_name: boundClientField(facts.clientName) ?? null,
        client_version: boundClientField(facts.clientVersion) ?? null,
        protocol_version: facts.protocolVersion,
        pid: actor.pid,
        pid_start: processStartTime(actor.pid),
        toolsets: [...facts.toolsets],
        read_only: facts.readOnly,
        project_root: facts.projectRoot,
      },
      meta,
    ).catch((error: unknown) =>
      this.logger.error(`could not record ${McpSessionStarted.type} in the event log: ${(error as Error).message}`),
    );
  }

  /** Records what a call is about to do. Throws (StoreUnavailableError) when the log cannot take it. */
  async toolCallStarted(actor: Actor, intent: CallIntent): Promise<StoredEvent> {
    return this.appendAsync(
      McpToolCallStarted,
      {
        session: this.sessionId,
        tool: intent.tool,
        toolset: intent.toolset,
        kind: intent.kind,
        arguments: redactArguments(intent.args, intent.sensitive),
      },
      {
        stream: `mcp:${this.sessionId}`,
        actor,
        device: column(intent.args.device_serial),
        package: column(intent.args.package),
        correlation: intent.confirmationId,
      },
    );
  }

  /**
   * Records the person's answer to a --confirm question. Throws (StoreUnavailableError) when the log
   * cannot take it: an accepted call then does not run, as when its intent cannot be recorded.
   */
  async confirmationAnswered(actor: Actor, record: ConfirmationRecord): Promise<StoredEvent> {
    return this.appendAsync(
      McpConfirmationAnswered,
      {
        session: this.sessionId,
        tool: record.tool,
        toolset: record.toolset,
        kind: record.kind,
        mode: record.mode,
        answer: record.answer,
        question: truncateUtf8(record.question, 4096),
        detail: record.detail === null ? null : truncateUtf8(record.detail, 512),
        waited_ms: Math.max(0, Math.round(record.waitedMs)),
        arguments: redactArguments(record.args, record.sensitive),
      },
      {
        stream: `mcp:${this.sessionId}`,
        actor,
        device: column(record.args.device_serial),
        package: column(record.args.package),
      },
    );
  }

  /** Records how a call ended. Never throws. */
  async toolCalled(actor: Actor, call: CallRecord): Promise<void> {
    this.calls++;
    const meta = {
      stream: `mcp:${this.sessionId}`,
      actor,
      device: column(call.device),
      package: column(call.package),
      correlation: call.intentId,
    };
    const data = {
      session: this.sessionId,
      tool: truncateUtf8(call.tool, 100),
      toolset: call.toolset,
      kind: call.kind,
      outcome: call.outcome,
      error_code: call.errorCode,
      duration_ms: Math.max(0, Math.round(call.durationMs)),
      summary: truncateUtf8(call.summary.replace(/\s+/g, ' ').trim(), MAX_SUMMARY_BYTES),
      arguments: redactArguments(call.args, call.sensitive),
    };
    try {
      await this.appendAsync(McpToolCalled, data, meta);
    } catch (error) {
      this.logger.error(`could not record ${McpToolCalled.type} in the event log: ${(error as Error).message}`);
    }
  }

  /** Records the end, after the start when that is still waiting for the log. Never throws. */
  async sessionEnded(actor: Actor, reason: string): Promise<void> {
    await this.started;
    this.append(
      McpSessionEnded,
      { session: this.sessionId, reason, calls: this.calls },
      { stream: `mcp:${this.sessionId}`, actor },
    );
  }
}
