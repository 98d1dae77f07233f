import { InvalidArgumentsError } from '../../../src/kernel/errors.js';
import { blockedBy, checkArgs, checkTasks, taskWords } from '../../../src/plugins/build/services/gradle-task-policy.js';

function refusal(fn: () => unknown): InvalidArgumentsError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidArgumentsError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('task policy', () => {
  it('splits task names into camel-case words like Gradle', () => {
    expect(taskWords('publishReleaseBundle')).toEqual(['publish', 'Release', 'Bundle']);
    expect(taskWords('pRB')).toEqual(['p', 'R', 'B']);
    expect(taskWords('publish-release')).toEqual(['publish', 'release']);
  });

  it.each([
    ['publish', 'publish*'],
    ['publishReleaseBundle', 'publish*'],
    [':app:publishToMavenLocal', 'publish*'],
    ['pRB', 'publish*'],
    ['PUBLISH', 'publish*'],
    ['promoteArtifact', 'promote*'],
    ['uploadArchives', '*upload*'],
    ['appDistributionUploadRelease', '*upload*'],
    ['aDUR', 'appDistributionUpload*'],
    ['crashlyticsUploadDistributionRelease', '*upload*'],
    ['crashlyticsUploadMappingFileRelease', '*upload*'],
    ['deployRelease', '*deploy*'],
    ['artifactoryPublish', '*publish*'],
    ['artifactoryDeploy', '*deploy*'],
    ['buildScanPublishPrevious', '*publish*'],
    ['gitPublishPush', '*publish*'],
    ['dockerPushImage', '*push*'],
    ['githubRelease', 'githubRelease*'],
    ['jreleaserDeploy', '*deploy*'],
    ['jreleaserRelease', 'jreleaser*'],
    ['jib', 'jib*'],
    ['jibDockerBuild', 'jib*'],
    ['sonar', 'sonar*'],
    ['sonarqube', 'sonar*'],
    ['closeRepository', 'closeRepository'],
    ['releaseRepository', 'releaseRepository'],
    ['release', 'release'],
    ['uninstallAll', 'uninstall*'],
    ['uA', 'uninstall*'],
    [':app:uninstallDebug', 'uninstall*'],
    ['closeAndReleaseRepository', 'closeAndRelease*'],
    ['cAR', 'closeAndRelease*'],
    ['releaseToMavenCentral', '*ToMavenCentral'],
    ['releaseToMav', '*ToMavenCentral'],
    ['deployPlayStoreListing', '*PlayStore*'],
    ['bootstrapPlayStore', '*PlayStore*'],
    ['listingPS', '*PlayStore*'],
    ['playStoreUpload', '*PlayStore*'],
  ])('blocks %s (%s)', (task, rule) => {
    expect(blockedBy(task)).toBe(rule);
    const error = refusal(() => checkTasks([task], false));
    expect(error.code).toBe('TASK_BLOCKED');
    expect(error.message).toContain(rule);
  });

  it.each([
    'installDebug',
    'bundleRelease',
    'connectedAndroidTest',
    'cAT',
    'assembleDebug',
    ':app:assembleDemoPlayDebug',
    'testDebugUnitTest',
    'lint',
    'clean',
    'check',
    'properties',
    'packageDebug',
    'assembleP',
    'tasks',
    'dependencies',
    'signingReport',
    'aD',
    'aR',
    'tDUT',
    'assembleUat',
    'compileDebugUnitTestKotlin',
    'assembleUploaderDebug',
    'testPublisherUnitTest',
    'bundleRelease',
    'assembleRelease',
    'lintRelease',
    'kspDebugKotlin',
    'hiltJavaCompileDebug',
    'mergeReleaseResources',
    'minifyReleaseWithR8',
    'generateReleaseBaselineProfile',
    'compileReleaseKotlin',
    'connectedDebugAndroidTest',
    'pixel6api34DebugAndroidTest',
    'dependencyUpdates',
    'ktlintCheck',
    'detekt',
    'spotlessApply',
    'koverHtmlReport',
    'jacocoTestReport',
    'paparazziVerifyDebug',
    'recordRoborazziDebug',
    'updateDebugScreenshotTest',
  ])('allows %s', (task) => {
    expect(blockedBy(task)).toBeNull();
    expect(checkTasks([task], false)).toEqual([task]);
  });

  it('lets everything through when unrestricted, but never flags posing as tasks', () => {
    expect(checkTasks(['publishReleaseBundle'], true)).toEqual(['publishReleaseBundle']);
    expect(refusal(() => checkTasks(['--init-script'], true)).code).toBe('INVALID_ARGUMENT');
    expect(refusal(() => checkTasks(['assemble;rm'], true)).code).toBe('INVALID_ARGUMENT');
    expect(refusal(() => checkTasks([], false)).code).toBe('INVALID_ARGUMENT');
  });
});

