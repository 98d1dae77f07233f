import { randomUUID } from 'node:crypto';
import type { Container } from 'inversify';
import type { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { StoredEvent } from '../events/event-definition.js';
import { type Actor, thisHost } from '../shared/actor.js';
import { getContributions } from '../kernel/contribution-provider.js';
import { InvalidArgumentsError, ToolError, type ErrorCode as DroidwrightErrorCode } from '../kernel/errors.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { createStderrLogger } from '../kernel/logger.js';
import { SelectedProject } from '../kernel/project-selection.js';
import { ResourceTemplateContribution } from '../kernel/resource-template-contribution.js';
import type { ConfirmMode } from '../kernel/runtime-options.js';
import { checkToolCall, ToolCallPolicy } from '../kernel/tool-call-policy.js';
import { createToolContext } from '../kernel/tool-context.js';
import { toolFacingError } from '../kernel/tool-facing-error.js';
import type { AnyToolDefinition, Logger, ProgressUpdate, ToolResult } from '../kernel/tool-definition.js';
import { ToolRegistry, type RegisteredTool } from '../kernel/tool-registry.js';
import { droidwrightVersion } from '../kernel/version.js';
import { boundClientField, CallRecorder } from './call-recorder.js';
import {
  askPerson,
  clientCanConfirm,
  confirmationQuestion,
  confirmationRefusal,
  needsConfirmation,
} from './confirmation.js';
import { buildInstructions, toolsetSummaries } from './instructions.js';
import { SERVER_CAPABILITIES, servedCatalogTools, type ToolCatalog } from './tool-catalog.js';
import { publishTool } from './tool-catalog-generator.js';
import { truncateUtf8 } from './redaction.js';
import { findPrompt, isPromptServed, listServedPrompts, renderPrompt } from './prompts/prompt-catalog.js';
import { McpResources } from './resources/mcp-resources.js';
import { renderResultText } from './result-text.js';
import { resolveServedTools, type ServedTools } from './toolset-selection.js';

/**
 * The SDK validates client replies to server-initiated requests (elicitation) with a JSON Schema
 * validator it builds at start (Ajv, ~10 ms). droidwright's only elicitation (--confirm) asks a yes/no
 * question with no fields and sends it without the SDK's content validation, so it refuses instead.
 */
const noClientSchemas: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'droidwright does not request structured input from clients.',
  }),
};

export interface McpSessionOptions {
  /** `--toolsets`; all contributed toolsets when absent. */
  readonly toolsets?: readonly string[];
  readonly readOnly?: boolean;
  readonly sessionId?: string;
  readonly logger?: Logger;
  /**
   * Longest wait for another process's lock on the log when recording a call's intent; past it the call
   * is refused (STORE_UNAVAILABLE) and nothing runs. Default: the store's busy timeout (10 s).
   */
  readonly intentWaitMs?: number;
  /**
   * The build's catalog, when the process started from it: `tools/list` and the instructions then come from it
   * (the same bytes the start-up path already sent) instead of being built again from the registry.
   */
  readonly catalog?: ToolCatalog;
  /** `--confirm`: D and O calls (destructive) or every W, D and O call (all-writes) need the person's yes. */
  readonly confirm?: ConfirmMode;
}

/** No response goes out larger than this, counted as the JSON-RPC message on the wire. */
export const MAX_RESPONSE_BYTES = 128 * 1024;
/** `{"result":…,"jsonrpc":"2.0","id":…}` around a result, with room for a long request id. */
const ENVELOPE_BYTES = 256;
const MAX_ERROR_MESSAGE_BYTES = 8 * 1024;
const MAX_ERROR_DETAILS_BYTES = 16 * 1024;
/** The most a success's text rendering may take, whatever room the structured result leaves. */
const MAX_TEXT_BYTES = 48 * 1024;

function wireBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8') + ENVELOPE_BYTES;
}

