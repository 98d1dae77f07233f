import { ToolError, InvalidArgumentsError } from '../../kernel/errors.js';
import type { ResourceTemplateContribution } from '../../kernel/resource-template-contribution.js';
import type { IsServed } from '../prompts/prompt-catalog.js';

/**
 * The resources droidwright serves, as plain data with pure functions of the served tools, so a
 * build-time catalog can list them without loading a toolset. Three kinds:
 * - reports: the JSON of an R tool called with no arguments (served when that tool is);
 * - files: the agent skill and the project's manifest and Gradle files (listed when they exist);
 * - templates: a read is a call of an R tool with arguments from the URI (built in here, and
 *   `ResourceTemplateContribution`s from plugins).
 */
export interface ReportResource {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly tool: string;
}

export const REPORT_RESOURCES: readonly ReportResource[] = [
  {
    uri: 'droidwright://project-info',
    name: 'project-info',
    title: 'Project info',
    tool: 'get_project_info',
    description: 'The selected project, its app modules and trust status (same as get_project_info).',
  },
  {
    uri: 'droidwright://health',
    name: 'health',
    title: 'Toolchain health',
    tool: 'run_health_check',
    description: 'Toolchain health: Java, SDK, adb, emulator, Gradle wrapper (same as run_health_check).',
  },
];

/** Which file a file resource reads: the shipped skill, or one of the selected project's files. */
export type FileResourceSource = 'skill' | 'manifest' | 'app-build-gradle' | 'build-gradle' | 'settings-gradle';

export interface FileResource {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: 'text/markdown' | 'application/xml' | 'text/plain';
  readonly source: FileResourceSource;
}

export const SKILL_RESOURCE: FileResource = {
  uri: 'droidwright://skill',
  name: 'skill',
  title: 'droidwright agent skill',
  description: 'How to work on Android with droidwright: the session start, the build → fix → deploy loop, logs, UI.',
  mimeType: 'text/markdown',
  source: 'skill',
};

/** Listed only when the file exists as a regular file inside the project (see project-files.ts). */
export const PROJECT_FILE_RESOURCES: readonly FileResource[] = [
  {
    uri: 'droidwright://project/manifest',
    name: 'project-manifest',
    title: 'App manifest',
    description: "The application module's src/main/AndroidManifest.xml (projects with one application module).",
    mimeType: 'application/xml',
    source: 'manifest',
  },
  {
    uri: 'droidwright://project/app-build-gradle',
    name: 'project-app-build-gradle',
    title: 'App build script',
    description: "The application module's build.gradle(.kts) (projects with one application module).",
    mimeType: 'text/plain',
    source: 'app-build-gradle',
  },
  {
    uri: 'droidwright://project/build-gradle',
    name: 'project-build-gradle',
    title: 'Root build script',
    description: "The project's root build.gradle(.kts).",
    mimeType: 'text/plain',
    source: 'build-gradle',
  },
  {
    uri: 'droidwright://project/settings-gradle',
    name: 'project-settings-gradle',
    title: 'Gradle settings',
    description: "The project's settings.gradle(.kts): its modules and plugin repositories.",
    mimeType: 'text/plain',
    source: 'settings-gradle',
  },
];

/** Lines of a build log a resource read returns: the end, where a failure is. */
const BUILD_LOG_LINES = 2000;

export const BUILT_IN_TEMPLATES: readonly ResourceTemplateContribution[] = [
  {
    uriTemplate: 'droidwright://builds/{id}/log',
    name: 'build-log',
    title: 'Build log',
    description: `The last ${BUILD_LOG_LINES} lines of a build's Gradle log (build ids: list_build_history, run_gradle_task).`,
    mimeType: 'text/plain',
    tool: 'get_build_log',
    toolArguments: (v) => ({ build_id: v.id, lines: BUILD_LOG_LINES, from: 'tail' }),
    render(data) {
      const lines = (data.lines as string[] | undefined) ?? [];
      const cut = data.has_more === true || data.truncated === true || data.partial === true;
      const note = cut
        ? `\n[droidwright: these are the last ${lines.length} lines of build ${String(data.build_id)}; the whole log is ${String(data.log_path)} — page back with get_build_log and its cursor]`
        : '';
      return `${lines.join('\n')}${note}`;
    },
  },
  {
    uriTemplate: 'droidwright://events/{seq}',
    name: 'event',
    title: 'Event',
    description: 'One event of the audit log by its sequence number, with its data (seqs: query_events).',
    mimeType: 'application/json',
    tool: 'query_events',
    toolArguments(v) {
      const seq = v.seq ?? '';
      if (!/^[1-9]\d{0,14}$/.test(seq))
        throw new InvalidArgumentsError(
          `seq must be a positive event sequence number (got ${JSON.stringify(seq.slice(0, 40))}).`,
          'INVALID_ARGUMENT',
          'seq',
        );
      return { before_seq: Number(seq) + 1, limit: 1, verbose: true };
    },
    render(data, v) {
      const event = (data.events as { seq?: number }[] | undefined)?.[0];
      if (!event || String(event.seq) !== v.seq)
        throw new ToolError(
          'NOT_FOUND',
          `The event log has no event ${v.seq} (its newest is ${String(data.last_seq)}).`,
        );
      return JSON.stringify(event);
    },
  },
];

export function servedReportResources(isServed: IsServed): ReportResource[] {
  return REPORT_RESOURCES.filter((r) => isServed(r.tool));
}

export function servedTemplates(
  templates: readonly ResourceTemplateContribution[],
  isServed: IsServed,
): ResourceTemplateContribution[] {
  return templates.filter((t) => isServed(t.tool));
}

/** The listing entry of a template (`resources/templates/list`). */
export function describeTemplate(t: ResourceTemplateContribution) {
  return { uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType };
}

const VARIABLE = /\{([a-z_]+)\}/g;

/**
 * The variables of `uri` when it matches `template` (each `{name}` one non-empty path segment,
 * percent-decoded), else null. A segment that does not decode does not match.
 */
export function matchTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(VARIABLE)
    .map((part, i) => {
      if (i % 2 === 1) {
        names.push(part);
        return '([^/?#]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return null;
  const variables: Record<string, string> = {};
  try {
    names.forEach((name, i) => {
      variables[name] = decodeURIComponent(match[i + 1] as string);
    });
  } catch {
    return null;
  }
  return variables;
}

/**
 * Checks the templates at start-up: unique names and templates, `droidwright://`, each template's
 * tool registered and of kind R. Throws naming the first problem (a contribution bug).
 */
export function checkTemplates(
  templates: readonly ResourceTemplateContribution[],
  toolKind: (tool: string) => string | undefined,
): void {
  const seen = new Set<string>();
  for (const t of templates) {
    const problem = !t.uriTemplate.startsWith('droidwright://')
      ? 'must start with droidwright://'
      : seen.has(t.name) || seen.has(t.uriTemplate)
        ? 'is contributed twice'
        : toolKind(t.tool) === undefined
          ? `names the tool ${t.tool}, which is not registered`
          : toolKind(t.tool) !== 'R'
            ? `names the tool ${t.tool}, which is not a read-only (R) tool`
            : null;
    if (problem) throw new Error(`Resource template ${t.name} (${t.uriTemplate}) ${problem}.`);
    seen.add(t.name);
    seen.add(t.uriTemplate);
  }
}
