import { randomUUID } from 'node:crypto';
import type { Container } from 'inversify';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../shared/actor.js';
import { getContributions } from '../kernel/contribution-provider.js';
import { ErrorCodes, InvalidArgumentsError, ToolError } from '../kernel/errors.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { createStderrLogger } from '../kernel/logger.js';
import { SelectedProject } from '../kernel/project-selection.js';
import { ToolCallPolicy } from '../kernel/tool-call-policy.js';
import { createToolContext } from '../kernel/tool-context.js';
import { toolFacingError } from '../kernel/tool-facing-error.js';
import type { AnyToolDefinition, Logger, ProgressUpdate } from '../kernel/tool-definition.js';
import { ToolRegistry, type RegisteredTool } from '../kernel/tool-registry.js';
import { droidwrightVersion } from '../kernel/version.js';
import { CallRecorder } from './call-recorder.js';
import { buildInstructions } from './instructions.js';
import { resolveServedTools, type ServedTools } from './toolset-selection.js';

/**
 * The SDK validates client replies to server-initiated requests (elicitation) with a JSON Schema
 * validator it builds at start (Ajv, ~10 ms). droidwright never elicits, so it refuses instead.
 */
const noClientSchemas: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'droidwright does not request structured input from clients.',
  }),
};

/** MCP's "resource not found" error code (not in the SDK's ErrorCode enum). */
const RESOURCE_NOT_FOUND = -32002;

const RESOURCES = [
  {
    uri: 'droidwright://project-info',
    name: 'project-info',
    tool: 'get_project_info',
    description: 'The selected project, its app modules and trust status (same as get_project_info).',
  },
  {
    uri: 'droidwright://health',
    name: 'health',
    tool: 'run_health_check',
    description: 'Toolchain health: Java, SDK, adb, emulator, Gradle wrapper (same as run_health_check).',
  },
] as const;

