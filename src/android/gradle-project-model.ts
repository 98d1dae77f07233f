import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { walkFiles } from '../kernel/walk-files.js';
import {
  blocksNamed,
  containerElementName,
  normalizeCatalogKey,
  parseVersionCatalog,
  readBool,
  readInt,
  readString,
  readStringList,
  scanLevel,
  stripComments,
  type ScriptLevel,
  type VersionCatalog,
} from './gradle/gradle-script-scanner.js';

/*
 * What droidwright knows about a Gradle Android project without running Gradle: modules, their
 * Android plugin, SDK levels, build types, flavors, variants and application ids, plus the ids the
 * last build actually produced (output-metadata.json). Everything is read statically and bounded;
 * a value the scripts compute at configuration time reads as null, never as a guess.
 */

export type ModuleType = 'application' | 'library' | 'other';

export interface BuildTypeInfo {
  readonly name: string;
  readonly applicationIdSuffix: string | null;
  readonly minifyEnabled: boolean;
  readonly debuggable: boolean;
}

export interface ProductFlavorInfo {
  readonly name: string;
  readonly dimension: string | null;
  readonly applicationId: string | null;
  readonly applicationIdSuffix: string | null;
}

export interface VariantInfo {
  /** `demoDebug`, or `debug` without flavors. */
  readonly name: string;
  readonly buildType: string;
  /** Flavor names in dimension order. */
  readonly flavors: readonly string[];
  /** Computed from the build scripts; null when neither applicationId nor namespace is a literal. */
  readonly applicationId: string | null;
  readonly minifyEnabled: boolean;
  readonly debuggable: boolean;
}

export interface ApkOutput {
  /** Absolute path of the APK. */
  readonly path: string;
  readonly versionCode: number | null;
  readonly versionName: string | null;
  /** ABI / density filters when the output is a split. */
  readonly filters: readonly string[];
}

/** One `build/outputs/apk/**\/output-metadata.json`: what the last build of a variant wrote. */
export interface BuildOutputInfo {
  readonly metadataPath: string;
  readonly variantName: string;
  readonly applicationId: string;
  readonly apks: readonly ApkOutput[];
}

export interface GradleModule {
  /** Gradle path: `:app`, `:feature:home`, `:` for the root project. */
  readonly path: string;
  readonly dir: string;
  readonly buildFile: string | null;
  readonly dsl: 'kotlin' | 'groovy' | null;
  readonly type: ModuleType;
  readonly plugins: readonly string[];
  readonly namespace: string | null;
  /** defaultConfig.applicationId. */
  readonly applicationId: string | null;
  readonly applicationIdSuffix: string | null;
  readonly compileSdk: number | null;
  readonly minSdk: number | null;
  readonly targetSdk: number | null;
  readonly versionCode: number | null;
  readonly versionName: string | null;
  readonly buildTypes: readonly BuildTypeInfo[];
  readonly flavorDimensions: readonly string[];
  readonly productFlavors: readonly ProductFlavorInfo[];
  /** The first MAX_VARIANTS variants in Gradle's order. */
  readonly variants: readonly VariantInfo[];
  /** How many variants the build file defines (capped at Number.MAX_SAFE_INTEGER). */
  readonly variantTotal: number;
  /** True when `variants` holds fewer than `variantTotal`. */
  readonly variantsCapped: boolean;
  readonly outputs: readonly BuildOutputInfo[];
}

export interface GradleProject {
  readonly root: string;
  readonly settingsFile: string | null;
  readonly rootBuildFile: string | null;
  readonly modules: readonly GradleModule[];
  /** Problems met while reading (unreadable files, includes outside the root); never fatal. */
  readonly warnings: readonly string[];
}

export interface PackageScope {
  /** Every id the scope knows explicitly: base ids, computed variant ids, ids from build outputs. */
  readonly packages: readonly string[];
  isInScope(pkg: string): boolean;
}

const ANDROID_APP = 'com.android.application';
const ANDROID_LIB = 'com.android.library';
const ANDROID_LIKE_LIB = new Set([
  ANDROID_LIB,
  'com.android.dynamic-feature',
  'com.android.test',
  'com.android.kotlin.multiplatform.library',
]);
/** Build scripts above this size are not Android build files we can sensibly read. */
const MAX_SCRIPT_BYTES = 1024 * 1024;
const MAX_MODULES = 500;
const MAX_OUTPUT_METADATA = 200;
/**
 * Variants kept per module. Flavor dimensions multiply (a hostile build file reaches millions), so
 * the model keeps the first ones in Gradle's order and the total; findVariant still resolves the rest.
 */
