import { InvalidArgumentsError } from '../../../kernel/errors.js';
import {
  applicationModules,
  androidModules,
  findModule,
  findVariant,
  type GradleModule,
  type GradleProject,
} from '../../../android/gradle-project-model.js';

const MODULE = /^:?[A-Za-z0-9_.-]+(?::[A-Za-z0-9_.-]+)*$|^:$/;
const VARIANT = /^[A-Za-z][A-Za-z0-9]{0,127}$/;

/** Task verbs that take the variant as a suffix: `assemble` + `demoDebug` → `assembleDemoDebug`. */
const VARIANT_VERBS: Record<string, (v: string) => string> = {
  assemble: (v) => `assemble${v}`,
  bundle: (v) => `bundle${v}`,
  install: (v) => `install${v}`,
  lint: (v) => `lint${v}`,
  test: (v) => `test${v}UnitTest`,
  connected: (v) => `connected${v}AndroidTest`,
  connectedAndroidTest: (v) => `connected${v}AndroidTest`,
};

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** The module a `module` argument names; INVALID_ARGUMENT listing the known modules otherwise. */
export function requireModule(project: GradleProject, name: string, field = 'module'): GradleModule {
  if (!MODULE.test(name) || name.includes('..')) {
    throw new InvalidArgumentsError(
      `${field} must be a Gradle module path such as ":app" (got ${JSON.stringify(name.slice(0, 80))}).`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  const module = findModule(project, name);
  if (!module) {
    throw new InvalidArgumentsError(
      `No module ${name.slice(0, 200)} in ${project.root}. Modules: ${project.modules
        .slice(0, 30)
        .map((m) => m.path)
        .join(', ')}${project.modules.length > 30 ? `, … (${project.modules.length} in all)` : ''}.`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  return module;
}

/** The module to use when none was named: the only application module, else null. */
export function defaultApplicationModule(project: GradleProject): GradleModule | null {
  const apps = applicationModules(project);
  return apps.length === 1 ? apps[0]! : null;
}

export function requireVariant(module: GradleModule, variant: string, field = 'variant'): string {
  if (!VARIANT.test(variant))
    throw new InvalidArgumentsError(
      `${field} must be a variant name such as "debug" or "demoDebug".`,
      'INVALID_ARGUMENT',
      field,
    );
  if (!findVariant(module, variant)) {
    // A module may have thousands of variants: name a few and where to find the rest.
    const known = module.variants.slice(0, 20).map((v) => v.name);
    const more =
      module.variantTotal > known.length ? `, … (${module.variantTotal} in all; see list_build_variants)` : '';
    throw new InvalidArgumentsError(
      `Module ${module.path} has no variant "${variant}". Variants: ${known.join(', ') || '(none found in its build file)'}${more}.`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  return variant;
}

/** Which module and variant a task path builds, when the project model can tell. */
export function deriveModuleAndVariant(
  project: GradleProject,
  task: string,
): { module: string | null; variant: string | null } {
  const cut = task.lastIndexOf(':');
  const modulePath = cut > 0 ? task.slice(0, cut) : null;
  const name = task.slice(cut + 1);
  const candidates = modulePath ? project.modules.filter((m) => m.path === modulePath) : androidModules(project);
  for (const m of candidates) {
    // Longest variant name first, so `demoDebug` wins over `debug`.
    const variants = [...m.variants].sort((a, b) => b.name.length - a.name.length);
    for (const v of variants) {
      const cap = capitalize(v.name);
      if (name.endsWith(cap) || name.endsWith(`${cap}UnitTest`) || name.endsWith(`${cap}AndroidTest`)) {
        return { module: modulePath ?? (candidates.length === 1 ? m.path : null), variant: v.name };
      }
    }
  }
  return { module: modulePath, variant: null };
}

export interface ResolvedTasks {
  readonly tasks: string[];
  readonly module: string | null;
  readonly variant: string | null;
}

/**
 * Turns `task`/`tasks` + optional `module` and `variant` into task paths: `assemble` with variant
 * `demoDebug` becomes `assembleDemoDebug`; a bare task with a module becomes `:app:assembleDebug`.
 * The caller checks the result with the task policy.
 */
export function resolveTasks(
  project: GradleProject,
  input: { tasks: readonly string[]; module?: string; variant?: string },
): ResolvedTasks {
  const module = input.module !== undefined ? requireModule(project, input.module) : null;
  let variant: string | null = null;
  let variantModule: GradleModule | null = null;
  if (input.variant !== undefined) {
    const target = module ?? defaultApplicationModule(project);
    if (!target) {
      throw new InvalidArgumentsError(
        `variant needs a module: the project has ${applicationModules(project).length} application modules (${
          applicationModules(project)
            .map((m) => m.path)
            .join(', ') || 'none'
        }). Pass module too.`,
        'INVALID_ARGUMENT',
        'module',
      );
    }
    variant = requireVariant(target, input.variant);
    variantModule = target;
  }
  const tasks = input.tasks.map((task) => {
    let name = task;
    if (variant && VARIANT_VERBS[name]) name = VARIANT_VERBS[name]!(capitalize(variant));
    if (module && module.path !== ':' && !name.includes(':')) name = `${module.path}:${name}`;
    return name;
  });
  const derived = tasks.length > 0 ? deriveModuleAndVariant(project, tasks[0]!) : { module: null, variant: null };
  return { tasks, module: module?.path ?? variantModule?.path ?? derived.module, variant: variant ?? derived.variant };
}
