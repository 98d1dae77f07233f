import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { ProjectSelection } from '../../../kernel/project-selection.js';
import type { TrustService } from '../trust-service.js';
import { quoteShellArg } from '../../../kernel/validation.js';
import type { McpActivityReader } from '../services/mcp-activity-reader.js';
import type { ProjectInspector } from '../services/project-inspector.js';

const ApplicationModuleSchema = z.object({
  path: z.string().describe('Gradle path of the module, e.g. ":app" (":" for a single-module project).'),
  dir: z.string().describe('Absolute directory of the module.'),
  build_file: z.string().nullable().describe('The module build script that applies the Android application plugin.'),
  application_id: z
    .string()
    .nullable()
    .describe('applicationId when the build script states it literally; null when computed elsewhere.'),
  namespace: z.string().nullable().describe('namespace when the build script states it literally.'),
});

const LiveSessionSchema = z.object({
  session: z.string().describe('MCP session id.'),
  client_name: z.string().nullable().describe('Client name from its initialize request.'),
  pid: z.number().int().describe('Process id of that droidwright server.'),
  started_at: z.string().describe('When the session started (ISO 8601).'),
});

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
      'Describe the Android project this server works on: its root and how it was chosen, the modules that build apps (with their application ids when stated), whether a person has trusted it to run Gradle builds (and the command they run to grant that), where droidwright keeps its data, and which other agent sessions are live. Call this first.',
    input: z.object({}),
    output: z.object({
      root: z.string().nullable().describe('Canonical project root, or null when no Gradle project was found.'),
      selected_by: z
        .enum(['flag', 'cwd', 'none'])
        .describe(
          'How the project was chosen: the --project flag, the nearest Gradle settings file above the working directory, or none.',
        ),
      application_modules: z.array(ApplicationModuleSchema).describe('Modules that apply com.android.application.'),
      trusted: z
        .boolean()
        .describe(
          "Whether a person allowed this project's build code to run. Builds and tests need it; everything else works without it.",
        ),
      trust_hint: z
        .string()
        .nullable()
        .describe(
          'When not trusted: the exact command the user must run in their own terminal. Null when trusted or no project.',
        ),
      hint: z.string().nullable().describe('What to do when no project was found.'),
      data_dir: z.string().describe('droidwright data directory (event log, build logs).'),
      live_mcp_sessions: z
        .array(LiveSessionSchema)
        .describe('droidwright MCP sessions whose processes are alive, including this one.'),
    }),
    async handler() {
      const root = deps.project.root;
      const trusted = root !== null && deps.trust.isTrusted(root);
      const modules = root ? deps.inspector.applicationModules(root) : [];
      let live: z.infer<typeof LiveSessionSchema>[] = [];
      try {
        live = deps.activity.liveSessions(20).map((s) => ({
          session: s.session,
          client_name: s.client_name,
          pid: s.pid,
          started_at: new Date(s.started_at).toISOString(),
        }));
      } catch {
        // The log may be unavailable; project facts are still worth returning.
      }
      const trustHint =
        root && !trusted
          ? `Ask the user to review the project and run \`${trustCommand(root)}\` in a terminal. Only a person can grant trust.`
          : null;
      return {
        data: {
          root,
          selected_by: deps.project.selectedBy,
          application_modules: modules,
          trusted,
          trust_hint: trustHint,
          hint: root
            ? null
            : 'No Gradle project found. Start droidwright mcp inside a project directory or pass --project <path>.',
          data_dir: deps.dataDir,
          live_mcp_sessions: live,
        },
        summary: root
          ? `${root} (${modules.length} app module${modules.length === 1 ? '' : 's'}, ${trusted ? 'trusted' : 'not trusted'})`
          : 'no Gradle project selected',
      };
    },
  });
}
