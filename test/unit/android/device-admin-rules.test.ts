import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateDeepLink } from '../../../src/android/deep-link.js';
import { PackageScopeGuard } from '../../../src/android/package-scope-guard.js';
import { PackageScopePolicy } from '../../../src/android/package-scope-policy.js';
import { openProjectApk, resolveProjectApk } from '../../../src/android/project-apk.js';
import { InvalidArgumentsError, ToolError } from '../../../src/kernel/errors.js';
import type { AnyToolDefinition } from '../../../src/kernel/tool-definition.js';
import { componentOf, validateActivity } from '../../../src/plugins/device-admin/services/app-controller.js';
import { installFailureAdvice } from '../../../src/plugins/device-admin/services/apk-installer.js';
import { NetworkController } from '../../../src/plugins/device-admin/services/network-controller.js';
import { createFakeGradleProject } from '../../support/temp-home.js';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidArgumentsError || error instanceof ToolError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('deep links', () => {
  it('trims, refuses schemes that open no app in any case, and refuses control characters', () => {
    expect(validateDeepLink('  https://example.com/a?b=1  ')).toEqual({
      uri: 'https://example.com/a?b=1',
      scheme: 'https',
    });
    expect(validateDeepLink('myApp://x;$(id)')).toEqual({ uri: 'myApp://x;$(id)', scheme: 'myapp' });
    for (const bad of [
      'javascript:x',
      ' JAVASCRIPT:x',
      'Data:x',
      'file:///x',
      'content://x',
      'INTENT:x',
      'about:blank',
      'blob:x',
      'vbscript:x',
    ]) {
      expect(code(() => validateDeepLink(bad))).toBe('INVALID_ARGUMENT');
    }
    for (const bad of ['', 'no-scheme', 'https://x\nid', 'a://\u0000', 'x'.repeat(3000)])
      expect(code(() => validateDeepLink(bad))).toBe('INVALID_ARGUMENT');
  });
});

