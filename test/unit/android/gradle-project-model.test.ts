import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  findModule,
  findVariant,
  loadGradleProject,
  MAX_VARIANTS,
  packageScope,
  parseSettingsIncludes,
  type GradleModule,
} from '../../../src/android/gradle-project-model.js';

import { writeManyVariantsProject } from '../../support/large-project.js';

const FIXTURES = resolve('test/fixtures/projects');

function moduleOf(root: string, path: string): GradleModule {
  const m = loadGradleProject(root).modules.find((x) => x.path === path);
  if (!m) throw new Error(`no module ${path}`);
  return m;
}

describe('loadGradleProject — Kotlin DSL with flavors', () => {
  const root = join(FIXTURES, 'kts-flavors');

  it('finds the included modules and their plugins through the version catalog', () => {
    const project = loadGradleProject(root);
    expect(project.modules.map((m) => [m.path, m.type])).toEqual([
      [':', 'other'],
      [':app', 'application'],
      [':core', 'library'],
    ]);
    expect(moduleOf(root, ':app').plugins).toEqual(['com.android.application', 'org.jetbrains.kotlin.android']);
    expect(moduleOf(root, ':app').dsl).toBe('kotlin');
  });

  it('reads ids and SDK levels, including catalog and block forms', () => {
    const app = moduleOf(root, ':app');
    expect(app).toMatchObject({
      namespace: 'com.example.flavors',
      applicationId: 'com.example.flavors',
      compileSdk: 35,
      minSdk: 24,
      targetSdk: 35,
      versionCode: 7,
      versionName: '1.7',
    });
    expect(moduleOf(root, ':core')).toMatchObject({
      namespace: 'com.example.flavors.core',
      compileSdk: 35,
      minSdk: 24,
      targetSdk: null,
    });
  });

  it('reads build types, dimensions and flavors (ignoring commented-out code)', () => {
    const app = moduleOf(root, ':app');
    expect(app.buildTypes).toEqual([
      { name: 'debug', applicationIdSuffix: '.debug', minifyEnabled: false, debuggable: true },
      { name: 'release', applicationIdSuffix: null, minifyEnabled: true, debuggable: false },
      { name: 'staging', applicationIdSuffix: '.staging', minifyEnabled: false, debuggable: false },
    ]);
    expect(app.flavorDimensions).toEqual(['tier', 'store']);
    expect(app.productFlavors).toEqual([
      { name: 'demo', dimension: 'tier', applicationId: null, applicationIdSuffix: '.demo' },
      { name: 'full', dimension: 'tier', applicationId: null, applicationIdSuffix: null },
      { name: 'play', dimension: 'store', applicationId: null, applicationIdSuffix: null },
      { name: 'amazon', dimension: 'store', applicationId: 'com.example.flavors.amz', applicationIdSuffix: null },
    ]);
  });

  it('computes every variant with its application id', () => {
    const variants = moduleOf(root, ':app').variants.map((v) => [v.name, v.applicationId]);
    expect(variants).toEqual([
      ['demoPlayDebug', 'com.example.flavors.demo.debug'],
      ['demoPlayRelease', 'com.example.flavors.demo'],
      ['demoPlayStaging', 'com.example.flavors.demo.staging'],
      ['demoAmazonDebug', 'com.example.flavors.amz.demo.debug'],
      ['demoAmazonRelease', 'com.example.flavors.amz.demo'],
      ['demoAmazonStaging', 'com.example.flavors.amz.demo.staging'],
      ['fullPlayDebug', 'com.example.flavors.debug'],
      ['fullPlayRelease', 'com.example.flavors'],
      ['fullPlayStaging', 'com.example.flavors.staging'],
      ['fullAmazonDebug', 'com.example.flavors.amz.debug'],
      ['fullAmazonRelease', 'com.example.flavors.amz'],
      ['fullAmazonStaging', 'com.example.flavors.amz.staging'],
    ]);
    expect(moduleOf(root, ':core').variants.map((v) => v.name)).toEqual(['debug', 'release']);
  });

  it('finds modules by path, bare name or task path', () => {
    const project = loadGradleProject(root);
    expect(findModule(project, 'app')?.path).toBe(':app');
    expect(findModule(project, ':app:assembleDemoPlayDebug')?.path).toBe(':app');
    expect(findModule(project, ':nope')).toBeNull();
  });
});