/** The SDK schemas of the requests this server answers, to refuse a malformed one in one readable line. */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema as unknown as z.ZodType,
  ping: PingRequestSchema as unknown as z.ZodType,
  'tools/list': ListToolsRequestSchema as unknown as z.ZodType,
  'tools/call': CallToolRequestSchema as unknown as z.ZodType,
  'resources/list': ListResourcesRequestSchema as unknown as z.ZodType,
  'resources/templates/list': ListResourceTemplatesRequestSchema as unknown as z.ZodType,
  'resources/read': ReadResourceRequestSchema as unknown as z.ZodType,
  'prompts/list': ListPromptsRequestSchema as unknown as z.ZodType,
  'prompts/get': GetPromptRequestSchema as unknown as z.ZodType,
};

/** Requests that act, refused until the handshake is complete (the client is on record by then). */
const AFTER_HANDSHAKE = new Set(['tools/call', 'resources/read']);

/**
 * A JSON-RPC error whose message is exactly ours. The SDK's McpError prefixes "MCP error <code>: " to
 * its message, and clients prefix it again when they rebuild the error, so agents read it twice.
 */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

function protocolError(code: number, message: string, data?: Record<string, unknown>): ProtocolError {
  return new ProtocolError(code, message, data);
}

/** "field: rule" for each zod issue, so the agent can fix exactly what was wrong. */
export function describeZodIssues(error: z.ZodError): { message: string; field: string | undefined } {
  const issues = error.issues.slice(0, 5).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => JSON.stringify(k.slice(0, 100)));
      const where = issue.path.length > 0 ? ` in ${issue.path.join('.')}` : '';
      return `unknown argument${keys.length > 1 ? 's' : ''} ${keys.slice(0, 10).join(', ')}${where}: this tool does not take ${keys.length > 1 ? 'them' : 'it'}; remove ${keys.length > 1 ? 'them' : 'it'} (tools/list shows the arguments it takes)`;
    }
    return `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`;
  });
  const firstIssue = error.issues[0];
  const first =
    firstIssue?.code === 'unrecognized_keys'
      ? [...firstIssue.path, firstIssue.keys[0] ?? ''].join('.')
      : firstIssue?.path.join('.');
  return { message: issues.join('; '), field: first ? first.slice(0, 100) : undefined };
}

/** One readable line for a request the SDK's schema rejects. */
function describeRequestIssue(method: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `Invalid ${method.slice(0, 100)} request: ${path}${issue?.message ?? 'malformed'}.`;
}

type Outcome = 'ok' | 'error' | 'refused' | 'cancelled';

/**
 * One MCP server session over any transport: lists and calls the registry's tools with policy,
 * timing, audit recording, progress and cancellation; serves two resources; builds `instructions`.
 * The only module (with its stdio entry) that knows the MCP SDK.
 *
 * Conventions every tool gets from here: arguments are validated strictly (an unknown key is refused,
 * naming it); argument errors and policy refusals are `isError` results with an error code, refused
 * before anything runs and recorded as refusals; JSON-RPC errors are only for unknown tools, malformed
 * requests and protocol violations; a W, D or O call records its intent before it acts, or does not
 * run; no response exceeds MAX_RESPONSE_BYTES on the wire.
 */
export class McpSession {
  readonly sessionId: string;
  readonly server: Server;
  readonly served: ServedTools;
  private readonly registry: ToolRegistry;
  private readonly store: EventStoreProvider;
  private readonly policies: ToolCallPolicy[];
  private readonly logger: Logger;
  private readonly recorder: CallRecorder;
  private readonly servedNames: Set<string>;
  private readonly servedTools: RegisteredTool[];
  private toolList: Tool[] | undefined;
  private readonly sessionAbort = new AbortController();
  private readonly projectRoot: string | null;
  private readonly resources: McpResources;
  private readonly confirm: ConfirmMode | undefined;
  private protocolVersion: string | null = null;
  private initializeSeen = false;
  private handshakeComplete = false;
  private started = false;
  private startRecorded = false;
  private ended = false;

