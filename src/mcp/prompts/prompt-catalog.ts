import { InvalidArgumentsError } from '../../kernel/errors.js';
import { validateGradleTaskName, validatePackageName, validateSerial } from '../../kernel/validation.js';
import type { PromptArgument, PromptDefinition, PromptStep, StepValue } from './prompt-definition.js';
import { PROMPTS } from './prompt-definitions.js';

/** Whether this session serves a tool: from the registry, or from a build-time catalog. */
export type IsServed = (tool: string) => boolean;

/** What `prompts/list` shows for one prompt. */
export interface PromptListing {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly { readonly name: string; readonly description: string; readonly required: boolean }[];
}

export interface RenderedPrompt {
  readonly description: string;
  readonly messages: readonly [
    { readonly role: 'user'; readonly content: { readonly type: 'text'; readonly text: string } },
  ];
}

/** Longest free-text argument (the flow a UI test follows); the plan quotes it. */
export const MAX_FREE_TEXT = 500;
const VARIANT = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

/** A prompt is listed when every tool its required steps call is served. */
export function isPromptServed(prompt: PromptDefinition, isServed: IsServed): boolean {
  return prompt.steps.every((step) => step.optional === true || isServed(step.tool));
}

/** `prompts/list` for a session: a pure function of which tools it serves. */
export function listServedPrompts(isServed: IsServed, prompts: readonly PromptDefinition[] = PROMPTS): PromptListing[] {
  return prompts
    .filter((p) => isPromptServed(p, isServed))
    .map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    }));
}

/**
 * Every tool a prompt names with the parameters it passes, and the snake_case names its prose puts in
 * backticks: what a test checks against the registry.
 */
export function promptReferences(prompt: PromptDefinition): {
  readonly calls: readonly { readonly tool: string; readonly params: readonly string[] }[];
  readonly quoted: readonly string[];
} {
  const prose = [prompt.goal, prompt.finish, ...prompt.steps.flatMap((s) => [s.look, s.when ?? ''])].join('\n');
  const quoted = [...prose.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)].map((m) => m[1] as string);
  return { calls: prompt.steps.map((s) => ({ tool: s.tool, params: Object.keys(s.args ?? {}) })), quoted };
}

function checkArgument(def: PromptArgument, value: string): string {
  switch (def.rule) {
    case 'package':
      return validatePackageName(value, def.name);
    case 'device_serial':
      return validateSerial(value, def.name);
    case 'gradle_task':
      return validateGradleTaskName(value, def.name);
    case 'variant':
      if (!VARIANT.test(value))
        throw new InvalidArgumentsError(
          `${def.name} must be a build variant name such as debug or demoDebug (letters, digits, "_"; starting with a letter).`,
          'INVALID_ARGUMENT',
          def.name,
        );
      return value;
    case 'free_text':
      if (value.trim().length === 0)
        throw new InvalidArgumentsError(`${def.name} must not be empty.`, 'INVALID_ARGUMENT', def.name);
      if (value.length > MAX_FREE_TEXT)
        throw new InvalidArgumentsError(
          `${def.name} must be at most ${MAX_FREE_TEXT} characters (got ${value.length}).`,
          'INVALID_ARGUMENT',
          def.name,
        );
      return value.replace(/\s+/g, ' ').trim();
  }
}

/**
 * The arguments of a `prompts/get`, checked: unknown names and missing required ones are refused,
 * values follow their rule, defaults fill the rest. Throws InvalidArgumentsError naming the argument.
 */
export function resolvePromptArguments(
  prompt: PromptDefinition,
  raw: Readonly<Record<string, unknown>> | undefined,
): Map<string, string> {
  const given = raw ?? {};
  const unknown = Object.keys(given).filter((k) => !prompt.arguments.some((a) => a.name === k));
  if (unknown.length > 0)
    throw new InvalidArgumentsError(
      `${prompt.name} does not take ${unknown
        .slice(0, 5)
        .map((k) => JSON.stringify(k.slice(0, 100)))
        .join(', ')}; it takes ${prompt.arguments.map((a) => a.name).join(', ')}.`,
      'INVALID_ARGUMENT',
      unknown[0]?.slice(0, 100),
    );
  const values = new Map<string, string>();
  for (const def of prompt.arguments) {
    const value = given[def.name];
    // Clients send an unset optional argument as "" as often as they leave it out.
    if (value === undefined || value === '') {
      if (def.required)
        throw new InvalidArgumentsError(
          `${prompt.name} needs ${def.name}: ${def.description}`,
          'INVALID_ARGUMENT',
          def.name,
        );
      if (def.default !== undefined) values.set(def.name, def.default);
      continue;
    }
    if (typeof value !== 'string')
      throw new InvalidArgumentsError(`${def.name} must be a string.`, 'INVALID_ARGUMENT', def.name);
    values.set(def.name, checkArgument(def, value));
  }
  return values;
}

function renderValue(value: StepValue, args: ReadonlyMap<string, string>): string | undefined {
  if ('arg' in value) {
    const given = args.get(value.arg);
    return given === undefined ? undefined : JSON.stringify(given);
  }
  if ('value' in value) return JSON.stringify(value.value);
  return `<${value.from}>`;
}

function renderStep(step: PromptStep, index: number, args: ReadonlyMap<string, string>): string {
  const params = Object.entries(step.args ?? {})
    .map(([name, value]) => [name, renderValue(value, args)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}: ${value}`);
  const call = params.length > 0 ? `\`${step.tool}\` with ${params.join(', ')}` : `\`${step.tool}\``;
  return `${index}. ${step.when ? `When ${step.when}: call ` : 'Call '}${call}. ${step.look}`;
}

/** `{name}` in a prompt's goal: the checked value quoted, or a phrase when the argument was not given. */
function fillGoal(goal: string, args: ReadonlyMap<string, string>): string {
  return goal.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = args.get(name);
    if (value !== undefined) return JSON.stringify(value);
    return name === 'device_serial' ? 'the online device' : `the default ${name}`;
  });
}

/**
 * The plan for `prompts/get`: the goal, the steps whose tools are served (numbered), the finish. Pure:
 * the same prompt, arguments and served tools always give the same text.
 */
export function renderPrompt(
  prompt: PromptDefinition,
  raw: Readonly<Record<string, unknown>> | undefined,
  isServed: IsServed,
): RenderedPrompt {
  const args = resolvePromptArguments(prompt, raw);
  const steps = prompt.steps.filter((s) => isServed(s.tool)).map((s, i) => renderStep(s, i + 1, args));
  const text = [fillGoal(prompt.goal, args), '', ...steps, '', prompt.finish].join('\n');
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

export function findPrompt(name: string, prompts: readonly PromptDefinition[] = PROMPTS): PromptDefinition | undefined {
  return prompts.find((p) => p.name === name);
}
