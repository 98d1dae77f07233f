/**
 * An MCP prompt as plain data: a short ordered plan whose steps name real tools and real parameters.
 * Being data, a build-time catalog can list prompts without loading anything, and a test can check
 * every tool and parameter a prompt names against the live registry (`promptReferences`).
 */
export interface PromptDefinition {
  /** kebab-case, unique. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** The first paragraph; `{name}` is replaced with an argument's value (quoted) or its fallback text. */
  readonly goal: string;
  readonly steps: readonly PromptStep[];
  /** The closing paragraph: what to report, what not to do without asking. */
  readonly finish: string;
}

/** How a prompt argument is checked before it is written into the plan (arguments are hostile). */
export type PromptArgumentRule = 'package' | 'device_serial' | 'variant' | 'gradle_task' | 'free_text';

export interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly rule: PromptArgumentRule;
  /** The value used when the argument is absent (shown in the plan as that value). */
  readonly default?: string;
}

/**
 * One value a step passes to its tool:
 * - `{ arg }`: the prompt argument (the parameter is left out when the argument is absent and has no default);
 * - `{ value }`: a literal;
 * - `{ from }`: where the model finds it (an earlier step's output), shown as `<from>`.
 */
export type StepValue =
  | { readonly arg: string }
  | { readonly value: string | number | boolean }
  | { readonly from: string };

export interface PromptStep {
  /** A tool name; must exist in the registry. */
  readonly tool: string;
  /** Parameter → value; every key must be an input field of `tool`. */
  readonly args?: Readonly<Record<string, StepValue>>;
  /** When the step applies, e.g. "when the build failed"; absent: always. */
  readonly when?: string;
  /** What to look for or do with the result. Tool names in backticks must exist too. */
  readonly look: string;
  /**
   * An optional step is left out when its tool is not served; the prompt is listed only when every
   * required step's tool is served.
   */
  readonly optional?: boolean;
}
