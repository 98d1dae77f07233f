/**
 * A resource template a plugin adds to the MCP server (`resources/templates/list`), e.g.
 * `droidwright://sessions/{id}`. Plain data plus two pure functions, so a build-time catalog can list
 * templates without loading the plugin: a read is a call of `tool` (an R tool of the same plugin) with
 * the arguments `toolArguments` makes from the URI's variables. The MCP adapter therefore serves it only
 * when that tool is served (--toolsets, --read-only), validates the arguments with the tool's own input
 * schema, runs the call policies, and records the read as that tool's call. Bind with
 * `bind(ResourceTemplateContribution).toConstantValue({...})`.
 */
export const ResourceTemplateContribution = Symbol.for('droidwright.ResourceTemplateContribution');
export interface ResourceTemplateContribution {
  /** RFC 6570 level-1 template under `droidwright://`; each `{name}` matches one path segment. */
  readonly uriTemplate: string;
  /** Short kebab-case name, unique across templates. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: 'application/json' | 'text/plain' | 'text/markdown';
  /** The R tool a read calls. The server refuses at start-up a template whose tool is missing or not R. */
  readonly tool: string;
  /** The tool's arguments for one URI: variables arrive as the client sent them (hostile, percent-decoded). */
  toolArguments(variables: Readonly<Record<string, string>>): Record<string, unknown>;
  /**
   * The resource's text from the tool's structured result; JSON of the result when absent. Throw a
   * ToolError (e.g. NOT_FOUND) when the result does not describe the resource the URI names.
   */
  render?(data: Record<string, unknown>, variables: Readonly<Record<string, string>>): string;
}
