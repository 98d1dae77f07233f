import { z } from 'zod';
import { describeActor } from '../../../shared/actor.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';
import { defaultApplicationModule, requireModule, requireVariant } from '../services/task-resolution.js';
import { VariantSelected } from '../build.events.js';

export function createSetActiveVariantTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'set_active_variant',
    toolset: 'build',
    kind: 'W',
    title: 'Set active variant',
    description:
      'Set the variant find_apk_path and run_tests default to for a module, for every agent on this project.',
    input: z.object({
      variant: z.string().max(128).describe('Variant name (list_build_variants).'),
      module: z.string().max(200).optional().describe('Module; default: the only application module.'),
    }),
    output: z.object({
      module: z.string().describe('Module the variant applies to.'),
      variant: z.string().describe('The active variant now.'),
      previous: z.string().optional().describe('The variant that was active before, if any.'),
    }),
    async handler(args, ctx) {
      const project = deps.service.loadProject();
      const module =
        args.module !== undefined ? requireModule(project, args.module) : defaultApplicationModule(project);
      if (!module)
        throw new InvalidArgumentsError(
          'Pass module: the project does not have exactly one application module.',
          'INVALID_ARGUMENT',
          'module',
        );
      const variant = requireVariant(module, args.variant);
      const previous = deps.history.activeVariant(project.root, module.path);
      if (previous !== variant) {
        ctx.append(
          VariantSelected,
          { project_root: project.root, module: module.path, variant, selected_by: describeActor(ctx.actor) },
          { stream: `project:${project.root}` },
        );
      }
      return {
        data: { module: module.path, variant, ...(previous !== null ? { previous } : {}) },
        summary: `Active variant of ${module.path}: ${variant}${previous && previous !== variant ? ` (was ${previous})` : ''}.`,
      };
    },
  });
}
