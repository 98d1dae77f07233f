import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { InvalidArgumentsError, ToolError } from '../../kernel/errors.js';
import { packagePath } from '../../kernel/package-root.js';
import type { ResourceTemplateContribution } from '../../kernel/resource-template-contribution.js';
import { toolFacingError } from '../../kernel/tool-facing-error.js';
import type { AnyToolDefinition, ToolContext } from '../../kernel/tool-definition.js';
import type { RegisteredTool } from '../../kernel/tool-registry.js';
import {
  MAX_RESOURCE_FILE_BYTES,
  existingProjectFile,
  projectFileCandidate,
  readBoundedText,
  resolveProjectFile,
} from './project-files.js';
import {
  BUILT_IN_TEMPLATES,
  PROJECT_FILE_RESOURCES,
  SKILL_RESOURCE,
  checkTemplates,
  describeTemplate,
  matchTemplate,
  servedReportResources,
  servedTemplates,
  type FileResource,
} from './resource-catalog.js';

/** MCP's "resource not found" error code (not in the SDK's ErrorCode enum). */
export const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
/** The audit record's tool name for reads that run no tool (the skill, project files, unknown URIs). */
export const RESOURCE_READ = 'resources/read';
/** Room on the wire for everything around a resource's text: the JSON-RPC envelope, uri, mimeType. */
const CONTENTS_OVERHEAD_BYTES = 1024;
/** `{"result":…,"jsonrpc":"2.0","id":…}` around a result, as the session counts it. */
const ENVELOPE_BYTES = 256;

type ReadOutcome = 'ok' | 'error' | 'refused';

/** What resource reading needs from the session, so the audit, policies and bounds stay the session's. */
export interface ResourceHost {
  readonly projectRoot: string | null;
  readonly maxResponseBytes: number;
  tool(name: string): RegisteredTool | undefined;
  isServed(tool: string): boolean;
  /** Why a tool this session does not serve is hidden, and how to enable it. */
  notServedMessage(def: AnyToolDefinition): string;
  checkPolicies(def: AnyToolDefinition, args: Record<string, unknown>): Promise<void>;
  context(signal: AbortSignal): ToolContext;
  record(read: {
    def: AnyToolDefinition | undefined;
    name: string;
    args: Record<string, unknown>;
    outcome: ReadOutcome;
    errorCode: string | null;
    started: number;
    summary: string;
  }): Promise<void>;
  /** A JSON-RPC error whose message is exactly `message`. */
  protocolError(code: number, message: string, data?: Record<string, unknown>): Error;
}

export interface ResourceContents {
  [key: string]: unknown;
  contents: { uri: string; mimeType: string; text: string }[];
}

function wireBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * `resources/list`, `resources/templates/list` and `resources/read`. Every read is gated like a call
 * (a resource backed by a tool is served only when that tool is), goes through the call policies with
 * the arguments it runs the tool with, and is recorded as an `mcp.tool_called`: under that tool's name
 * with its arguments, or as `resources/read` with the URI for files, which run no tool.
 */
export class McpResources {
  private readonly templates: readonly ResourceTemplateContribution[];

  constructor(
    private readonly host: ResourceHost,
    contributed: readonly ResourceTemplateContribution[],
  ) {
    // A built-in template is left out with its plugin (a container without the build plugin has no build
    // logs); a contributed one must name a registered R tool of its own plugin, or start-up fails.
    const builtIn = BUILT_IN_TEMPLATES.filter((t) => host.tool(t.tool) !== undefined);
    this.templates = [...builtIn, ...contributed];
    checkTemplates(this.templates, (tool) => host.tool(tool)?.definition.kind);
  }

  private skillPath(): string | null {
    try {
      const path = packagePath('skills', 'droidwright', 'SKILL.md');
      return existsSync(path) ? path : null;
    } catch {
      return null;
    }
  }

