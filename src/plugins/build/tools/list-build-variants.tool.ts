import { z } from 'zod';
import { androidModules } from '../../../android/gradle-project-model.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';
import { requireModule } from '../services/task-resolution.js';

export function createListBuildVariantsTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'list_build_variants',
    toolset: 'build',
    kind: 'R',
    title: 'List build variants',
    description:
      'Build variants of each Android module (flavor combinations × build types, e.g. demoDebug), read from the build files without running Gradle, with each application id and the active variant.',
    input: z.object({ module: z.string().optional().describe('Only this module, e.g. ":app".') }),
    output: z.object({
      modules: z
        .array(
          z.object({
            module: z.string().describe('Module path.'),
            type: z.enum(['application', 'library', 'other']).describe('Android plugin the module applies.'),
            active_variant: z.string().nullable().describe('Variant chosen with set_active_variant, if any.'),
            variants: z
              .array(
                z.object({
                  name: z.string().describe('Variant name, e.g. demoDebug.'),
                  build_type: z.string().describe('Build type.'),
                  flavors: z.array(z.string()).describe('Product flavors in dimension order.'),
                  application_id: z
                    .string()
                    .nullable()
                    .describe('Application id of this variant, when the build file states it literally.'),
                  minify_enabled: z.boolean().describe('Whether R8 shrinking is on.'),
                  debuggable: z.boolean().describe('Whether the build type is debuggable.'),
                }),
              )
              .describe('Variants.'),
          }),
        )
        .describe('Android modules.'),
    }),
    async handler(args) {
      const project = deps.service.loadProject();
      const modules = args.module !== undefined ? [requireModule(project, args.module)] : androidModules(project);
      const out = modules.map((m) => ({
        module: m.path,
        type: m.type,
        active_variant: deps.history.activeVariant(project.root, m.path),
        variants: m.variants.map((v) => ({
          name: v.name,
          build_type: v.buildType,
          flavors: [...v.flavors],
          application_id: v.applicationId,
          minify_enabled: v.minifyEnabled,
          debuggable: v.debuggable,
        })),
      }));
      return {
        data: { modules: out },
        summary:
          out.map((m) => `${m.module}: ${m.variants.map((v) => v.name).join(', ') || 'no variants'}`).join('; ') ||
          'No Android modules found.',
      };
    },
  });
}
