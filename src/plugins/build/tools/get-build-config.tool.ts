import { z } from 'zod';
import { androidModules } from '../../../android/gradle-project-model.js';
import { clipStrings, omitNulls, pageInfo, pageInput, pageOf, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildService } from '../services/build-service.js';
import { requireModule } from '../services/task-resolution.js';

/** Build types and flavors listed per module (the totals say how many exist). */
const MAX_LISTED_PER_MODULE = 100;
/** Values read from build files are cut here: ids and names are short in any real project. */
const MAX_VALUE_CHARS = 300;

export function createGetBuildConfigTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'get_build_config',
    toolset: 'build',
    kind: 'R',
    title: 'Get build config',
    description:
      "Each module's Android configuration as its build file states it (Gradle not run, computed values absent): plugin, namespace, application id, SDK levels, version, build types, flavors.",
    input: z.object({
      module: z.string().max(200).optional().describe('Only this module (:app).'),
      ...pageInput(20, 100, 'modules'),
    }),
    output: z.object({
      root: z.string().describe('Project root.'),
      warnings: z.array(z.string()).describe('Files that could not be read (the first 20).'),
      modules: z
        .array(
          z.object({
            module: z.string().describe('Module path.'),
            type: z.enum(['application', 'library', 'other']).describe('Android plugin applied.'),
            build_file: z.string().optional().describe('Build script path.'),
            dsl: z.enum(['kotlin', 'groovy']).optional().describe('Build script language.'),
            namespace: z.string().optional().describe('android.namespace.'),
            application_id: z.string().optional().describe('defaultConfig.applicationId.'),
            compile_sdk: z.number().int().optional().describe('compileSdk.'),
            min_sdk: z.number().int().optional().describe('minSdk.'),
            target_sdk: z.number().int().optional().describe('targetSdk.'),
            version_code: z.number().int().optional().describe('versionCode.'),
            version_name: z.string().optional().describe('versionName.'),
            build_types: z
              .array(
                z.object({
                  name: z.string().describe('Build type.'),
                  application_id_suffix: z.string().optional().describe('applicationIdSuffix.'),
                  minify_enabled: z.boolean().describe('R8 shrinking.'),
                  debuggable: z.boolean().describe('Debuggable.'),
                }),
              )
              .describe(`Build types (debug and release always exist; the first ${MAX_LISTED_PER_MODULE}).`),
            build_type_total: z.number().int().describe('Build types defined.'),
            flavor_dimensions: z.array(z.string()).describe('Flavor dimensions in priority order.'),
            product_flavors: z
              .array(
                z.object({
                  name: z.string().describe('Flavor.'),
                  dimension: z.string().optional().describe('Its dimension.'),
                  application_id: z.string().optional().describe('applicationId override.'),
                  application_id_suffix: z.string().optional().describe('applicationIdSuffix.'),
                }),
              )
              .describe(`Product flavors (the first ${MAX_LISTED_PER_MODULE}).`),
            product_flavor_total: z.number().int().describe('Product flavors defined.'),
          }),
        )
        .describe('This page of Android modules (or the one asked for).'),
      ...pageOutput,
    }),
    async handler(args) {
      const project = deps.service.loadProject();
      const modules = args.module !== undefined ? [requireModule(project, args.module)] : androidModules(project);
      const views = modules.map((m) =>
        omitNulls(
          clipStrings(
            {
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
              build_types: m.buildTypes.slice(0, MAX_LISTED_PER_MODULE).map((b) => ({
                name: b.name,
                application_id_suffix: b.applicationIdSuffix,
                minify_enabled: b.minifyEnabled,
                debuggable: b.debuggable,
              })),
              build_type_total: m.buildTypes.length,
              flavor_dimensions: m.flavorDimensions.slice(0, MAX_LISTED_PER_MODULE),
              product_flavors: m.productFlavors.slice(0, MAX_LISTED_PER_MODULE).map((f) => ({
                name: f.name,
                dimension: f.dimension,
                application_id: f.applicationId,
                application_id_suffix: f.applicationIdSuffix,
              })),
              product_flavor_total: m.productFlavors.length,
            },
            MAX_VALUE_CHARS,
          ),
        ),
      );
      const page = pageOf(views, args);
      return {
        data: {
          root: project.root,
          warnings: project.warnings.slice(0, 20).map((w) => w.slice(0, 500)),
          modules: page.items,
          ...pageInfo(page),
        },
        summary:
          `${modules.length === 0 ? 'No Android modules found.' : `${modules.length} Android module(s): `}${modules
            .slice(0, 5)
            .map(
              (m) =>
                `${m.path} (${m.type}${m.applicationId ? `, ${m.applicationId}` : ''}, sdk ${m.minSdk ?? '?'}-${m.targetSdk ?? '?'})`,
            )
            .join('; ')}${modules.length > 5 ? '; …' : ''}`.slice(0, 1000),
      };
    },
  });
}