export const MAX_VARIANTS = 10_000;

export const SETTINGS_FILE_NAMES = ['settings.gradle.kts', 'settings.gradle'] as const;
export const BUILD_FILE_NAMES = ['build.gradle.kts', 'build.gradle'] as const;

function readSmallFile(path: string, warnings: string[]): string | null {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return null;
    if (stat.size > MAX_SCRIPT_BYTES) {
      warnings.push(`${path} is larger than ${MAX_SCRIPT_BYTES} bytes; not read.`);
      return null;
    }
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(`${path}: ${(error as Error).message}`);
    return null;
  }
}

/** The first of `names` (in order of preference, e.g. the Kotlin DSL before Groovy) that exists in `dir`. */
export function firstExisting(dir: string, names: readonly string[]): string | null {
  for (const name of names) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return null;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

/** `include(":app", ":lib")`, `include ':app', ':lib'`, `include(":a")` over several lines; `project(":x").projectDir = file("y")`. */
export function parseSettingsIncludes(settingsSource: string): { paths: string[]; projectDirs: Map<string, string> } {
  const text = stripComments(settingsSource);
  const level = scanLevel(text);
  const paths: string[] = [];
  for (const value of readStringList(level.statements, 'include')) {
    const trimmed = value.trim();
    if (trimmed === '') continue;
    const path = trimmed.startsWith(':') ? trimmed : `:${trimmed}`;
    if (!paths.includes(path)) paths.push(path);
  }
  const projectDirs = new Map<string, string>();
  const re =
    /project\(\s*["'](:?[A-Za-z0-9_.:-]+)["']\s*\)\s*\.\s*projectDir\s*=\s*(?:new\s+File\s*\(\s*(?:rootDir|settingsDir)\s*,\s*|file\s*\(\s*)["']([^"']+)["']/g;
  for (const m of level.statements.matchAll(re)) {
    const path = m[1]!.startsWith(':') ? m[1]! : `:${m[1]!}`;
    projectDirs.set(path, m[2]!);
  }
  return { paths, projectDirs };
}

/**
 * The alias names Android Studio's templates give the AGP plugins, for a catalog we cannot read
 * (missing, or in a location other than gradle/libs.versions.toml).
 */
const CONVENTIONAL_PLUGIN_ALIASES: ReadonlyMap<string, string> = new Map([
  [normalizeCatalogKey('android.application'), 'com.android.application'],
  [normalizeCatalogKey('android.library'), 'com.android.library'],
]);

/** Plugin ids a build script applies (not those declared `apply false`). */
export function parseAppliedPlugins(level: ScriptLevel, catalog: VersionCatalog): string[] {
  const plugins: string[] = [];
  const add = (id: string | undefined): void => {
    if (id && !plugins.includes(id)) plugins.push(id);
  };
  const scan = (statements: string): void => {
    for (const line of statements.split(/[\n;]/)) {
      if (/\bapply\s*\(?\s*false\b/.test(line)) continue;
      for (const m of line.matchAll(/\bid\s*\(?\s*["']([A-Za-z0-9_.-]+)["']/g)) add(m[1]);
      for (const m of line.matchAll(/\balias\s*\(\s*libs\.plugins\.([A-Za-z0-9_.]+?)\s*\)/g)) {
        const key = normalizeCatalogKey(m[1]!);
        add(catalog.plugins.get(key) ?? CONVENTIONAL_PLUGIN_ALIASES.get(key));
      }
      for (const m of line.matchAll(/\bapply\s*\(?\s*plugin\s*(?::|=)\s*["']([A-Za-z0-9_.-]+)["']/g)) add(m[1]);
    }
  };
  for (const body of blocksNamed(level, 'plugins')) scan(scanLevel(body).statements);
  scan(level.statements);
  return plugins;
}

function moduleType(plugins: readonly string[]): ModuleType {
  if (plugins.includes(ANDROID_APP)) return 'application';
  if (plugins.some((p) => ANDROID_LIKE_LIB.has(p))) return 'library';
  return 'other';
}

/** `compileSdk = 34`, `compileSdkVersion 34`, `compileSdk { version = release(36) }`. */
function readSdk(
  level: ScriptLevel,
  keys: readonly string[],
  blockKey: string,
  catalog: VersionCatalog,
): number | null {
  const direct = readInt(level.statements, keys, catalog.versions);
  if (direct !== null) return direct;
  for (const body of blocksNamed(level, blockKey)) {
    const m = /\bversion\s*=\s*(?:release|preview)?\s*\(\s*(\d+)/.exec(body) ?? /\brelease\s*\(\s*(\d+)/.exec(body);
    if (m) return Number(m[1]);
  }
  // Groovy `compileSdkVersion 'android-34'`.
  const named = readString(level.statements, keys);
  const api = named ? /^(?:android-)?(\d+)$/.exec(named) : null;
  return api ? Number(api[1]) : null;
}

function containerElements(level: ScriptLevel, container: string): Map<string, ScriptLevel> {
  const elements = new Map<string, ScriptLevel>();
  for (const body of blocksNamed(level, container)) {
    const inner = scanLevel(body);
    for (const block of inner.blocks) {
      const name = containerElementName(block.header);
      if (!name) continue;
      const parsed = scanLevel(block.body);
      const existing = elements.get(name);
      // A second block for the same element adds to it, as in Gradle.
      elements.set(
        name,
        existing
          ? {
              statements: `${existing.statements}\n${parsed.statements}`,
              blocks: [...existing.blocks, ...parsed.blocks],
            }
          : parsed,
      );
    }
    // Elements created without a block: `create("staging")`, `register("x")`.
    for (const m of inner.statements.matchAll(
      /\b(?:create|register|maybeCreate)\s*\(\s*["']([A-Za-z0-9_]+)["']\s*\)/g,
    )) {
      if (!elements.has(m[1]!)) elements.set(m[1]!, { statements: '', blocks: [] });
    }
  }
  return elements;
}

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** AGP adds the dot a suffix lacks (`"debug"` and `".debug"` both give `…app.debug`). */
export function joinSuffix(id: string, suffix: string | null): string {
  if (!suffix) return id;
  return suffix.startsWith('.') ? id + suffix : `${id}.${suffix}`;
}

function variantName(flavors: readonly string[], buildType: string): string {
  if (flavors.length === 0) return buildType;
  return flavors[0]! + flavors.slice(1).map(capitalize).join('') + capitalize(buildType);
}

/** Flavors grouped by dimension in the declared order; an undeclared dimension goes last. */
function flavorGroups(dimensions: readonly string[], flavors: readonly ProductFlavorInfo[]): ProductFlavorInfo[][] {
  const dimensionOf = (f: ProductFlavorInfo): string => f.dimension ?? (dimensions.length === 1 ? dimensions[0]! : '');
  const order = [...dimensions];
  for (const f of flavors) {
    const dim = dimensionOf(f);
    if (!order.includes(dim)) order.push(dim);
  }
  return order.map((dim) => flavors.filter((f) => dimensionOf(f) === dim)).filter((g) => g.length > 0);
}

function makeVariant(
  combo: readonly ProductFlavorInfo[],
  bt: BuildTypeInfo,
  defaultId: string | null,
  defaultSuffix: string | null,
): VariantInfo {
  // The first flavor (highest-priority dimension) that sets an id wins over defaultConfig.
  let id = combo.find((f) => f.applicationId)?.applicationId ?? defaultId;
  if (id !== null) {
    id = joinSuffix(id, defaultSuffix);
    for (const f of combo) id = joinSuffix(id, f.applicationIdSuffix);
    id = joinSuffix(id, bt.applicationIdSuffix);
  }
  const names = combo.map((f) => f.name);
  return {
    name: variantName(names, bt.name),
    buildType: bt.name,
    flavors: names,
    applicationId: id,
    minifyEnabled: bt.minifyEnabled,
    debuggable: bt.debuggable,
  };
}

/**
 * The variants of a module in Gradle's order, at most MAX_VARIANTS of them, and how many exist in all.
 * Flavor combinations are enumerated one at a time, so a build file whose dimensions multiply to
 * millions of variants costs only the ones kept.
 */
function computeVariants(
  buildTypes: readonly BuildTypeInfo[],
  dimensions: readonly string[],
  flavors: readonly ProductFlavorInfo[],
  defaultId: string | null,
  defaultSuffix: string | null,
): { variants: VariantInfo[]; total: number } {
  const groups = flavorGroups(dimensions, flavors);
  const total = Math.min(Number.MAX_SAFE_INTEGER, groups.reduce((n, g) => n * g.length, 1) * buildTypes.length);
  const variants: VariantInfo[] = [];
  if (buildTypes.length === 0) return { variants, total: 0 };
  const index = groups.map(() => 0);
  for (;;) {
    const combo = groups.map((g, i) => g[index[i]!]!);
    for (const bt of buildTypes) {
      if (variants.length >= MAX_VARIANTS) return { variants, total };
      variants.push(makeVariant(combo, bt, defaultId, defaultSuffix));
    }
    // Odometer: the last dimension turns fastest, as in Gradle's variant order.
    let d = groups.length - 1;
    while (d >= 0 && ++index[d]! === groups[d]!.length) index[d--] = 0;
    if (d < 0) return { variants, total };
  }
}

/**
 * The variant of `module` named `name`, also when it lies beyond the MAX_VARIANTS kept in the model:
 * the name is matched flavor by flavor, so no combination list is built.
 */
export function findVariant(module: GradleModule, name: string): VariantInfo | null {
  const listed = module.variants.find((v) => v.name === name);
  if (listed || !module.variantsCapped) return listed ?? null;
  const groups = flavorGroups(module.flavorDimensions, module.productFlavors);
  const defaultId = module.type === 'application' ? (module.applicationId ?? module.namespace) : module.namespace;
  const search = (depth: number, rest: string, combo: ProductFlavorInfo[]): VariantInfo | null => {
    if (depth === groups.length) {
      const bt = module.buildTypes.find((b) => (combo.length === 0 ? b.name : capitalize(b.name)) === rest);
      return bt ? makeVariant(combo, bt, defaultId, module.applicationIdSuffix) : null;
    }
    for (const f of groups[depth]!) {
      const part = depth === 0 ? f.name : capitalize(f.name);
      if (!rest.startsWith(part)) continue;
      const found = search(depth + 1, rest.slice(part.length), [...combo, f]);
      if (found) return found;
    }
    return null;
  };
  return search(0, name, []);
}

/** Reads every `output-metadata.json` under `<moduleDir>/build/outputs/apk` (bounded depth and count). */
export function readBuildOutputs(moduleDir: string): BuildOutputInfo[] {
  const base = join(moduleDir, 'build', 'outputs', 'apk');
  const found: string[] = [];
  walkFiles(base, 4, (path, name) => {
    if (name === 'output-metadata.json') found.push(path);
    return found.length < MAX_OUTPUT_METADATA;
  });
  const outputs: BuildOutputInfo[] = [];
  for (const metadataPath of found.sort()) {
    const parsed = parseOutputMetadata(metadataPath);
    if (parsed) outputs.push(parsed);
  }
  return outputs;
}

/** One output-metadata.json; null when it is missing, too large or not the APK format AGP writes. */
export function parseOutputMetadata(metadataPath: string): BuildOutputInfo | null {
  let json: unknown;
  try {
    if (statSync(metadataPath).size > MAX_SCRIPT_BYTES) return null;
    json = JSON.parse(readFileSync(metadataPath, 'utf8'));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const m = json as Record<string, unknown>;
  if (typeof m.applicationId !== 'string' || typeof m.variantName !== 'string' || !Array.isArray(m.elements))
    return null;
  const dir = resolve(metadataPath, '..');
  const apks: ApkOutput[] = [];
  for (const element of m.elements as unknown[]) {
    if (typeof element !== 'object' || element === null) continue;
    const e = element as Record<string, unknown>;
    if (
      typeof e.outputFile !== 'string' ||
      e.outputFile.includes('/') ||
      e.outputFile.includes('\\') ||
      e.outputFile.startsWith('.')
    )
      continue;
    apks.push({
      path: join(dir, e.outputFile),
      versionCode: typeof e.versionCode === 'number' ? e.versionCode : null,
      versionName: typeof e.versionName === 'string' ? e.versionName : null,
      filters: Array.isArray(e.filters)
        ? (e.filters as unknown[]).map((f) => {
            const filter = f as Record<string, unknown>;
            return `${String(filter.filterType ?? '')}=${String(filter.value ?? '')}`;
          })
        : [],
    });
  }
  return { metadataPath, variantName: m.variantName, applicationId: m.applicationId, apks };
}

function parseModule(path: string, dir: string, catalog: VersionCatalog, warnings: string[]): GradleModule {
  const buildFile = firstExisting(dir, BUILD_FILE_NAMES);
  const source = buildFile ? readSmallFile(buildFile, warnings) : null;
  const level = scanLevel(stripComments(source ?? ''));
  const plugins = parseAppliedPlugins(level, catalog);
  const type = moduleType(plugins);
  const android = blocksNamed(level, 'android').map(scanLevel);
  const merged: ScriptLevel = {
    statements: android.map((a) => a.statements).join('\n'),
    blocks: android.flatMap((a) => a.blocks),
  };
  const defaults = blocksNamed(merged, 'defaultConfig').map(scanLevel);
  const defaultLevel: ScriptLevel = {
    statements: defaults.map((d) => d.statements).join('\n'),
    blocks: defaults.flatMap((d) => d.blocks),
  };

  const namespace = readString(merged.statements, ['namespace']);
  const applicationId = readString(defaultLevel.statements, ['applicationId']);
  const applicationIdSuffix = readString(defaultLevel.statements, ['applicationIdSuffix']);

  const buildTypeLevels = containerElements(merged, 'buildTypes');
  // AGP always creates debug and release; scripts only configure them.
  for (const name of ['debug', 'release'])
    if (!buildTypeLevels.has(name)) buildTypeLevels.set(name, { statements: '', blocks: [] });
  const ordered = ['debug', 'release', ...[...buildTypeLevels.keys()].filter((n) => n !== 'debug' && n !== 'release')];
  const buildTypes: BuildTypeInfo[] =
    type === 'other'
      ? []
      : ordered.map((name) => {
          const bt = buildTypeLevels.get(name)!;
          return {
            name,
            applicationIdSuffix: readString(bt.statements, ['applicationIdSuffix']),
            minifyEnabled: readBool(bt.statements, ['isMinifyEnabled', 'minifyEnabled']) ?? false,
            debuggable: readBool(bt.statements, ['isDebuggable', 'debuggable']) ?? name === 'debug',
          };
        });

  const flavorDimensions = readStringList(merged.statements, 'flavorDimensions');
  const productFlavors: ProductFlavorInfo[] = [...containerElements(merged, 'productFlavors')].map(([name, f]) => ({
    name,
    dimension: readString(f.statements, ['dimension']),
    applicationId: readString(f.statements, ['applicationId']),
    applicationIdSuffix: readString(f.statements, ['applicationIdSuffix']),
  }));

  const outputs = type === 'other' ? [] : readBuildOutputs(dir);
  const computed =
    type === 'other'
      ? { variants: [], total: 0 }
      : computeVariants(
          buildTypes,
          flavorDimensions,
          productFlavors,
          type === 'application' ? (applicationId ?? namespace) : namespace,
          applicationIdSuffix,
        );
  return {
    path,
    dir,
    buildFile,
    dsl: buildFile ? (buildFile.endsWith('.kts') ? 'kotlin' : 'groovy') : null,
    type,
    plugins,
    namespace,
    applicationId,
    applicationIdSuffix,
    compileSdk: readSdk(merged, ['compileSdk', 'compileSdkVersion'], 'compileSdk', catalog),
    minSdk: readSdk(defaultLevel, ['minSdk', 'minSdkVersion'], 'minSdk', catalog),
    targetSdk: readSdk(defaultLevel, ['targetSdk', 'targetSdkVersion'], 'targetSdk', catalog),
    versionCode: readInt(defaultLevel.statements, ['versionCode'], catalog.versions),
    versionName: readString(defaultLevel.statements, ['versionName']),
    buildTypes,
    flavorDimensions,
    productFlavors,
    variants: computed.variants,
    variantTotal: computed.total,
    variantsCapped: computed.variants.length < computed.total,
    outputs,
  };
}

/** Loads the project at `root` (a directory with a settings or build script). Never runs Gradle. */
export function loadGradleProject(root: string): GradleProject {
  const canonicalRoot = realpathSync(root);
  const warnings: string[] = [];
  const catalogSource = readSmallFile(join(canonicalRoot, 'gradle', 'libs.versions.toml'), warnings);
  const catalog = catalogSource ? parseVersionCatalog(catalogSource) : { plugins: new Map(), versions: new Map() };
  const settingsFile = firstExisting(canonicalRoot, SETTINGS_FILE_NAMES);
  const settingsSource = settingsFile ? readSmallFile(settingsFile, warnings) : null;
  const { paths, projectDirs } = settingsSource
    ? parseSettingsIncludes(settingsSource)
    : { paths: [], projectDirs: new Map<string, string>() };

  const modules: GradleModule[] = [parseModule(':', canonicalRoot, catalog, warnings)];
  for (const path of paths.slice(0, MAX_MODULES)) {
    const custom = projectDirs.get(path);
    const dir = resolve(canonicalRoot, custom ?? path.slice(1).split(':').join(sep));
    let canonicalDir: string;
    try {
      canonicalDir = realpathSync(dir);
    } catch {
      warnings.push(`Module ${path}: directory ${dir} does not exist.`);
      continue;
    }
    // A settings file may point a module anywhere; we only read inside the project.
    if (!isInside(canonicalRoot, canonicalDir)) {
      warnings.push(`Module ${path}: ${canonicalDir} is outside the project root; not read.`);
      continue;
    }
    modules.push(parseModule(path, canonicalDir, catalog, warnings));
  }
  return {
    root: canonicalRoot,
    settingsFile,
    rootBuildFile: firstExisting(canonicalRoot, BUILD_FILE_NAMES),
    modules,
    warnings,
  };
}

export function applicationModules(project: GradleProject): GradleModule[] {
  return project.modules.filter((m) => m.type === 'application');
}

export function androidModules(project: GradleProject): GradleModule[] {
  return project.modules.filter((m) => m.type !== 'other');
}

/** `:app`, `app`, `:app:assembleDebug` (the task that built it) → the module; null when unknown. */
export function findModule(project: GradleProject, name: string): GradleModule | null {
  const trimmed = name.trim();
  const withColon = trimmed.startsWith(':') ? trimmed : `:${trimmed}`;
  const exact = project.modules.find((m) => m.path === withColon);
  if (exact) return exact;
  // A task path: drop the last segment.
  const cut = withColon.lastIndexOf(':');
  if (cut > 0) return project.modules.find((m) => m.path === withColon.slice(0, cut)) ?? null;
  return null;
}

/**
 * The packages an agent may act on as "the project's app": each application module's id (namespace
 * when it has none) and every flavor id, each optionally followed by declared suffixes (each used at
 * most once, any order), and every id in the build outputs. Without an application module the root
 * build file's ids count.
 */
export function packageScope(project: GradleProject): PackageScope {
  let sources = applicationModules(project);
  if (sources.length === 0) sources = project.modules.filter((m) => m.path === ':');
  const bases = new Set<string>();
  const suffixes = new Set<string>();
  const exact = new Set<string>();
  for (const m of sources) {
    const base = m.applicationId ?? m.namespace;
    if (base) bases.add(base);
    for (const f of m.productFlavors) {
      if (f.applicationId) bases.add(f.applicationId);
      if (f.applicationIdSuffix) suffixes.add(f.applicationIdSuffix.replace(/^\./, ''));
    }
    for (const bt of m.buildTypes) if (bt.applicationIdSuffix) suffixes.add(bt.applicationIdSuffix.replace(/^\./, ''));
    if (m.applicationIdSuffix) suffixes.add(m.applicationIdSuffix.replace(/^\./, ''));
    for (const v of m.variants) if (v.applicationId) exact.add(v.applicationId);
    for (const o of m.outputs) exact.add(o.applicationId);
  }
  const suffixList = [...suffixes].filter((s) => s.length > 0);
  const matchesSuffixes = (rest: string, used: ReadonlySet<string>): boolean => {
    if (rest === '') return true;
    for (const s of suffixList) {
      if (used.has(s)) continue;
      const token = `.${s}`;
      if (rest === token || rest.startsWith(`${token}.`)) {
        if (matchesSuffixes(rest.slice(token.length), new Set([...used, s]))) return true;
      }
    }
    return false;
  };
  const packages = [...new Set([...bases, ...exact])];
  return {
    packages,
    isInScope(pkg: string): boolean {
      if (exact.has(pkg) || bases.has(pkg)) return true;
      for (const base of bases) {
        if (pkg.startsWith(`${base}.`) && matchesSuffixes(pkg.slice(base.length), new Set())) return true;
      }
      return false;
    },
  };
}
