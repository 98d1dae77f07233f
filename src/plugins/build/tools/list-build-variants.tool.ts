import { z } from 'zod';
import { androidModules } from '../../../android/gradle-project-model.js';
import {
  DATA_BUDGET_BYTES,
  omitNulls,
  pageInfo,
  pageInput,
  pageOf,
  pageOutput,
  takeWithinBudget,
} from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';
import { requireModule } from '../services/task-resolution.js';

/** The module list takes at most this much of the reply; the variants page the rest. */
const MODULES_BUDGET_BYTES = 8 * 1024;

export function createListBuildVariantsTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'list_build_variants',
    toolset: 'build',
    kind: 'R',
    title: 'List build variants',
    description:
      'Build variants of each module (flavors x build types) from the build files (Gradle not run), with application ids and the active variant.',
    input: z.object({
      module: z.string().max(200).optional().describe('Only this module (:app).'),
      name_contains: z.string().min(1).max(128).optional().describe('Only names containing this, any case.'),
      ...pageInput(100, 1000, 'variants'),
    }),
    output: z.object({
      modules: z
        .array(
          z.object({
            module: z.string().describe('Module path.'),
            type: z.enum(['application', 'library', 'other']).describe('Android plugin the module applies.'),
            active_variant: z.string().optional().describe('Variant chosen with set_active_variant, if any.'),
            variant_total: z.number().int().describe('Variants its build file defines.'),
            listed_only: z
              .number()
              .int()
              .optional()
              .describe('Set when the module has too many variants to list: only this many can be listed.'),
          }),
        )
        .describe('Android modules (as many as fit 8 KiB).'),
      variants: z
        .array(
          z.object({
            module: z.string().describe('Module path.'),
            name: z.string().describe('Variant name, e.g. demoDebug.'),
            build_type: z.string().describe('Build type.'),
            flavors: z.array(z.string()).describe('Product flavors in dimension order.'),
            application_id: z.string().optional().describe('Application id, when the build file states it literally.'),
            minify_enabled: z.boolean().describe('R8 shrinking on.'),
            debuggable: z.boolean().describe('Debuggable build type.'),
          }),
        )
        .describe('This page of variants, module by module.'),
      ...pageOutput,
    }),
    async handler(args) {
      const project = deps.service.loadProject();
      const modules = args.module !== undefined ? [requireModule(project, args.module)] : androidModules(project);
      const needle = args.name_contains?.toLowerCase();
      const all = modules.flatMap((m) =>
        m.variants
          .filter((v) => needle === undefined || v.name.toLowerCase().includes(needle))
          .map((v) => ({
            module: m.path,
            name: v.name,
            build_type: v.buildType,
            flavors: [...v.flavors],
            application_id: v.applicationId,
            minify_enabled: v.minifyEnabled,
            debuggable: v.debuggable,
          })),
      );
      const { taken: moduleViews } = takeWithinBudget(
        modules.map((m) => ({
          module: m.path,
          type: m.type,
          active_variant: deps.history.activeVariant(project.root, m.path),
          variant_total: m.variantTotal,
          listed_only: m.variantsCapped ? m.variants.length : null,
        })),
        MODULES_BUDGET_BYTES,
      );
      const page = pageOf(all, args, DATA_BUDGET_BYTES - MODULES_BUDGET_BYTES);
      const capped = modules.filter((m) => m.variantsCapped);
      const cappedNote =
        capped.length > 0
          ? ` ${capped.map((m) => `${m.path} defines ${m.variantTotal} variants; the first ${m.variants.length} are listed`).join('; ')}.`
          : '';
      return {
        data: omitNulls({ modules: moduleViews, variants: page.items, ...pageInfo(page) }),
        summary:
          `${page.items.length} of ${page.total} variant(s) in ${modules.length} module(s)${page.has_more ? '; more with cursor' : ''}.${cappedNote}`.slice(
            0,
            1000,
          ),
      };
    },
  });
}