  constructor(container: Container, options: McpSessionOptions = {}) {
    this.sessionId = options.sessionId ?? randomUUID();
    this.logger = options.logger ?? createStderrLogger('mcp');
    this.registry = container.get(ToolRegistry);
    this.store = container.get<EventStoreProvider>(EventStoreProvider);
    this.policies = getContributions<ToolCallPolicy>(container, ToolCallPolicy);
    this.projectRoot = container.get<SelectedProject>(SelectedProject).root;
    this.served = resolveServedTools(this.registry, options.toolsets, options.readOnly ?? false);
    const servedTools = this.registry.list({ toolsets: this.served.toolsets, readOnly: this.served.readOnly });
    this.servedNames = new Set(servedTools.map((t) => t.definition.name));
    this.servedTools = servedTools;
    this.recorder = new CallRecorder(this.store, this.sessionId, this.logger, options.intentWaitMs);
    this.confirm = options.confirm;
    this.resources = this.createResources(getContributions(container, ResourceTemplateContribution));

    this.server = new Server(
      { name: 'droidwright', version: droidwrightVersion() },
      {
        capabilities: SERVER_CAPABILITIES,
        jsonSchemaValidator: noClientSchemas,
        instructions: buildInstructions(
          options.catalog?.toolsets ?? toolsetSummaries(this.registry),
          this.served,
          this.projectRoot,
          this.confirm,
        ),
      },
    );
    this.server.oninitialized = () => this.onInitialized();
    // JSON Schemas are built on the first tools/list, not before the initialize reply.
    const catalog = options.catalog;
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: (this.toolList ??= catalog
        ? servedCatalogTools(catalog, this.served).map((t) => t.published as Tool)
        : this.servedTools.map((t) => publishTool(t))),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.callTool(request.params.name, request.params.arguments, extra.signal, extra._meta?.progressToken, (n) =>
        extra.sendNotification(n),
      ),
    );
    this.server.setRequestHandler(ListResourcesRequestSchema, () => this.resources.list());
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => this.resources.listTemplates());
    this.server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      this.resources.read(request.params.uri, AbortSignal.any([extra.signal, this.sessionAbort.signal])),
    );
    const isServed = (tool: string) => this.servedNames.has(tool);
    this.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listServedPrompts(isServed) }));
    this.server.setRequestHandler(GetPromptRequestSchema, (request) => {
      const prompt = findPrompt(request.params.name);
      if (!prompt || !isPromptServed(prompt, isServed))
        throw protocolError(
          ErrorCode.InvalidParams,
          `Unknown prompt "${String(request.params.name).slice(0, 100)}". prompts/list shows the prompts this server serves${prompt ? ' (this one needs tools it does not serve)' : ''}.`,
        );
      try {
        return renderPrompt(prompt, request.params.arguments, isServed) as unknown as Record<string, unknown>;
      } catch (error) {
        if (error instanceof InvalidArgumentsError)
          throw protocolError(
            ErrorCode.InvalidParams,
            `Invalid arguments for prompt ${prompt.name}: ${error.message}`,
            {
              field: error.field,
            },
          );
        throw error;
      }
    });
  }

  /** Resources read through the session's gate, policies and audit (src/mcp/resources/). */
  private createResources(templates: ResourceTemplateContribution[]): McpResources {
    return new McpResources(
      {
        projectRoot: this.projectRoot,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        tool: (name) => this.registry.get(name),
        isServed: (tool) => this.servedNames.has(tool),
        notServedMessage: (def) => this.hiddenMessage(def),
        checkPolicies: (def, args) => checkToolCall(this.policies, { tool: def, args, actor: this.actor() }),
        context: (signal) => createToolContext({ actor: this.actor(), store: this.store, logger: this.logger, signal }),
        record: (read) =>
          this.record(read.def, read.name, read.args, read.outcome, read.errorCode, read.started, read.summary),
        protocolError,
      },
      templates,
    );
  }

  /**
   * Connects, remembers the negotiated protocol version for the audit record, and answers two kinds of
   * request before the SDK sees them: a malformed one (-32602 in one readable line, where the SDK would
   * answer -32603 with a raw validation dump) and a call that arrives before the handshake completed.
   */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message) {
        if ('id' in message && this.refuseEarly(transport, message)) return;
        if (message.method === 'initialize') {
          this.initializeSeen = true;
          const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
          this.protocolVersion =
            typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
              ? requested
              : LATEST_PROTOCOL_VERSION;
        } else if (message.method === 'notifications/initialized' && this.initializeSeen) {
          this.handshakeComplete = true;
        }
      }
      deliver?.(message, extra);
    };
  }

  /** Sends the error reply and returns true when `message` must not reach the SDK. */
  private refuseEarly(
    transport: Transport,
    message: JSONRPCMessage & { method: string; id: string | number },
  ): boolean {
    const method = message.method;
    let error: { code: number; message: string } | undefined;
    const schema = REQUEST_SCHEMAS[method];
    const parsed = schema?.safeParse(message);
    if (parsed && !parsed.success) {
      error = { code: ErrorCode.InvalidParams, message: describeRequestIssue(method, parsed.error) };
    } else if (AFTER_HANDSHAKE.has(method) && !this.handshakeComplete) {
      error = {
        code: ErrorCode.InvalidRequest,
        message: `${method} arrived before the MCP handshake completed. Send initialize, wait for its result, then send notifications/initialized; only then call tools or read resources.`,
      };
    }
    if (!error) return false;
    transport
      .send({ jsonrpc: '2.0', id: message.id, error })
      .catch((e: unknown) => this.logger.debug(`could not send an error reply: ${(e as Error).message}`));
    return true;
  }

  /** Records the end (once), aborts running handlers, closes the transport. */
  async close(reason: string): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.sessionAbort.abort(new Error(`session ended: ${reason}`));
    if (this.started) {
      this.recordStart();
      await this.recorder.sessionEnded(this.actor(), reason);
    }
    try {
      await this.server.close();
    } catch {
      // Transport already gone.
    }
  }

  actor(): Actor {
    const client = this.server.getClientVersion();
    const name = boundClientField(client?.name);
    const version = boundClientField(client?.version);
    return {
      kind: 'agent',
      session: this.sessionId,
      ...(name ? { client: name } : {}),
      ...(version ? { clientVersion: version } : {}),
      pid: process.pid,
      host: thisHost(),
    };
  }

  private onInitialized(): void {
    if (this.started) return;
    this.started = true;
    // Opening the log and appending costs milliseconds the client's first tools/list should not wait
    // for: record just after the pending replies, or before this session's first call record.
    setImmediate(() => this.recordStart());
  }

  private recordStart(): void {
    if (this.startRecorded) return;
    this.startRecorded = true;
    const client = this.server.getClientVersion();
    this.recorder.sessionStarted(this.actor(), {
      clientName: client?.name ?? null,
      clientVersion: client?.version ?? null,
      protocolVersion: this.protocolVersion,
      toolsets: this.served.toolsets,
      readOnly: this.served.readOnly,
      projectRoot: this.projectRoot,
    });
  }

  private hiddenMessage(def: AnyToolDefinition): string {
    if (!this.served.toolsets.includes(def.toolset)) {
      const enable = [...this.served.toolsets, def.toolset].join(',');
      return `${def.name} is in the "${def.toolset}" toolset, which this droidwright server does not serve (it serves ${this.served.toolsets.join(', ')}). Ask the user to restart it with --toolsets ${enable}.`;
    }
    return `${def.name} changes state (kind ${def.kind}) and this droidwright server runs with --read-only. Ask the user to restart it without --read-only to use it.`;
  }

  private async record(
    def: AnyToolDefinition | undefined,
    name: string,
    args: unknown,
    outcome: Outcome,
    errorCode: string | null,
    started: number,
    summary: string,
    correlationId?: string,
  ): Promise<void> {
    if (this.started) this.recordStart();
    const fields = args !== null && typeof args === 'object' ? (args as Record<string, unknown>) : {};
    await this.recorder.toolCalled(this.actor(), {
      tool: name,
      toolset: def?.toolset ?? null,
      kind: def?.kind ?? null,
      outcome,
      errorCode,
      durationMs: performance.now() - started,
      summary,
      args,
      sensitive: def?.sensitive,
      intentId: correlationId,
      device: fields.device_serial,
      package: fields.package,
    });
  }

  /**
   * Asks the person (elicitation/create) whether a call may run, and records the answer. Returns the
   * answer's event id when accepted, else the refusal to return (its details name the answer's event).
   */
  private async confirmCall(
    def: AnyToolDefinition,
    args: Record<string, unknown>,
    actor: Actor,
    signal: AbortSignal,
  ): Promise<string | ToolError> {
    const mode = this.confirm as ConfirmMode;
    const question = confirmationQuestion(def, args, this.projectRoot);
    const outcome = clientCanConfirm(this.server.getClientCapabilities())
      ? await askPerson(
          (message, abort, timeout) =>
            this.server.request(
              {
                method: 'elicitation/create',
                params: { message, requestedSchema: { type: 'object', properties: {} } },
              },
              ElicitResultSchema,
              { signal: abort, timeout },
            ),
          question,
          signal,
        )
      : {
          answer: 'unsupported' as const,
          detail: 'the client did not declare the elicitation capability',
          waitedMs: 0,
        };
    let recorded: StoredEvent | undefined;
    try {
      recorded = await this.recorder.confirmationAnswered(actor, {
        tool: def.name,
        toolset: def.toolset,
        kind: def.kind,
        mode,
        answer: outcome.answer,
        question,
        detail: outcome.detail,
        waitedMs: outcome.waitedMs,
        args,
        sensitive: def.sensitive,
      });
    } catch (error) {
      const why = (error as Error)?.message ?? String(error);
      this.logger.error(`could not record the confirmation of ${def.name}: ${why}`);
      if (outcome.answer === 'accepted')
        return new ToolError(
          'STORE_UNAVAILABLE',
          `${def.name} did not run: the user accepted it, but the event log could not record their answer (${why}). Nothing was changed; retry once the log is available.`,
        );
    }
    if (outcome.answer === 'accepted') return (recorded as StoredEvent).id;
    const refusal = confirmationRefusal(def, mode, outcome);
    return new ToolError(refusal.code, refusal.message, {
      ...refusal.details,
      ...(recorded ? { confirmation_id: recorded.id } : {}),
    });
  }

  async callTool(
    name: string,
    rawArgs: Record<string, unknown> | undefined,
    requestSignal: AbortSignal,
    progressToken: string | number | undefined,
    notify: (notification: {
      method: 'notifications/progress';
      params: { progressToken: string | number; progress: number; total?: number; message?: string };
    }) => Promise<void>,
  ): Promise<CallToolResult> {
    const started = performance.now();
    // The session's start goes on record before anything this call records (a confirmation, an intent).
    if (this.started) this.recordStart();
    const args = rawArgs ?? {};
    const registered = this.registry.get(name);
    if (!registered) {
      const message = `Unknown tool "${String(name).slice(0, 100)}". Call tools/list for the tools this server serves.`;
      await this.record(undefined, String(name), args, 'refused', 'NOT_FOUND', started, message);
      throw protocolError(ErrorCode.InvalidParams, message, { error_code: 'NOT_FOUND' });
    }
    const def = registered.definition;
    if (!this.servedNames.has(name)) {
      // Not in this session's tools/list, so unknown to the client: a JSON-RPC error, with the way to enable it.
      const message = this.hiddenMessage(def);
      await this.record(def, name, args, 'refused', 'TOOL_DISABLED', started, message);
      throw protocolError(ErrorCode.InvalidParams, message, { error_code: 'TOOL_DISABLED', toolset: def.toolset });
    }
    const parsed = registered.input.safeParse(args);
    if (!parsed.success) {
      const { message, field } = describeZodIssues(parsed.error);
      const full = `Invalid arguments for ${name}: ${message}.`;
      await this.record(def, name, args, 'refused', 'INVALID_ARGUMENT', started, full);
      return toolErrorResult(new InvalidArgumentsError(full, 'INVALID_ARGUMENT', field));
    }
    const validArgs = parsed.data as Record<string, unknown>;
    const actor = this.actor();

    try {
      await checkToolCall(this.policies, { tool: def, args: validArgs, actor });
    } catch (error) {
      if (!(error instanceof InvalidArgumentsError || error instanceof ToolError)) throw error;
      await this.record(def, name, args, 'refused', error.code, started, error.message);
      return toolErrorResult(error);
    }

    // After validation and policies (nobody is asked about a call that would be refused anyway), before
    // the intent (an intent on record is a call that will act): the person's answer, under --confirm.
    let confirmationId: string | undefined;
    if (this.confirm && needsConfirmation(this.confirm, def.kind)) {
      const confirmed = await this.confirmCall(
        def,
        validArgs,
        actor,
        AbortSignal.any([requestSignal, this.sessionAbort.signal]),
      );
      if (confirmed instanceof ToolError) {
        const refusalId = confirmed.details?.confirmation_id as string | undefined;
        if (requestSignal.aborted || this.sessionAbort.signal.aborted) {
          // The client gave up on the call while the person was being asked: a cancellation, as elsewhere.
          await this.record(def, name, args, 'cancelled', 'CANCELLED', started, 'cancelled by the client', refusalId);
          throw protocolError(ErrorCode.InvalidRequest, `${name} was cancelled.`);
        }
        await this.record(def, name, args, 'refused', confirmed.code, started, confirmed.message, refusalId);
        return toolErrorResult(confirmed);
      }
      confirmationId = confirmed;
    }

    // Record before acting: a call that changes something runs only once its intent is on record.
    let intent: StoredEvent | undefined;
    if (def.kind !== 'R') {
      try {
        intent = await this.recorder.toolCallStarted(actor, {
          tool: name,
          toolset: def.toolset,
          kind: def.kind,
          args: validArgs,
          sensitive: def.sensitive,
          confirmationId,
        });
      } catch (error) {
        const why = (error as Error)?.message ?? String(error);
        this.logger.error(`${name} refused: its intent could not be recorded: ${why}`);
        return toolErrorResult(
          new ToolError(
            'STORE_UNAVAILABLE',
            `${name} did not run: droidwright records what a call will do before doing it, and the event log could not take the record (${why}). Nothing was changed; retry once the log is available.`,
          ),
        );
      }
    }

    const signal = AbortSignal.any([requestSignal, this.sessionAbort.signal]);
    let lastProgress = -Infinity;
    const progress = async (update: ProgressUpdate): Promise<void> => {
      // Progress must increase (MCP); drop stale or duplicate updates rather than break the client.
      if (progressToken === undefined || signal.aborted || !(update.progress > lastProgress)) return;
      lastProgress = update.progress;
      try {
        await notify({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: update.progress,
            ...(update.total !== undefined ? { total: update.total } : {}),
            ...(update.message !== undefined ? { message: update.message } : {}),
          },
        });
      } catch (error) {
        this.logger.debug(`progress notification failed: ${(error as Error).message}`);
      }
    };
    const ctx = createToolContext({ actor, store: this.store, logger: this.logger, signal, progress });
    const record = (outcome: Outcome, code: string | null, summary: string) =>
      this.record(def, name, args, outcome, code, started, summary, intent?.id);

    try {
      const result = await def.handler(validArgs, ctx);
      if (signal.aborted) {
        await record('cancelled', 'CANCELLED', 'cancelled by the client');
        throw protocolError(ErrorCode.InvalidRequest, `${name} was cancelled.`);
      }
      const output = def.output.safeParse(result.data);
      if (!output.success) {
        const { message } = describeZodIssues(output.error);
        this.logger.error(`${name} returned data that does not match its output schema: ${message}`);
        await record('error', 'INTERNAL', `output schema violation: ${message}`);
        throw protocolError(
          ErrorCode.InternalError,
          `Internal error in ${name}: its result did not match its output schema. This is a droidwright bug; the details are on its stderr.`,
        );
      }
      const success = successResult(result.summary, output.data as Record<string, unknown>, result.images);
      const bytes = wireBytes(success);
      if (bytes > MAX_RESPONSE_BYTES) {
        this.logger.error(
          `${name} produced a ${bytes}-byte response, over the ${MAX_RESPONSE_BYTES}-byte bound; it was not sent. This is a droidwright bug: the tool must bound its result.`,
        );
        await record('error', 'RESPONSE_TOO_LARGE', `response of ${bytes} bytes withheld`);
        return toolErrorResult(
          new ToolError(
            'RESPONSE_TOO_LARGE',
            `${name} produced a ${Math.ceil(bytes / 1024)} KiB result, over droidwright's ${MAX_RESPONSE_BYTES / 1024} KiB response bound, so it was withheld (a droidwright bug, logged on its stderr). What the call did is recorded; ask for less (a smaller limit or a narrower filter) to see its result.`,
          ),
        );
      }
      await record('ok', null, result.summary);
      return success;
    } catch (thrown) {
      const error = toolFacingError(thrown);
      if (error instanceof McpError || error instanceof ProtocolError) throw error;
      if (signal.aborted) {
        await record('cancelled', 'CANCELLED', 'cancelled by the client');
        throw protocolError(ErrorCode.InvalidRequest, `${name} was cancelled.`);
      }
      if (error instanceof InvalidArgumentsError) {
        await record('refused', error.code, error.message);
        return toolErrorResult(error);
      }
      if (error instanceof ToolError) {
        await record('error', error.code, error.message);
        return toolErrorResult(error);
      }
      this.logger.error(`internal error in ${name}: ${(error as Error)?.stack ?? String(error)}`);
      await record('error', 'INTERNAL', `internal error: ${(error as Error)?.message ?? String(error)}`);
      throw protocolError(
        ErrorCode.InternalError,
        `Internal error in ${name}: ${(error as Error)?.message ?? String(error)}. This is a droidwright bug; details are on its stderr.`,
      );
    }
  }
}

