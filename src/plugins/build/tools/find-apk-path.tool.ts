import { existsSync } from 'node:fs';
import { z } from 'zod';
import { applicationModules, readBuildOutputs } from '../../../android/gradle-project-model.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';
import { requireModule } from '../services/task-resolution.js';

/** Variant names listed as candidates; a module has at most 200 output-metadata files anyway. */
const MAX_CANDIDATES = 50;
/** Matching paths quoted in a reason. */
const MAX_QUOTED_PATHS = 5;

export function createFindApkPathTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'find_apk_path',
    toolset: 'build',
    kind: 'R',
    title: 'Find APK path',
    description:
      'The built APK of an application module and variant (exact match via output-metadata.json) and the build that wrote it; found: false with a reason when ambiguous or missing. run_gradle_task results already list their APKs.',
    input: z.object({
      variant: z
        .string()
        .max(128)
        .optional()
        .describe('Variant (demoDebug); default: the active one, else the only one built.'),
      module: z
        .string()
        .max(200)
        .optional()
        .describe('Application module (:app) or its build task; default: the only one.'),
    }),
    output: z.object({
      found: z.boolean().describe('Whether exactly one APK matched.'),
      reason: z.string().optional().describe('Why nothing (or too much) matched.'),
      path: z.string().optional().describe('Absolute APK path.'),
      module: z.string().optional().describe('Module searched.'),
      variant: z.string().optional().describe('Variant matched.'),
      application_id: z.string().optional().describe('Application id from output-metadata.json.'),
      version_code: z.number().int().optional().describe('versionCode from output-metadata.json.'),
      version_name: z.string().optional().describe('versionName from output-metadata.json.'),
      built_by: z.string().optional().describe('Id of the recorded build that wrote this exact file, when known.'),
      candidates: z
        .array(z.string())
        .describe(`Variants with APKs in the module (the first ${MAX_CANDIDATES}), when nothing or several matched.`),
    }),
    async handler(args) {
      const project = deps.service.loadProject();
      const none = { candidates: [] as string[] };
      const apps = applicationModules(project);
      const module =
        args.module !== undefined ? requireModule(project, args.module) : apps.length === 1 ? apps[0]! : null;
      if (!module) {
        const reason =
          apps.length === 0
            ? 'The project has no application module (com.android.application).'
            : `The project has several application modules (${apps.map((m) => m.path).join(', ')}); pass module.`;
        return { data: { found: false, reason, ...none }, summary: reason };
      }
      const outputs = readBuildOutputs(module.dir).filter((o) => o.apks.some((a) => existsSync(a.path)));
      const variant =
        args.variant ??
        deps.history.activeVariant(project.root, module.path) ??
        (outputs.length === 1 ? outputs[0]!.variantName : null);
      const candidates = [...new Set(outputs.map((o) => o.variantName))].slice(0, MAX_CANDIDATES);
      if (!variant) {
        const reason =
          outputs.length === 0
            ? `No built APK in ${module.path}/build/outputs/apk. Build one first (run_gradle_task assembleDebug).`
            : `Several variants are built (${candidates.join(', ')}); pass variant.`;
        return { data: { found: false, reason, ...none, module: module.path, candidates }, summary: reason };
      }
      const matches = outputs
        .filter((o) => o.variantName === variant)
        .flatMap((o) => o.apks.filter((a) => existsSync(a.path)).map((a) => ({ o, a })));
      if (matches.length !== 1) {
        const reason =
          matches.length === 0
            ? `No APK for variant "${variant}" in ${module.path} (built: ${candidates.join(', ') || 'none'}). Build it with run_gradle_task (task "assemble", variant "${variant}").`
            : `${matches.length} APKs match variant "${variant}" (split APKs?): ${matches
                .slice(0, MAX_QUOTED_PATHS)
                .map((m) => m.a.path)
                .join(', ')}${matches.length > MAX_QUOTED_PATHS ? ', …' : ''}.`;
        return { data: { found: false, reason, ...none, module: module.path, variant, candidates }, summary: reason };
      }
      const { o, a } = matches[0]!;
      const builtBy =
        deps.history.list(project.root, 50).find((b) => b.apks.some((x) => x.path === a.path))?.id ?? null;
      return {
        data: {
          found: true,
          path: a.path,
          module: module.path,
          variant,
          application_id: o.applicationId,
          ...omitNulls({ version_code: a.versionCode, version_name: a.versionName, built_by: builtBy }),
          candidates: [],
        },
        summary: `APK for ${module.path} ${variant}: ${a.path}`,
      };
    },
  });
}
