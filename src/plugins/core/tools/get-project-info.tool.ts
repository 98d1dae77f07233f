import { z } from 'zod';
import { clipStrings, omitNulls, takeWithinBudget } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { ProjectSelection } from '../../../kernel/project-selection.js';
import type { TrustService } from '../trust-service.js';
import { quoteShellArg } from '../../../kernel/validation.js';
import type { McpActivityReader } from '../services/mcp-activity-reader.js';
import type { ProjectInspector } from '../services/project-inspector.js';

const ApplicationModuleSchema = z.object({
  path: z.string().describe('Gradle path of the module, e.g. ":app" (":" for a single-module project).'),
  dir: z.string().describe('Absolute directory of the module.'),
  build_file: z.string().optional().describe('The module build script that applies the Android application plugin.'),
  application_id: z
    .string()
    .optional()
    .describe('applicationId when the build script states it literally; absent when computed elsewhere.'),
  namespace: z.string().optional().describe('namespace when the build script states it literally.'),
});

const LiveSessionSchema = z.object({
  session: z.string().describe('MCP session id.'),
  client_name: z.string().optional().describe('Client name from its initialize request.'),
  pid: z.number().int().describe('Process id of that droidwright server.'),
  started_at: z.string().describe('When the session started (ISO 8601).'),
});

/** The application module list takes at most this much of the reply. */
const MODULES_BUDGET_BYTES = 32 * 1024;

/** `droidwright trust <root>`, with the path quoted only when a terminal would need it. */
export function trustCommand(root: string): string {
  return `droidwright trust ${/^[\w@%+=:,./-]+$/.test(root) ? root : quoteShellArg(root)}`;
}

export function createGetProjectInfoTool(deps: {
  project: ProjectSelection;
  inspector: ProjectInspector;
  trust: TrustService;
  activity: McpActivityReader;
  dataDir: string;
}) {
  return defineTool({
    name: 'get_project_info',
    toolset: 'core',
    kind: 'R',
    title: 'Get project info',
    description:
      "Call this first: the project's root and how it was chosen, application modules and ids, whether the user trusted it to run Gradle (and how to grant that), the data directory, live agent sessions.",
    input: z.object({}),
    output: z.object({
      root: z.string().optional().describe('Canonical project root; absent when no Gradle project was found.'),
      selected_by: z
        .enum(['flag', 'cwd', 'none'])
        .describe(
          'How the project was chosen: the --project flag, the nearest Gradle settings file above the working directory, or none.',
        ),
      application_modules: z
        .array(ApplicationModuleSchema)
        .describe('Modules that apply com.android.application (as many as fit 32 KiB).'),
      application_module_total: z.number().int().describe('Application modules in all.'),
      trusted: z
        .boolean()
        .describe(
          "Whether a person allowed this project's build code to run. Builds and tests need it; everything else works without it.",
        ),
      trust_hint: z
        .string()
        .optional()
        .describe(
          'When not trusted: the exact command the user must run in their own terminal. Null when trusted or no project.',
        ),
      hint: z.string().optional().describe('What to do when no project was found.'),
      data_dir: z.string().describe('droidwright data directory (event log, build logs).'),
      live_mcp_sessions: z
        .array(LiveSessionSchema)
        .describe('droidwright MCP sessions whose processes are alive, including this one.'),
    }),
    async handler() {
      const root = deps.project.root;
      const trusted = root !== null && deps.trust.isTrusted(root);
      const modules = root ? deps.inspector.applicationModules(root) : [];
      // A project has a handful of app modules; a generated settings file may list hundreds.
      const { taken: listedModules } = takeWithinBudget(
        modules.map((m) => omitNulls(clipStrings(m, 500))),
        MODULES_BUDGET_BYTES,
      );
      let live: z.infer<typeof LiveSessionSchema>[] = [];
      try {
        live = deps.activity.liveSessions(20).map((s) =>
          omitNulls({
            session: s.session,
            client_name: s.client_name?.slice(0, 300) ?? null,
            pid: s.pid,
            started_at: new Date(s.started_at).toISOString(),
          }),
        );
      } catch {
        // The log may be unavailable; project facts are still worth returning.
      }
      const trustHint =
        root && !trusted
          ? `Ask the user to review the project and run \`${trustCommand(root)}\` in a terminal. Only a person can grant trust.`
          : null;
      return {
        data: omitNulls({
          root,
          selected_by: deps.project.selectedBy,
          application_modules: listedModules,
          application_module_total: modules.length,
          trusted,
          trust_hint: trustHint,
          hint: root
            ? null
            : 'No Gradle project found. Start droidwright mcp inside a project directory or pass --project <path>.',
          data_dir: deps.dataDir,
          live_mcp_sessions: live,
        }),
        summary: root
          ? `${root} (${modules.length} app module${modules.length === 1 ? '' : 's'}, ${trusted ? 'trusted' : 'not trusted'})`
          : 'no Gradle project selected',
      };
    },
  });
}