describe('activities and network rules', () => {
  it('accepts class names only', () => {
    expect(validateActivity('.Main')).toBe('.Main');
    expect(componentOf('com.x', '.Main')).toBe('com.x/.Main');
    expect(componentOf('com.x', 'Main')).toBe('com.x/.Main');
    expect(componentOf('com.x', 'com.y.Main')).toBe('com.x/com.y.Main');
    for (const bad of ['-n', 'com.x/.Main', '.Main;id', 'a b', '$(id)'])
      expect(code(() => validateActivity(bad))).toBe('INVALID_ARGUMENT');
  });

  it('never cuts a wireless adb connection', () => {
    expect(code(() => NetworkController.checkRequest('192.168.1.5:5555', { wifi: false }))).toBe('INVALID_ARGUMENT');
    expect(code(() => NetworkController.checkRequest('adb-X._adb-tls-connect._tcp', { airplaneMode: true }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(code(() => NetworkController.checkRequest('192.168.1.5:5555', { wifi: true, mobileData: false }))).toBe(
      'accepted',
    );
    expect(code(() => NetworkController.checkRequest('emulator-5554', { wifi: false, airplaneMode: true }))).toBe(
      'accepted',
    );
    expect(code(() => NetworkController.checkRequest('emulator-5554', {}))).toBe('INVALID_ARGUMENT');
  });

  it('explains install failures', () => {
    expect(installFailureAdvice('Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected]')).toMatchObject({
      code: 'INSTALL_FAILED_VERSION_DOWNGRADE',
    });
    expect(installFailureAdvice('Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: x]').advice).toMatch(/uninstall/);
    expect(installFailureAdvice('weird')).toMatchObject({ code: null });
  });
});

describe('project APKs and package scope', () => {
  const parent = mkdtempSync(join(tmpdir(), 'dw-proj-'));
  const root = realpathSync(createFakeGradleProject(parent, 'p', { applicationId: 'com.example.app' }));
  const outputs = join(root, 'app', 'build', 'outputs', 'apk', 'debug');
  mkdirSync(outputs, { recursive: true });
  writeFileSync(join(outputs, 'app-debug.apk'), 'apk');
  writeFileSync(join(root, 'app', 'loose.apk'), 'apk');
  writeFileSync(join(parent, 'outside.apk'), 'apk');
  symlinkSync(join(parent, 'outside.apk'), join(outputs, 'leak.apk'));
  symlinkSync(join(outputs, 'app-debug.apk'), join(root, 'shortcut.apk'));

  it("accepts only .apk files under an application module's build outputs, by canonical path", () => {
    expect(resolveProjectApk(root, 'app/build/outputs/apk/debug/app-debug.apk')).toMatchObject({
      path: join(outputs, 'app-debug.apk'),
      module: { path: ':app' },
    });
    // A link elsewhere in the project that lands in the outputs installs the canonical file.
    expect(resolveProjectApk(root, 'shortcut.apk').path).toBe(join(outputs, 'app-debug.apk'));
    expect(code(() => resolveProjectApk(root, join(outputs, 'leak.apk')))).toBe('PATH_OUTSIDE_PROJECT');
    expect(code(() => resolveProjectApk(root, join(parent, 'outside.apk')))).toBe('PATH_OUTSIDE_PROJECT');
    expect(code(() => resolveProjectApk(root, 'app/loose.apk'))).toBe('PATH_OUTSIDE_PROJECT');
    expect(code(() => resolveProjectApk(root, 'app/build.gradle.kts'))).toBe('INVALID_ARGUMENT');
    expect(code(() => resolveProjectApk(root, 'app/build/outputs/apk/debug/missing.apk'))).toBe('NOT_FOUND');
  });

  it('answers the same for outside paths that exist and that do not, and never names a link target', () => {
    const messageOf = (path: string): string => {
      try {
        resolveProjectApk(root, path);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(code(() => resolveProjectApk(root, join(parent, 'no-such.apk')))).toBe('PATH_OUTSIDE_PROJECT');
    expect(messageOf(join(parent, 'no-such.apk'))).toBe(messageOf(join(parent, 'outside.apk')));
    expect(messageOf(join(outputs, 'leak.apk'))).not.toContain(`${parent}/outside.apk`);
    // A link inside the outputs to an outside APK reads the same whether that APK exists or not.
    symlinkSync(join(parent, 'gone.apk'), join(outputs, 'dangling.apk'));
    symlinkSync(join(parent, 'gone'), join(root, 'app', 'build', 'outputs', 'apk', 'dir-link'));
    expect(code(() => resolveProjectApk(root, join(outputs, 'dangling.apk')))).toBe('PATH_OUTSIDE_PROJECT');
    expect(messageOf(join(outputs, 'dangling.apk'))).toBe(messageOf(join(outputs, 'leak.apk')));
    expect(messageOf('app/build/outputs/apk/dir-link/x.apk')).toBe(messageOf(join(outputs, 'leak.apk')));
    // A dangling link that stays inside the project is simply missing.
    symlinkSync(join(outputs, 'not-built.apk'), join(outputs, 'pending.apk'));
    expect(code(() => resolveProjectApk(root, join(outputs, 'pending.apk')))).toBe('NOT_FOUND');
  });

  it('opens the APK once into a private copy, which dispose removes', async () => {
    const opened = await openProjectApk(root, 'shortcut.apk');
    expect(opened.path).toBe(join(outputs, 'app-debug.apk'));
    expect(opened.copyPath).not.toContain(root);
    expect(readFileSync(opened.copyPath, 'utf8')).toBe('apk');
    // Later changes to the project file do not reach the copy that will be hashed and pushed.
    writeFileSync(join(outputs, 'app-debug.apk'), 'rewritten');
    expect(readFileSync(opened.copyPath, 'utf8')).toBe('apk');
    await opened.dispose();
    expect(existsSync(opened.copyPath)).toBe(false);
    writeFileSync(join(outputs, 'app-debug.apk'), 'apk');
  });

  it('never reads an outside file through a link swapped in for the final component', async () => {
    // The path is a link to an outside APK: refused before any open, as for any outside link.
    const swapped = join(outputs, 'swapped.apk');
    symlinkSync(join(parent, 'outside.apk'), `${swapped}.tmp`);
    renameSync(`${swapped}.tmp`, swapped);
    await expect(openProjectApk(root, swapped)).rejects.toMatchObject({ code: 'PATH_OUTSIDE_PROJECT' });
  });

  it('scopes packages to the project and fails closed without one', () => {
    const guard = new PackageScopeGuard({ root, selectedBy: 'flag' });
    expect(code(() => guard.require('com.example.app', undefined))).toBe('accepted');
    expect(code(() => guard.require('com.example.apple', undefined))).toBe('PACKAGE_OUT_OF_SCOPE');
    expect(code(() => guard.require('com.android.chrome', true))).toBe('accepted');
    expect(guard.defaultPackage()).toBe('com.example.app');
    const none = new PackageScopeGuard({ root: null, selectedBy: 'none' });
    expect(code(() => none.require('com.example.app', undefined))).toBe('PACKAGE_OUT_OF_SCOPE');
    expect(code(() => none.require('com.example.app', true))).toBe('accepted');
    expect(code(() => none.defaultPackage())).toBe('INVALID_ARGUMENT');
  });

  it('the package-scope policy guards exactly the tools that declare packageScope, before their handler', () => {
    const policy = new PackageScopePolicy(new PackageScopeGuard({ root, selectedBy: 'flag' }));
    const actor = { kind: 'agent' as const, session: 's', pid: 1 };
    const declared = {
      name: 'stop_app',
      packageScope: { field: 'package', allowField: 'allow_foreign_package' },
    } as unknown as AnyToolDefinition;
    const undeclared = { name: 'launch_app' } as unknown as AnyToolDefinition;
    const check = (tool: AnyToolDefinition, args: Record<string, unknown>) => () => policy.check({ tool, args, actor });
    expect(code(check(declared, { package: 'com.example.app' }))).toBe('accepted');
    expect(code(check(declared, { package: 'com.android.chrome' }))).toBe('PACKAGE_OUT_OF_SCOPE');
    expect(code(check(declared, { package: 'com.android.chrome', allow_foreign_package: true }))).toBe('accepted');
    expect(code(check(declared, { package: 'com.x;reboot', allow_foreign_package: true }))).toBe('INVALID_ARGUMENT');
    expect(code(check(undeclared, { package: 'com.android.chrome' }))).toBe('accepted');
    let message = '';
    try {
      check(declared, { package: 'com.android.chrome' })();
    } catch (error) {
      message = (error as Error).message;
      expect((error as InvalidArgumentsError).field).toBe('package');
    }
    expect(message).toMatch(
      /com\.android\.chrome is not one of this project's apps.*com\.example\.app.*allow_foreign_package: true/,
    );
  });
});