describe('argument allow-list', () => {
  it('passes the project properties and runner arguments developers commonly pass', () => {
    const ok = [
      '-Pkapt.incremental.apt=true',
      '-Pversion=1.2..3',
      '-Pandroid.testInstrumentationRunnerArguments.additionalTestOutputDir=/sdcard/Download',
      '-Pandroid.testInstrumentationRunnerArguments.class=com.example.LoginTest',
      '-PversionCode=42',
      '-Pflavor=demo',
    ];
    expect(checkArgs(ok)).toEqual(ok);
  });

  it('passes allowed flags, excludes, test filters and safe properties', () => {
    expect(
      checkArgs([
        '--stacktrace',
        '--offline',
        '-x',
        'lint',
        '--exclude-task=test',
        '--tests',
        'com.example.*Test',
        '-Pflavor=demo',
        '-Pmsg=hello world',
      ]),
    ).toEqual([
      '--stacktrace',
      '--offline',
      '-x',
      'lint',
      '--exclude-task=test',
      '--tests',
      'com.example.*Test',
      '-Pflavor=demo',
      '-Pmsg=hello world',
    ]);
  });

  it.each([
    ['--init-script', 'evil.gradle'],
    ['-I', 'evil.gradle'],
    ['--init-script=evil.gradle'],
    ['-Dorg.gradle.java.home=/tmp/x'],
    ['-b', 'other.gradle'],
    ['-c', 'other-settings.gradle'],
    ['-p', '/elsewhere'],
    ['--project-dir=/elsewhere'],
    ['--include-build', '../x'],
    ['-g', '/tmp/home'],
    ['--scan'],
    ['--console=rich'],
    ['-Porg.gradle.jvmargs=-javaagent:x.jar'],
    ['-x'],
    ['-x', '--init-script'],
    ['--tests', 'a;b'],
    ['-Pa=b\nc'],
    ['-Pandroid.aapt2FromMavenOverride=/tmp/evil-aapt2'],
    ['-Pandroid.injected.signing.store.file=x'],
    ['-Pkotlin.daemon.jvmargs=-Xmx1g'],
    ['-Pkotlin.compiler.execution.strategy=in-process'],
    ['-PsystemProp.http.proxyHost=evil'],
    ['-PkeystorePath=/home/user/.android/release.jks'],
    ['-Pout=../../elsewhere'],
    ['-Pjvm=-javaagent:/tmp/agent.jar'],
    ['-Pcompose.kotlinCompilerPlugin=org.example:evil:1.0'],
    ['-Pkotlin.native.jvmArgs=-Xbootclasspath/a:/tmp/evil.jar'],
    ['-Pkotlin.native.home=build/x'],
    ['-Pjvm=-Xbootclasspath/a:evil.jar'],
    ['-Pconfig=file:/etc/passwd'],
    ['-Porg.gradle.caching=true'],
    ['--tests', '-Iinit.gradle'],
    ['--tests', '--scan'],
    ['--tests', '-Foff'],
  ])('refuses %s', (...args) => {
    expect(refusal(() => checkArgs(args)).code).toBe('INVALID_ARGUMENT');
  });
});
