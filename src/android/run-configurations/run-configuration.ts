import { applicationModules, type GradleProject } from '../gradle-project-model.js';

/*
 * A run configuration is a named recipe for "from source to running app": which module and variant to
 * build, how to start the app once installed, which device to put it on, and which log lines matter.
 * The build, core and device-admin plugins all read it, so it lives here rather than in one of them.
 */

/** How the app is started after the install. */
export type RunLaunch =
  | { readonly kind: 'default' }
  | { readonly kind: 'activity'; readonly activity: string }
  | { readonly kind: 'deep_link'; readonly uri: string }
  | { readonly kind: 'none' };

/** Which device it runs on. */
export type RunTarget =
  | { readonly kind: 'ask' }
  | { readonly kind: 'last_used' }
  | { readonly kind: 'serial'; readonly serial: string }
  | { readonly kind: 'avd'; readonly avd: string };

export interface RunConfiguration {
  /** Unique in the project; `app-debug` for a derived one. */
  readonly name: string;
  /** Gradle module path, `:app`. */
  readonly module: string;
  readonly variant: string;
  readonly launch: RunLaunch;
  readonly target: RunTarget;
  /** Android Studio's logcat query syntax, e.g. `package:mine level:warn`; handed back to the agent. */
  readonly logcatFilter: string;
  /** Read from the project's shared file (and so needs the user's approval) rather than derived. */
  readonly shared: boolean;
}

export const DEFAULT_LOGCAT_FILTER = 'package:mine';
export const DEFAULT_LAUNCH: RunLaunch = { kind: 'default' };
/** A derived configuration goes back to the device it last ran on; the first run needs a single online device. */
export const DEFAULT_TARGET: RunTarget = { kind: 'last_used' };

/**
 * Derived configurations kept per project. Flavor dimensions multiply (the model keeps up to 10,000
 * variants per module); past this the list says it was cut and a shared file can name any variant.
 */
export const MAX_DERIVED_CONFIGURATIONS = 2000;

export const RUN_CONFIGURATION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** `:app` + `debug` → `app-debug`; `:feature:home` + `demoDebug` → `feature-home-demoDebug`; the root module → `debug`. */
export function derivedName(modulePath: string, variant: string): string {
  const module = modulePath.replace(/^:/, '').split(':').filter(Boolean).join('-');
  return module ? `${module}-${variant}` : variant;
}

/** The Gradle task a configuration builds: `:app:assembleDemoDebug` (`assembleDebug` for the root module). */
export function assembleTask(modulePath: string, variant: string): string {
  const task = `assemble${capitalize(variant)}`;
  return modulePath === ':' ? task : `${modulePath}:${task}`;
}

/** One configuration per application module × variant, in the model's order, default launch and target. */
export function deriveRunConfigurations(project: GradleProject): {
  configurations: RunConfiguration[];
  capped: boolean;
} {
  const configurations: RunConfiguration[] = [];
  let capped = false;
  for (const module of applicationModules(project)) {
    for (const variant of module.variants) {
      if (configurations.length >= MAX_DERIVED_CONFIGURATIONS) {
        capped = true;
        break;
      }
      configurations.push({
        name: derivedName(module.path, variant.name),
        module: module.path,
        variant: variant.name,
        launch: DEFAULT_LAUNCH,
        target: DEFAULT_TARGET,
        logcatFilter: DEFAULT_LOGCAT_FILTER,
        shared: false,
      });
    }
    if (module.variantsCapped) capped = true;
  }
  return { configurations, capped };
}

/** `default`, `activity .Main`, `deep link myapp://x`, `none`: one short phrase for lists and summaries. */
export function describeLaunch(launch: RunLaunch): string {
  switch (launch.kind) {
    case 'default':
      return 'default';
    case 'activity':
      return `activity ${launch.activity}`;
    case 'deep_link':
      return `deep link ${launch.uri}`;
    case 'none':
      return 'none';
  }
}

export function describeTarget(target: RunTarget): string {
  switch (target.kind) {
    case 'ask':
      return 'ask';
    case 'last_used':
      return 'last used';
    case 'serial':
      return `serial ${target.serial}`;
    case 'avd':
      return `avd ${target.avd}`;
  }
}