describe('loadGradleProject — Groovy', () => {
  const root = join(FIXTURES, 'groovy-app');

  it('reads the Groovy forms (apply plugin, compileSdkVersion, bare flavor blocks)', () => {
    const project = loadGradleProject(root);
    expect(project.modules.map((m) => [m.path, m.type])).toEqual([
      [':', 'other'],
      [':app', 'application'],
    ]);
    const app = moduleOf(root, ':app');
    expect(app).toMatchObject({
      dsl: 'groovy',
      namespace: 'org.sample.groovy',
      applicationId: 'org.sample.groovy',
      compileSdk: 34,
      minSdk: 21,
      targetSdk: 34,
    });
    expect(app.buildTypes.map((b) => [b.name, b.applicationIdSuffix, b.minifyEnabled, b.debuggable])).toEqual([
      ['debug', '.dev', false, true],
      ['release', null, true, false],
    ]);
    expect(app.flavorDimensions).toEqual(['env']);
    expect(app.variants.map((v) => [v.name, v.applicationId])).toEqual([
      ['freeDebug', 'org.sample.groovy.free.dev'],
      ['freeRelease', 'org.sample.groovy.free'],
      ['paidDebug', 'org.sample.groovy.pro.dev'],
      ['paidRelease', 'org.sample.groovy.pro'],
    ]);
  });
});

