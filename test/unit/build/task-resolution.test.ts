import { resolve } from 'node:path';
import { loadGradleProject } from '../../../src/android/gradle-project-model.js';
import { gradleVersionFromWrapper, readProperty } from '../../../src/plugins/build/services/build-provenance.js';
import { parseTestSummaryLine } from '../../../src/plugins/build/services/build-artifacts.js';
import { deriveModuleAndVariant, resolveTasks } from '../../../src/plugins/build/services/task-resolution.js';

const project = loadGradleProject(resolve('test/fixtures/projects/kts-flavors'));

describe('task resolution', () => {
  it('completes verbs with the variant and prefixes the module', () => {
    expect(resolveTasks(project, { tasks: ['assemble'], variant: 'demoPlayDebug' })).toEqual({
      tasks: ['assembleDemoPlayDebug'],
      module: ':app',
      variant: 'demoPlayDebug',
    });
    expect(
      resolveTasks(project, { tasks: ['test', 'lint'], module: 'app', variant: 'fullAmazonRelease' }).tasks,
    ).toEqual([':app:testFullAmazonReleaseUnitTest', ':app:lintFullAmazonRelease']);
    expect(resolveTasks(project, { tasks: [':app:assembleFullPlayStaging'] })).toEqual({
      tasks: [':app:assembleFullPlayStaging'],
      module: ':app',
      variant: 'fullPlayStaging',
    });
  });

  it('refuses unknown modules and variants, naming the known ones', () => {
    expect(() => resolveTasks(project, { tasks: ['assemble'], module: ':nope' })).toThrow(/Modules: :, :app, :core/);
    expect(() => resolveTasks(project, { tasks: ['assemble'], variant: 'paidDebug' })).toThrow(/demoPlayDebug/);
    expect(() => resolveTasks(project, { tasks: ['assemble'], module: '../etc' })).toThrow(
      /module must be a Gradle module path/,
    );
  });

  it('derives the variant from a task name, preferring the longest match', () => {
    expect(deriveModuleAndVariant(project, ':app:connectedDemoAmazonDebugAndroidTest')).toEqual({
      module: ':app',
      variant: 'demoAmazonDebug',
    });
    expect(deriveModuleAndVariant(project, 'clean')).toEqual({ module: null, variant: null });
  });
});

describe('provenance and console helpers', () => {
  it('reads the Gradle version from the wrapper URL and properties', () => {
    expect(
      gradleVersionFromWrapper('distributionUrl=https\\://services.gradle.org/distributions/gradle-8.11.1-bin.zip\n'),
    ).toBe('8.11.1');
    expect(gradleVersionFromWrapper('distributionUrl=https\\://x/gradle-9.0-rc-1-all.zip')).toBe('9.0-rc-1');
    expect(readProperty('# c\norg.gradle.java.home=/opt/jdk 17\nother=1', 'org.gradle.java.home')).toBe('/opt/jdk 17');
  });

  it("parses Gradle's test summary line", () => {
    expect(parseTestSummaryLine('12 tests completed, 2 failed, 1 skipped')).toEqual({
      total: 12,
      failed: 2,
      skipped: 1,
    });
    expect(parseTestSummaryLine('1 test completed, 1 failed')).toEqual({ total: 1, failed: 1, skipped: 0 });
    expect(parseTestSummaryLine('BUILD FAILED')).toBeNull();
  });
});