/**
 * A successful call: the result as `structuredContent`, and as text its summary with a compact
 * rendering of the result, sized so the whole response fits MAX_RESPONSE_BYTES when the structured
 * part does.
 */
function successResult(
  summary: string,
  data: Record<string, unknown>,
  images: ToolResult<unknown>['images'] = [],
): CallToolResult {
  const imageBytes = images.reduce((sum, image) => sum + image.data.length + image.mimeType.length + 64, 0);
  const structuredBytes = wireBytes(data) + imageBytes;
  const room = Math.max(1024, Math.min(MAX_TEXT_BYTES, MAX_RESPONSE_BYTES - structuredBytes - 1024));
  // JSON escaping can grow text (quotes, newlines); leave it a quarter of its room for that.
  const text = renderResultText(summary, data, Math.floor(room * 0.75));
  const imageContent = images.map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mimeType }));
  return { content: [{ type: 'text', text }, ...imageContent], structuredContent: data };
}

/**
 * A call the model can correct or act on (bad arguments, a policy refusal, a valid request that
 * failed): `isError: true`, the message with its code as text, and the code (with the field and facts
 * behind it) in `_meta`. No `structuredContent`, so output schemas describe success only.
 */
export function toolErrorResult(error: ToolError | InvalidArgumentsError): CallToolResult {
  const code: DroidwrightErrorCode = error.code;
  const field = error instanceof InvalidArgumentsError ? error.field : undefined;
  // Error texts and facts are small by design; the bound holds even if one is not.
  const facts = error instanceof ToolError ? error.details : undefined;
  const details = facts && wireBytes(facts) <= MAX_ERROR_DETAILS_BYTES ? facts : undefined;
  return {
    isError: true,
    content: [{ type: 'text', text: `${truncateUtf8(error.message, MAX_ERROR_MESSAGE_BYTES)} (error_code: ${code})` }],
    _meta: { error_code: code, ...(field ? { field } : {}), ...(details ? { details } : {}) },
  };
}