describe('packageScope', () => {
  it('accepts ids plus declared suffixes and rejects look-alikes', () => {
    const scope = packageScope(loadGradleProject(join(FIXTURES, 'kts-flavors')));
    for (const pkg of [
      'com.example.flavors',
      'com.example.flavors.demo.debug',
      'com.example.flavors.debug.demo',
      'com.example.flavors.amz.staging',
      'com.example.flavors.amz',
    ]) {
      expect([pkg, scope.isInScope(pkg)]).toEqual([pkg, true]);
    }
    for (const pkg of [
      'com.example.flavorsx',
      'com.example.flavors.demo.demo',
      'com.example.flavors.evil',
      'com.example',
      'com.android.settings',
      'com.example.flavors.core',
    ]) {
      expect([pkg, scope.isInScope(pkg)]).toEqual([pkg, false]);
    }
    expect(scope.packages).toEqual(
      expect.arrayContaining(['com.example.flavors', 'com.example.flavors.amz', 'com.example.flavors.demo.debug']),
    );
  });

  it('follows the reference example: app.demo.debug is in scope, apple is not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-scope-'));
    try {
      writeFileSync(join(dir, 'settings.gradle.kts'), 'include(":app")\n');
      mkdirSync(join(dir, 'app'));
      writeFileSync(
        join(dir, 'app', 'build.gradle.kts'),
        'plugins { id("com.android.application") }\nandroid {\n namespace = "com.example.app"\n defaultConfig { applicationId = "com.example.app" }\n buildTypes { debug { applicationIdSuffix = ".debug" } }\n flavorDimensions += "v"\n productFlavors { create("demo") { dimension = "v"; applicationIdSuffix = ".demo" } }\n}\n',
      );
      const scope = packageScope(loadGradleProject(dir));
      expect(scope.isInScope('com.example.app.demo.debug')).toBe(true);
      expect(scope.isInScope('com.example.apple')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds ids from build outputs and falls back to namespace, then to the root build file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-scope-'));
    try {
      cpSync(join(FIXTURES, 'groovy-app'), dir, { recursive: true });
      const out = join(dir, 'app', 'build', 'outputs', 'apk', 'free', 'debug');
      mkdirSync(out, { recursive: true });
      writeFileSync(
        join(out, 'output-metadata.json'),
        JSON.stringify({
          version: 3,
          artifactType: { type: 'APK', kind: 'Directory' },
          applicationId: 'org.sample.custom.ci',
          variantName: 'freeDebug',
          elements: [
            {
              type: 'SINGLE',
              filters: [],
              attributes: [],
              versionCode: 3,
              versionName: '0.3',
              outputFile: 'app-free-debug.apk',
            },
          ],
          elementType: 'File',
        }),
      );
      const project = loadGradleProject(dir);
      const app = project.modules.find((m) => m.path === ':app')!;
      expect(app.outputs).toEqual([
        {
          metadataPath: join(out, 'output-metadata.json'),
          variantName: 'freeDebug',
          applicationId: 'org.sample.custom.ci',
          apks: [{ path: join(out, 'app-free-debug.apk'), versionCode: 3, versionName: '0.3', filters: [] }],
        },
      ]);
      const scope = packageScope(project);
      expect(scope.isInScope('org.sample.custom.ci')).toBe(true);
      expect(scope.isInScope('org.sample.custom')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses the root build file when there is no application module, and nothing when there are no ids', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-scope-'));
    try {
      writeFileSync(
        join(dir, 'build.gradle'),
        "apply plugin: 'com.android.library'\nandroid { namespace 'org.solo.lib' }\n",
      );
      expect(packageScope(loadGradleProject(dir)).isInScope('org.solo.lib.debug')).toBe(false);
      expect(packageScope(loadGradleProject(dir)).isInScope('org.solo.lib')).toBe(true);
      writeFileSync(join(dir, 'build.gradle'), '// nothing\n');
      const empty = packageScope(loadGradleProject(dir));
      expect(empty.packages).toEqual([]);
      expect(empty.isInScope('anything.at.all')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never reads modules outside the project root', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-scope-'));
    try {
      writeFileSync(join(dir, 'settings.gradle'), "include ':evil'\nproject(':evil').projectDir = file('/etc')\n");
      const project = loadGradleProject(dir);
      expect(project.modules.map((m) => m.path)).toEqual([':']);
      expect(project.warnings.join(' ')).toMatch(/outside the project root/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parseSettingsIncludes', () => {
  it('handles Groovy, Kotlin, multi-argument and multi-line includes', () => {
    expect(
      parseSettingsIncludes("include ':a', ':b:c'\ninclude(\n  \":d\",\n  \"e\"\n)\n// include ':x'\n").paths,
    ).toEqual([':a', ':b:c', ':d', ':e']);
  });
});

describe('loadGradleProject — flavor dimensions that multiply', () => {
  let parent: string;
  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'droidwright-variants-'));
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('keeps all 6,912 variants of a large but real project', () => {
    const root = writeManyVariantsProject(join(parent, 'large'), [12, 12, 24]);
    const app = moduleOf(root, ':app');
    expect(app.variantTotal).toBe(6912);
    expect(app.variants).toHaveLength(6912);
    expect(app.variantsCapped).toBe(false);
    expect(app.variants[0]).toMatchObject({
      name: 'd0f0D1f0D2f0Debug',
      applicationId: 'com.example.many.d0f0.d1f0.d2f0',
    });
  });

  it('caps a 20-million-variant build file without building the product, and still finds a variant past the cap', () => {
    const root = writeManyVariantsProject(join(parent, 'bomb'), [10, 10, 10, 10, 10, 10, 10]);
    const heapBefore = process.memoryUsage().heapUsed;
    const app = moduleOf(root, ':app');
    expect(app.variantTotal).toBe(20_000_000);
    expect(app.variants).toHaveLength(MAX_VARIANTS);
    expect(app.variantsCapped).toBe(true);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    const last = findVariant(app, 'd0f9D1f9D2f9D3f9D4f9D5f9D6f9Release');
    expect(last).toMatchObject({
      buildType: 'release',
      applicationId: 'com.example.many.d0f9.d1f9.d2f9.d3f9.d4f9.d5f9.d6f9',
    });
    expect(findVariant(app, 'd0f9D1f9D2f9D3f9D4f9D5f9Release')).toBeNull();
  });
});
