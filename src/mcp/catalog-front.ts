import { SERVER_CAPABILITIES, servedCatalogTools, type ToolCatalog } from './tool-catalog.js';
import type { ServedTools } from './toolset-selection.js';

/**
 * The start of a `droidwright mcp` session, answered from the build's tool catalog before zod, the MCP SDK,
 * the container or any plugin is loaded: `initialize`, `notifications/initialized`, `ping` and `tools/list`,
 * when each is plainly well formed (resources and prompts depend on the project's files and plugins' templates,
 * so their lists come from the full server). Anything else (a call, an
 * odd or malformed message, a second initialize) hands the session over to the full server, which first
 * replays what this front consumed (the initialize under a private id whose reply it drops, and the
 * initialized notification), so the SDK's session state is what it would have been had it read the stream
 * from the start, and the message is answered exactly as before. A message the front is not sure of is never
 * answered here: it accepts only a subset of what the SDK's schemas accept.
 */
export interface CatalogFrontOptions {
  readonly catalog: ToolCatalog;
  readonly served: ServedTools;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly instructions: string;
  /** Writes one JSON-RPC line to the client. */
  write(line: string): void;
  /**
   * Starts the full server. `replay` is what it must read first; `dropReplyTo` the id of the replayed
   * initialize, whose reply the client already has. Returns where to write every later byte from the client.
   */
  handOver(replay: string, dropReplyTo: string | undefined): (text: string) => void;
  /** The client has listed the tools after the handshake: a good moment to load the rest in the background. */
  onListed?(): void;
  /** The handshake is complete (notifications/initialized consumed). */
  onHandshake?(): void;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasOnlyKeys(value: Json, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

/** Client capabilities whose shape the SDK's ClientCapabilitiesSchema surely accepts. */
function plainCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const [key, capability] of Object.entries(value)) {
    if (!isObject(capability)) return false;
    if (key === 'roots') {
      if (!hasOnlyKeys(capability, ['listChanged'])) return false;
      if (capability.listChanged !== undefined && typeof capability.listChanged !== 'boolean') return false;
    } else if (key === 'sampling' || key === 'elicitation') {
      const allowed = key === 'sampling' ? ['context', 'tools'] : ['form'];
      if (!hasOnlyKeys(capability, allowed) || !Object.values(capability).every(isEmptyObject)) return false;
    } else if (key === 'experimental' || key === 'extensions') {
      if (!Object.values(capability).every(isObject)) return false;
    } else {
      return false;
    }
  }
  return true;
}

function plainClientInfo(value: unknown): boolean {
  return (
    isObject(value) &&
    hasOnlyKeys(value, ['name', 'version', 'title']) &&
    typeof value.name === 'string' &&
    typeof value.version === 'string' &&
    (value.title === undefined || typeof value.title === 'string')
  );
}

/** A list request's params: none, or a cursor (the lists are never paged, so a cursor changes nothing). */
function plainListParams(params: unknown): boolean {
  return (
    params === undefined ||
    (isObject(params) && hasOnlyKeys(params, ['cursor']) && ['string', 'undefined'].includes(typeof params.cursor))
  );
}

function isRequestId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

export class CatalogFront {
  private buffer = '';
  private sink: ((text: string) => void) | undefined;
  private initialize: Json | undefined;
  private initialized: string | undefined;
  private toolsLine: string | undefined;

  constructor(private readonly options: CatalogFrontOptions) {}

  /** True once the client completed the handshake with this front (it then expects its session on record). */
  get handshakeComplete(): boolean {
    return this.initialized !== undefined;
  }

  /** True once the full server took the session over. */
  get handedOver(): boolean {
    return this.sink !== undefined;
  }

  /** Bytes from the client, in order. */
  push(text: string): void {
    if (this.sink) {
      this.sink(text);
      return;
    }
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1 && !this.sink) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (!this.answer(line.replace(/\r$/, ''))) {
        this.handOver(`${line}\n${this.buffer}`);
        this.buffer = '';
        return;
      }
      newline = this.buffer.indexOf('\n');
    }
  }

  /** Hands the session to the full server now (nothing pending is lost: unread bytes go with it). */
  handOver(pending = ''): void {
    if (this.sink) return;
    let replay = '';
    let dropReplyTo: string | undefined;
    if (this.initialize) {
      dropReplyTo = `droidwright-front-initialize-${process.pid}-${Date.now()}`;
      replay += `${JSON.stringify({ ...this.initialize, id: dropReplyTo })}\n`;
      if (this.initialized !== undefined) replay += `${this.initialized}\n`;
    }
    const rest = pending || this.buffer;
    this.buffer = '';
    this.sink = this.options.handOver(replay, dropReplyTo);
    if (rest) this.sink(rest);
  }

  /** Answers `line` and returns true, or returns false when the full server must. */
  private answer(line: string): boolean {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return false;
    }
    if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false;
    if (!hasOnlyKeys(message, ['jsonrpc', 'id', 'method', 'params'])) return false;
    const { method, params } = message;
    if (!('id' in message)) {
      if (method !== 'notifications/initialized' || !this.initialize || this.initialized !== undefined) return false;
      if (params !== undefined && !isEmptyObject(params)) return false;
      this.initialized = line;
      this.options.onHandshake?.();
      return true;
    }
    const id = message.id;
    if (!isRequestId(id)) return false;
    switch (method) {
      case 'initialize':
        return this.answerInitialize(message, id);
      case 'ping':
        if (params !== undefined && !isEmptyObject(params)) return false;
        this.reply(id, {});
        return true;
      case 'tools/list':
        if (!plainListParams(params)) return false;
        this.replyTools(id);
        if (this.initialized !== undefined) this.options.onListed?.();
        return true;
      default:
        return false;
    }
  }

  private answerInitialize(message: Json, id: string | number): boolean {
    const params = message.params;
    if (this.initialize || !isObject(params)) return false;
    if (!hasOnlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return false;
    if (typeof params.protocolVersion !== 'string') return false;
    if (!plainCapabilities(params.capabilities) || !plainClientInfo(params.clientInfo)) return false;
    this.initialize = message;
    const { protocol } = this.options.catalog;
    this.reply(id, {
      protocolVersion: protocol.supported.includes(params.protocolVersion) ? params.protocolVersion : protocol.latest,
      capabilities: SERVER_CAPABILITIES,
      serverInfo: this.options.serverInfo,
      ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
    });
    return true;
  }

  private reply(id: string | number, result: unknown): void {
    this.options.write(`${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`);
  }

  /** tools/list is the largest reply by far and never changes in a session: serialized once. */
  private replyTools(id: string | number): void {
    this.toolsLine ??= JSON.stringify({
      tools: servedCatalogTools(this.options.catalog, this.options.served).map((tool) => tool.published),
    });
    this.options.write(`{"result":${this.toolsLine},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`);
  }
}