  list() {
    const isServed = (tool: string) => this.host.isServed(tool);
    const root = this.host.projectRoot;
    const files = [
      ...(this.skillPath() ? [SKILL_RESOURCE] : []),
      ...(root ? PROJECT_FILE_RESOURCES.filter((r) => existingProjectFile(root, projectSource(r)) !== null) : []),
    ];
    return {
      resources: [
        ...servedReportResources(isServed).map((r) => ({
          uri: r.uri,
          name: r.name,
          title: r.title,
          description: r.description,
          mimeType: 'application/json',
        })),
        ...files.map((r) => ({
          uri: r.uri,
          name: r.name,
          title: r.title,
          description: r.description,
          mimeType: r.mimeType,
        })),
      ],
    };
  }

  listTemplates() {
    return {
      resourceTemplates: servedTemplates(this.templates, (tool) => this.host.isServed(tool)).map(describeTemplate),
    };
  }

  async read(uri: string, signal: AbortSignal): Promise<ResourceContents> {
    const started = performance.now();
    const report = servedReportResources(() => true).find((r) => r.uri === uri);
    if (report) return this.readThroughTool(uri, report.tool, {}, 'application/json', undefined, started, signal);
    const file = [SKILL_RESOURCE, ...PROJECT_FILE_RESOURCES].find((r) => r.uri === uri);
    if (file) return this.readFile(uri, file, started);
    for (const template of this.templates) {
      const variables = matchTemplate(template.uriTemplate, uri);
      if (!variables) continue;
      let args: Record<string, unknown>;
      try {
        args = template.toolArguments(variables);
      } catch (error) {
        return this.fail(uri, this.host.tool(template.tool)?.definition, template.tool, { uri }, error, started);
      }
      return this.readThroughTool(
        uri,
        template.tool,
        args,
        template.mimeType,
        (data) => template.render?.(data, variables),
        started,
        signal,
      );
    }
    const known = [
      ...servedReportResources((t) => this.host.isServed(t)).map((r) => r.uri),
      SKILL_RESOURCE.uri,
      'droidwright://project/…',
      ...servedTemplates(this.templates, (t) => this.host.isServed(t)).map((t) => t.uriTemplate),
    ];
    const message = `Unknown resource ${uri.slice(0, 200)}. Known: ${known.join(', ')} (resources/list and resources/templates/list show them).`;
    await this.host.record({
      def: undefined,
      name: RESOURCE_READ,
      args: { uri },
      outcome: 'refused',
      errorCode: 'NOT_FOUND',
      started,
      summary: `resource ${uri}: unknown`,
    });
    throw this.host.protocolError(RESOURCE_NOT_FOUND, message, { error_code: 'NOT_FOUND' });
  }

  private async readThroughTool(
    uri: string,
    toolName: string,
    rawArgs: Record<string, unknown>,
    mimeType: string,
    render: ((data: Record<string, unknown>) => string | undefined) | undefined,
    started: number,
    signal: AbortSignal,
  ): Promise<ResourceContents> {
    const tool = this.host.tool(toolName);
    if (!tool)
      throw this.host.protocolError(RESOURCE_NOT_FOUND, `${uri.slice(0, 200)} is not available in this droidwright.`);
    const def = tool.definition;
    // The same gate as tools/call: a resource whose tool this session does not serve is not served.
    if (!this.host.isServed(def.name)) {
      await this.host.record({
        def,
        name: def.name,
        args: rawArgs,
        outcome: 'refused',
        errorCode: 'TOOL_DISABLED',
        started,
        summary: `resource ${uri}: not served`,
      });
      throw this.host.protocolError(
        RESOURCE_NOT_FOUND,
        `${uri.slice(0, 200)} is read through ${this.host.notServedMessage(def)}`,
        {
          error_code: 'TOOL_DISABLED',
          toolset: def.toolset,
        },
      );
    }
    // A handler is only ever handed arguments its own input schema parsed (defaults applied).
    const parsed = tool.input.safeParse(rawArgs);
    if (!parsed.success) {
      const issue = (parsed.error as z.ZodError).issues[0];
      const error = new InvalidArgumentsError(
        `${uri.slice(0, 200)}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid'}.`,
        'INVALID_ARGUMENT',
        issue?.path.join('.'),
      );
      return this.fail(uri, def, def.name, rawArgs, error, started);
    }
    const args = parsed.data as Record<string, unknown>;
    try {
      // A resource read runs its tool (the health check probes the host), so it is audited like a call.
      await this.host.checkPolicies(def, args);
      const result = await def.handler(args, this.host.context(signal));
      const text = render?.(result.data) ?? JSON.stringify(result.data);
      const contents = { contents: [{ uri, mimeType, text }] };
      const bytes = wireBytes(contents) + ENVELOPE_BYTES;
      if (bytes > this.host.maxResponseBytes)
        throw new ToolError(
          'RESPONSE_TOO_LARGE',
          `${uri.slice(0, 200)} produced ${bytes} bytes, over the ${this.host.maxResponseBytes}-byte response bound (a droidwright bug).`,
        );
      await this.host.record({
        def,
        name: def.name,
        args,
        outcome: 'ok',
        errorCode: null,
        started,
        summary: `resource ${uri}: ${result.summary}`,
      });
      return contents;
    } catch (thrown) {
      return this.fail(uri, def, def.name, args, thrown, started);
    }
  }