export interface McpSessionOptions {
  /** `--toolsets`; all contributed toolsets when absent. */
  readonly toolsets?: readonly string[];
  readonly readOnly?: boolean;
  readonly sessionId?: string;
  readonly logger?: Logger;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

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

/** The `structuredContent` of a failed call: the same for every tool. */
const TOOL_ERROR_SCHEMA = {
  type: 'object',
  description: 'A valid request that failed (isError: true).',
  properties: {
    error_code: { type: 'string', enum: Object.keys(ErrorCodes), description: 'Stable error code.' },
    message: { type: 'string', description: 'What failed and what to do next.' },
    details: {
      type: 'object',
      additionalProperties: true,
      description: 'Facts behind the error (e.g. the serials adb lists).',
    },
  },
  required: ['error_code', 'message'],
  additionalProperties: false,
} as const;

/**
 * A tool's published output schema: its result, or the error shape. Clients validate every
 * `structuredContent` against it, failed calls included, so the error shape must be part of it.
 */
function outputSchemaWithErrors(schema: z.ZodType): Tool['outputSchema'] {
  return { type: 'object', anyOf: [jsonSchema(schema, 'output'), TOOL_ERROR_SCHEMA] } as Tool['outputSchema'];
}

/** "field: rule" for each zod issue, so the agent can fix exactly what was wrong. */
export function describeZodIssues(error: z.ZodError): { message: string; field: string | undefined } {
  const issues = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`);
  const first = error.issues[0]?.path.join('.');
  return { message: issues.join('; '), field: first || undefined };
}

type Outcome = 'ok' | 'error' | 'refused' | 'cancelled';

/**
 * One MCP server session over any transport: lists and calls the registry's tools with policy,
 * timing, audit recording, progress and cancellation; serves two resources; builds `instructions`.
 * The only module (with its stdio entry) that knows the MCP SDK.
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
  private protocolVersion: string | null = null;
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
    this.recorder = new CallRecorder(this.store, this.sessionId, this.logger);

    this.server = new Server(
      { name: 'droidwright', version: droidwrightVersion() },
      {
        capabilities: { tools: {}, resources: {} },
        jsonSchemaValidator: noClientSchemas,
        instructions: buildInstructions(this.registry, this.served, this.projectRoot),
      },
    );
    this.server.oninitialized = () => this.onInitialized();
    // JSON Schemas are built on the first tools/list, not before the initialize reply.
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: (this.toolList ??= this.servedTools.map((t) => this.describeTool(t))),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.callTool(request.params.name, request.params.arguments, extra.signal, extra._meta?.progressToken, (n) =>
        extra.sendNotification(n),
      ),
    );
    this.server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: RESOURCES.filter((r) => this.registry.get(r.tool)).map((r) => ({
        uri: r.uri,
        name: r.name,
        description: r.description,
        mimeType: 'application/json',
      })),
    }));
    this.server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      this.readResource(request.params.uri, extra.signal),
    );
  }

  /** Connects and remembers the negotiated protocol version for the audit record. */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'initialize') {
        const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        this.protocolVersion =
          typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
            ? requested
            : LATEST_PROTOCOL_VERSION;
      }
      deliver?.(message, extra);
    };
  }

  /** Records the end (once), aborts running handlers, closes the transport. */
  async close(reason: string): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.sessionAbort.abort(new Error(`session ended: ${reason}`));
    if (this.started) {
      this.recordStart();
      this.recorder.sessionEnded(this.actor(), reason);
    }
    try {
      await this.server.close();
    } catch {
      // Transport already gone.
    }
  }

  actor(): Actor {
    const client = this.server.getClientVersion();
    return {
      kind: 'agent',
      session: this.sessionId,
      ...(client?.name ? { client: client.name } : {}),
      ...(client?.version ? { clientVersion: client.version } : {}),
      pid: process.pid,
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

  private describeTool(tool: RegisteredTool): Tool {
    const def = tool.definition;
    return {
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: jsonSchema(def.input, 'input'),
      outputSchema: outputSchemaWithErrors(def.output),
      annotations: { ...tool.annotations },
    };
  }

  private hiddenMessage(def: AnyToolDefinition): string {
    if (!this.served.toolsets.includes(def.toolset)) {
      const enable = [...this.served.toolsets, def.toolset].join(',');
      return `${def.name} is in the "${def.toolset}" toolset, which this droidwright server does not serve (it serves ${this.served.toolsets.join(', ')}). Ask the user to restart it with --toolsets ${enable}.`;
    }
    return `${def.name} changes state (kind ${def.kind}) and this droidwright server runs with --read-only. Ask the user to restart it without --read-only to use it.`;
  }

  private record(
    def: AnyToolDefinition | undefined,
    name: string,
    args: unknown,
    outcome: Outcome,
    errorCode: string | null,
    started: number,
    summary: string,
  ): void {
    if (this.started) this.recordStart();
    this.recorder.toolCalled(this.actor(), {
      tool: name,
      toolset: def?.toolset ?? null,
      kind: def?.kind ?? null,
      outcome,
      errorCode,
      durationMs: performance.now() - started,
      summary,
      args,
      sensitive: def?.sensitive,
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
    const args = rawArgs ?? {};
    const registered = this.registry.get(name);
    if (!registered) {
      const message = `Unknown tool "${String(name).slice(0, 100)}". Call tools/list for the tools this server serves.`;
      this.record(undefined, String(name), args, 'refused', 'NOT_FOUND', started, message);
      throw protocolError(ErrorCode.InvalidParams, message, { error_code: 'NOT_FOUND' });
    }
    const def = registered.definition;
    if (!this.servedNames.has(name)) {
      const message = this.hiddenMessage(def);
      this.record(def, name, args, 'refused', 'TOOL_DISABLED', started, message);
      throw protocolError(ErrorCode.InvalidParams, message, { error_code: 'TOOL_DISABLED', toolset: def.toolset });
    }
    const parsed = def.input.safeParse(args);
    if (!parsed.success) {
      const { message, field } = describeZodIssues(parsed.error);
      const full = `Invalid arguments for ${name}: ${message}.`;
      this.record(def, name, args, 'refused', 'INVALID_ARGUMENT', started, full);
      throw protocolError(ErrorCode.InvalidParams, full, { error_code: 'INVALID_ARGUMENT', field });
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
    const actor = this.actor();
    const ctx = createToolContext({ actor, store: this.store, logger: this.logger, signal, progress });

    let phase: 'policy' | 'handler' = 'policy';
    try {
      for (const policy of this.policies)
        await policy.check({ tool: def, args: parsed.data as Record<string, unknown>, actor });
      phase = 'handler';
      const result = await def.handler(parsed.data, ctx);
      if (signal.aborted) {
        this.record(def, name, args, 'cancelled', 'CANCELLED', started, 'cancelled by the client');
        throw protocolError(ErrorCode.InvalidRequest, `${name} was cancelled.`);
      }
      const output = def.output.safeParse(result.data);
      if (!output.success) {
        const { message } = describeZodIssues(output.error);
        this.logger.error(`${name} returned data that does not match its output schema: ${message}`);
        this.record(def, name, args, 'error', 'INTERNAL', started, `output schema violation: ${message}`);
        throw protocolError(
          ErrorCode.InternalError,
          `Internal error in ${name}: its result did not match its output schema. This is a droidwright bug; the details are on its stderr.`,
        );
      }
      this.record(def, name, args, 'ok', null, started, result.summary);
      return {
        content: [{ type: 'text', text: `${result.summary}\n${JSON.stringify(output.data)}` }],
        structuredContent: output.data as Record<string, unknown>,
      };
    } catch (thrown) {
      const error = toolFacingError(thrown);
      if (error instanceof McpError || error instanceof ProtocolError) throw error;
      if (signal.aborted) {
        this.record(def, name, args, 'cancelled', 'CANCELLED', started, 'cancelled by the client');
        throw protocolError(ErrorCode.InvalidRequest, `${name} was cancelled.`);
      }
      if (error instanceof InvalidArgumentsError) {
        this.record(def, name, args, 'refused', error.code, started, error.message);
        throw protocolError(ErrorCode.InvalidParams, error.message, {
          error_code: error.code,
          ...(error.field ? { field: error.field } : {}),
        });
      }
      if (error instanceof ToolError) {
        this.record(def, name, args, phase === 'policy' ? 'refused' : 'error', error.code, started, error.message);
        return toolErrorResult(error);
      }
      this.logger.error(`internal error in ${name}: ${(error as Error)?.stack ?? String(error)}`);
      this.record(
        def,
        name,
        args,
        'error',
        'INTERNAL',
        started,
        `internal error: ${(error as Error)?.message ?? String(error)}`,
      );
      throw protocolError(
        ErrorCode.InternalError,
        `Internal error in ${name}: ${(error as Error)?.message ?? String(error)}. This is a droidwright bug; details are on its stderr.`,
      );
    }
  }

  private async readResource(uri: string, requestSignal: AbortSignal) {
    const resource = RESOURCES.find((r) => r.uri === uri);
    const tool = resource && this.registry.get(resource.tool);
    if (!resource || !tool)
      throw protocolError(
        RESOURCE_NOT_FOUND,
        `Unknown resource ${uri.slice(0, 200)}. Known: ${RESOURCES.map((r) => r.uri).join(', ')}.`,
      );
    const ctx = createToolContext({
      actor: this.actor(),
      store: this.store,
      logger: this.logger,
      signal: AbortSignal.any([requestSignal, this.sessionAbort.signal]),
    });
    // A resource read runs its tool (the health check probes the host), so it is audited like a call.
    const started = performance.now();
    try {
      const result = await tool.definition.handler({}, ctx);
      this.record(tool.definition, tool.definition.name, {}, 'ok', null, started, `resource ${uri}: ${result.summary}`);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result.data, null, 2) }] };
    } catch (thrown) {
      const error = toolFacingError(thrown);
      const code = error instanceof ToolError ? error.code : 'INTERNAL';
      this.record(tool.definition, tool.definition.name, {}, 'error', code, started, `resource ${uri} failed`);
      if (error instanceof ToolError) throw protocolError(ErrorCode.InternalError, `${error.code}: ${error.message}`);
      throw error;
    }
  }
}

/**
 * A valid request that failed: the stable code and the facts behind it in `structuredContent`
 * (every output schema admits this shape), and the actionable message as text.
 */
export function toolErrorResult(error: ToolError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.message} (error_code: ${error.code})` }],
    structuredContent: {
      error_code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}
