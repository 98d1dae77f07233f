import { z } from 'zod';
import { androidModules } from '../../../android/gradle-project-model.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildService } from '../services/build-service.js';
import { requireModule } from '../services/task-resolution.js';

export function createGetBuildConfigTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'get_build_config',
    toolset: 'build',
    kind: 'R',
    title: 'Get build config',
    description:
      'Android configuration of each module as its build file states it (read without running Gradle): plugin type, namespace, application id, SDK levels, version, build types, flavor dimensions and flavors. Values the script computes read as null.',
    input: z.object({ module: z.string().max(200).optional().describe('Only this module, e.g. ":app".') }),
    output: z.object({
      root: z.string().describe('Project root.'),
      warnings: z.array(z.string()).describe('Files that could not be read.'),
      modules: z
        .array(
          z.object({
            module: z.string().describe('Module path.'),
            type: z.enum(['application', 'library', 'other']).describe('Android plugin applied.'),
            build_file: z.string().nullable().describe('Build script path.'),
            dsl: z.enum(['kotlin', 'groovy']).nullable().describe('Build script language.'),
            namespace: z.string().nullable().describe('android.namespace.'),
            application_id: z.string().nullable().describe('defaultConfig.applicationId.'),
            compile_sdk: z.number().int().nullable().describe('compileSdk.'),
            min_sdk: z.number().int().nullable().describe('minSdk.'),
            target_sdk: z.number().int().nullable().describe('targetSdk.'),
            version_code: z.number().int().nullable().describe('versionCode.'),
            version_name: z.string().nullable().describe('versionName.'),
            build_types: z
              .array(
                z.object({
                  name: z.string().describe('Build type.'),
                  application_id_suffix: z.string().nullable().describe('applicationIdSuffix.'),
                  minify_enabled: z.boolean().describe('R8 shrinking.'),
                  debuggable: z.boolean().describe('Debuggable.'),
                }),
              )
              .describe('Build types (debug and release always exist).'),
            flavor_dimensions: z.array(z.string()).describe('Flavor dimensions in priority order.'),
            product_flavors: z
              .array(
                z.object({
                  name: z.string().describe('Flavor.'),
                  dimension: z.string().nullable().describe('Its dimension.'),
                  application_id: z.string().nullable().describe('applicationId override.'),
                  application_id_suffix: z.string().nullable().describe('applicationIdSuffix.'),
                }),
              )
              .describe('Product flavors.'),
          }),
        )
        .describe('Android modules (or the one asked for).'),
    }),
    async handler(args) {
      const project = deps.service.loadProject();
      const modules = args.module !== undefined ? [requireModule(project, args.module)] : androidModules(project);
      return {
        data: {
          root: project.root,
          warnings: [...project.warnings],
          modules: modules.map((m) => ({
            module: m.path,
            type: m.type,
            build_file: m.buildFile,
            dsl: m.dsl,
            namespace: m.namespace,
            application_id: m.applicationId,
            compile_sdk: m.compileSdk,
            min_sdk: m.minSdk,
            target_sdk: m.targetSdk,
            version_code: m.versionCode,
            version_name: m.versionName,
            build_types: m.buildTypes.map((b) => ({
              name: b.name,
              application_id_suffix: b.applicationIdSuffix,
              minify_enabled: b.minifyEnabled,
              debuggable: b.debuggable,
            })),
            flavor_dimensions: [...m.flavorDimensions],
            product_flavors: m.productFlavors.map((f) => ({
              name: f.name,
              dimension: f.dimension,
              application_id: f.applicationId,
              application_id_suffix: f.applicationIdSuffix,
            })),
          })),
        },
        summary:
          modules
            .map(
              (m) =>
                `${m.path} (${m.type}${m.applicationId ? `, ${m.applicationId}` : ''}, sdk ${m.minSdk ?? '?'}-${m.targetSdk ?? '?'})`,
            )
            .join('; ') || 'No Android modules found.',
      };
    },
  });
}