  private async readFile(uri: string, resource: FileResource, started: number): Promise<ResourceContents> {
    const args = { uri };
    try {
      let path: string;
      if (resource.source === 'skill') {
        const skill = this.skillPath();
        if (!skill) throw new ToolError('NOT_FOUND', 'The droidwright skill file is missing from this installation.');
        path = skill;
      } else {
        const root = this.host.projectRoot;
        if (!root)
          throw new ToolError(
            'PROJECT_NOT_FOUND',
            'No Gradle project is selected: start droidwright in a project directory or pass --project.',
          );
        const candidate = projectFileCandidate(root, projectSource(resource));
        if (!candidate) throw new ToolError('NOT_FOUND', `${uri} does not exist in ${root}: ${resource.description}`);
        path = resolveProjectFile(root, candidate);
      }
      const room = this.host.maxResponseBytes - CONTENTS_OVERHEAD_BYTES - uri.length * 2;
      const read = readBoundedText(path, MAX_RESOURCE_FILE_BYTES, room);
      await this.host.record({
        def: undefined,
        name: RESOURCE_READ,
        args,
        outcome: 'ok',
        errorCode: null,
        started,
        summary: `resource ${uri}: ${read.shown} of ${read.size} bytes`,
      });
      return { contents: [{ uri, mimeType: resource.mimeType, text: read.text }] };
    } catch (thrown) {
      return this.fail(uri, undefined, RESOURCE_READ, args, thrown, started);
    }
  }

  /** Records a failed read and throws it as the JSON-RPC error a client can act on. */
  private async fail(
    uri: string,
    def: AnyToolDefinition | undefined,
    name: string,
    args: Record<string, unknown>,
    thrown: unknown,
    started: number,
  ): Promise<never> {
    const error = toolFacingError(thrown);
    const known = error instanceof ToolError || error instanceof InvalidArgumentsError;
    const code = known ? error.code : 'INTERNAL';
    const refused = error instanceof InvalidArgumentsError || code === 'PATH_OUTSIDE_PROJECT';
    await this.host.record({
      def,
      name,
      args,
      outcome: refused ? 'refused' : 'error',
      errorCode: code,
      started,
      summary: `resource ${uri} failed: ${known ? error.message : code}`,
    });
    if (!known) throw error;
    const data = { error_code: code };
    if (refused) throw this.host.protocolError(INVALID_PARAMS, `${error.message} (error_code: ${code})`, data);
    if (
      code === 'NOT_FOUND' ||
      code === 'BUILD_NOT_FOUND' ||
      code === 'PROJECT_NOT_FOUND' ||
      code === 'SESSION_NOT_FOUND' ||
      code === 'SESSION_PRUNED'
    )
      throw this.host.protocolError(RESOURCE_NOT_FOUND, `${error.message} (error_code: ${code})`, data);
    throw this.host.protocolError(INTERNAL_ERROR, `${code}: ${error.message}`, data);
  }
}

function projectSource(resource: FileResource): Exclude<FileResource['source'], 'skill'> {
  if (resource.source === 'skill') throw new Error('the skill is not a project file');
  return resource.source;
}
