import type { EventDefinition, EventMeta, ReadonlyData } from '../events/event-definition.js';
import type { Actor } from '../kernel/actor.js';
import type { EventStoreProvider } from '../kernel/event-store-provider.js';
import type { Logger } from '../kernel/tool-definition.js';
import {
  type ToolCallOutcome,
  McpSessionStarted,
  McpToolCalled,
  McpSessionEnded,
} from '../plugins/core/core.events.js';
import { redactArguments, truncateUtf8 } from './redaction.js';

export const MAX_SUMMARY_BYTES = 120;

export interface SessionFacts {
  readonly clientName: string | null;
  readonly clientVersion: string | null;
  readonly protocolVersion: string | null;
  readonly toolsets: readonly string[];
  readonly readOnly: boolean;
  readonly projectRoot: string | null;
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
}

/**
 * Writes a session's activity to the log. Recording never makes a call fail: when the log cannot be
 * written, the call still answers and the failure goes to stderr.
 */
export class CallRecorder {
  calls = 0;

  constructor(
    private readonly store: EventStoreProvider,
    readonly sessionId: string,
    private readonly logger: Logger,
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

  sessionStarted(actor: Actor, facts: SessionFacts): void {
    this.append(
      McpSessionStarted,
      {
        session: this.sessionId,
        client_name: facts.clientName,
        client_version: facts.clientVersion,
        protocol_version: facts.protocolVersion,
        pid: actor.pid,
        toolsets: [...facts.toolsets],
        read_only: facts.readOnly,
        project_root: facts.projectRoot,
      },
      { stream: `mcp:${this.sessionId}`, actor },
    );
  }

  toolCalled(actor: Actor, call: CallRecord): void {
    this.calls++;
    this.append(
      McpToolCalled,
      {
        session: this.sessionId,
        tool: truncateUtf8(call.tool, 100),
        toolset: call.toolset,
        kind: call.kind,
        outcome: call.outcome,
        error_code: call.errorCode,
        duration_ms: Math.max(0, Math.round(call.durationMs)),
        summary: truncateUtf8(call.summary.replace(/\s+/g, ' ').trim(), MAX_SUMMARY_BYTES),
        arguments: redactArguments(call.args, call.sensitive),
      },
      { stream: `mcp:${this.sessionId}`, actor },
    );
  }

  sessionEnded(actor: Actor, reason: string): void {
    this.append(
      McpSessionEnded,
      { session: this.sessionId, reason, calls: this.calls },
      { stream: `mcp:${this.sessionId}`, actor },
    );
  }
}
