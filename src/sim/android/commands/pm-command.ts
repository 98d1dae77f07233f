import type { CommandContext, CommandHandler, CommandIO } from '../shell/command.js';
import { apkPathOf, isKnownPermission, RUNTIME_PERMISSIONS, type InstalledPackage } from '../package-manager.js';
import { normalizePath } from '../sim-file-system.js';
import { formatDeviceTime } from '../exit-info.js';
import { identityHash } from '../random.js';
import type { SimulatedDevice } from '../simulated-device.js';
import { shortComponent } from '../activity-manager.js';

const FEATURES = [
  'android.hardware.audio.output',
  'android.hardware.bluetooth',
  'android.hardware.camera',
  'android.hardware.camera.any',
  'android.hardware.camera.autofocus',
  'android.hardware.faketouch',
  'android.hardware.location',
  'android.hardware.location.gps',
  'android.hardware.microphone',
  'android.hardware.ram.normal',
  'android.hardware.screen.landscape',
  'android.hardware.screen.portrait',
  'android.hardware.sensor.accelerometer',
  'android.hardware.touchscreen',
  'android.hardware.touchscreen.multitouch',
  'android.hardware.wifi',
  'android.software.app_widgets',
  'android.software.backup',
  'android.software.home_screen',
  'android.software.input_methods',
  'android.software.webview',
];

async function exception(io: CommandIO, verb: string, type: string, message: string, at: string): Promise<number> {
  await io.stderr(
    `Exception occurred while executing '${verb}':\n${type}: ${message}\n\tat ${at}\n\tat com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:227)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n`,
  );
  return 255;
}

function listPackages(device: SimulatedDevice, args: string[]): string[] {
  let showPath = false,
    third = false,
    system = false,
    uid = false,
    installer = false,
    disabled = false,
    enabled = false;
  let filter: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--user') {
      i++;
      continue;
    }
    if (a.startsWith('-')) {
      for (const f of a.slice(1)) {
        if (f === 'f') showPath = true;
        else if (f === '3') third = true;
        else if (f === 's') system = true;
        else if (f === 'U') uid = true;
        else if (f === 'i') installer = true;
        else if (f === 'd') disabled = true;
        else if (f === 'e') enabled = true;
      }
      continue;
    }
    filter = a;
  }
  return device.packages
    .list()
    .filter((p) => (!third || !p.system) && (!system || p.system) && (!filter || p.name.includes(filter)))
    .filter((p) => (!disabled || !p.enabled) && (!enabled || p.enabled))
    .map((p) => {
      let line = showPath ? `package:${apkPathOf(p)}=${p.name}` : `package:${p.name}`;
      if (installer) line += `  installer=${p.installer ?? 'null'}`;
      if (uid) line += ` uid:${p.uid}`;
      return line;
    });
}

function dumpPackage(pkg: InstalledPackage): string {
  const hash = identityHash(pkg.name);
  const lines = [
    'Activity Resolver Table:',
    '  Non-Data Actions:',
    '      android.intent.action.MAIN:',
    ...(pkg.launcherActivity
      ? [
          `        ${identityHash(pkg.launcherActivity)} ${shortComponent(pkg.name, pkg.launcherActivity)} filter ${identityHash(`${pkg.launcherActivity}f`)}`,
        ]
      : []),
    '',
    'Key Set Manager:',
    `  [${pkg.name}]`,
    '      Signing KeySets: 42',
    '',
    'Packages:',
    `  Package [${pkg.name}] (${hash}):`,
    `    appId=${pkg.uid}`,
    `    pkg=Package{${identityHash(`${pkg.name}p`)} ${pkg.name}}`,
    `    codePath=${pkg.codePath}`,
    `    resourcePath=${pkg.codePath}`,
    `    legacyNativeLibraryDir=${pkg.codePath}/lib`,
    `    extractNativeLibs=false`,
    `    primaryCpuAbi=null`,
    `    secondaryCpuAbi=null`,
    `    cpuAbiOverride=null`,
    `    versionCode=${pkg.versionCode} minSdk=${pkg.minSdk} targetSdk=${pkg.targetSdk}`,
    `    minExtensionVersions=[]`,
    `    versionName=${pkg.versionName}`,
    `    usesNonSdkApi=false`,
    `    splits=[base]`,
    `    apkSigningVersion=2`,
    `    flags=[ ${pkg.system ? 'SYSTEM ' : ''}${pkg.debuggable ? 'DEBUGGABLE ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`,
    `    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZEABLE_VIA_SDK_VERSION ALLOW_AUDIO_PLAYBACK_CAPTURE PRIVATE_FLAG_ALLOW_NATIVE_HEAP_POINTER_TAGGING ]`,
    `    forceQueryable=false`,
    `    dataDir=/data/user/0/${pkg.name}`,
    `    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]`,
    `    timeStamp=${formatDeviceTime(pkg.lastUpdateTimeMs).slice(0, 19)}`,
    `    lastUpdateTime=${formatDeviceTime(pkg.lastUpdateTimeMs).slice(0, 19)}`,
    `    installerPackageName=${pkg.installer ?? 'null'}`,
    `    packageSource=0`,
    `    signatures=PackageSignatures{${identityHash(`${pkg.name}s`)} version:2, signatures:[${identityHash(`${pkg.name}c`)}], past signatures:[]}`,
    `    installPermissionsFixed=true`,
    `    pkgFlags=[ ${pkg.system ? 'SYSTEM ' : ''}${pkg.debuggable ? 'DEBUGGABLE ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`,
  ];
  if (pkg.requestedPermissions.length) {
    lines.push('    requested permissions:', ...pkg.requestedPermissions.map((p) => `      ${p}`));
  }
  const install = pkg.requestedPermissions.filter((p) => !RUNTIME_PERMISSIONS.has(p));
  if (install.length) lines.push('    install permissions:', ...install.map((p) => `      ${p}: granted=true`));
  lines.push(
    '    User 0: ceDataInode=131090 installed=true hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false',
    `      firstInstallTime=${formatDeviceTime(pkg.firstInstallTimeMs).slice(0, 19)}`,
    '      uninstallReason=0',
    '      gids=[3003]',
  );
  const runtime = pkg.requestedPermissions.filter((p) => RUNTIME_PERMISSIONS.has(p));
  if (runtime.length) {
    lines.push(
      '      runtime permissions:',
      ...runtime.map(
        (p) =>
          `        ${p}: granted=${pkg.grantedPermissions.has(p)}, flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]`,
      ),
    );
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

async function installBytes(ctx: CommandContext, bytes: Buffer, args: string[], sourceName: string): Promise<number> {
  const { device, io } = ctx;
  const manifest = await device.packages.readManifest(bytes);
  if (!manifest) {
    await io.stdout(
      `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${sourceName}: Failed to load asset path ${sourceName}]\n`,
    );
    return 1;
  }
  const flags = { grantAll: args.includes('-g'), allowDowngrade: args.includes('-d'), allowTest: args.includes('-t') };
  const outcome = device.packages.install(
    manifest,
    flags,
    (name) => device.scenario.apps.find((a) => a.package === name) ?? null,
  );
  if (!outcome.ok) {
    await io.stdout(`Failure [${outcome.failure}]\n`);
    return 1;
  }
  const { pkg, replaced } = outcome;
  if (replaced) {
    device.am.forceStop(pkg.name, 'update');
    device.fs.removeSystem(replaced.codePath);
  }
  device.fs.putSystemFile(apkPathOf(pkg), bytes, 0o644, 'system');
  device.log(
    'system',
    'I',
    'PackageManager',
    `Install ${replaced ? 'replacing' : 'new'} package ${pkg.name} versionCode=${pkg.versionCode}`,
    device.systemPid,
  );
  device.log('events', 'I', 'pm_package_stats', `[${pkg.name},${bytes.length}]`, device.systemPid);
  await io.stdout('Success\n');
  return 0;
}

async function readStdinBytes(io: CommandIO, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let got = 0;
  for await (const chunk of io.stdin) {
    parts.push(chunk);
    got += chunk.length;
    if (got >= size) break;
  }
  return Buffer.concat(parts).subarray(0, size);
}

function permissionArgs(args: string[]): { pkg?: string; perm?: string } {
  const rest = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--user');
  return { pkg: rest[0], perm: rest[1] };
}

/** `pm` and `cmd package`: the same shell command of PackageManagerService. */
export const pmCommand: CommandHandler = async (ctx) => {
  const { io, device } = ctx;
  const [verb, ...args] = ctx.argv.slice(ctx.argv[0] === 'cmd' ? 2 : 1);
  switch (verb) {
    case 'list': {
      const what = args[0];
      if (what === 'packages') {
        const lines = listPackages(device, args.slice(1));
        if (lines.length) await io.stdout(`${lines.join('\n')}\n`);
        return 0;
      }
      if (what === 'features') {
        await io.stdout(`${FEATURES.map((f) => `feature:${f}`).join('\n')}\n`);
        return 0;
      }
      if (what === 'permissions') {
        const perms = [...RUNTIME_PERMISSIONS].sort();
        await io.stdout(`${['All Permissions:', '', ...perms.map((p) => `permission:${p}`)].join('\n')}\n`);
        return 0;
      }
      if (what === 'users') {
        await io.stdout('Users:\n\tUserInfo{0:Owner:c13} running\n');
        return 0;
      }
      await io.stderr(`Error: unknown list type '${what ?? ''}'\n`);
      return 255;
    }
    case 'path': {
      const name = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--user')[0];
      const pkg = name ? device.packages.get(name) : undefined;
      if (!pkg) return 1;
      await io.stdout(`package:${apkPathOf(pkg)}\n`);
      return 0;
    }
    case 'install': {
      const sizeIndex = args.indexOf('-S');
      if (sizeIndex >= 0) {
        const size = Number(args[sizeIndex + 1]);
        if (!Number.isInteger(size) || size <= 0) {
          await io.stderr(`Error: APK content must be streamed\n`);
          return 255;
        }
        const bytes = await readStdinBytes(io, size);
        if (bytes.length < size) {
          await io.stdout(`Failure [INSTALL_FAILED_INVALID_APK: Failed to read ${size} bytes of APK content]\n`);
          return 1;
        }
        return installBytes(ctx, bytes, args, '/data/app/vmdl.tmp/base.apk');
      }
      const paths = args.filter(
        (a, i) => !a.startsWith('-') && !['-i', '--user', '--install-reason', '-p'].includes(args[i - 1] ?? ''),
      );
      const path = paths[paths.length - 1];
      if (!path) {
        await io.stderr('Error: must either specify a package size or an APK file\n');
        return 255;
      }
      const bytes = device.fs.readFile(normalizePath(path, ctx.cwd));
      if (!bytes) {
        await io.stderr(
          `Error: Unable to open file: ${path}\nConsider using a file under /data/local/tmp/\nError: Can't open file: ${path}\n`,
        );
        return await exception(
          io,
          'install',
          'java.lang.IllegalArgumentException',
          `Error: Can't open file: ${path}`,
          'com.android.server.pm.PackageManagerShellCommand.setParamsSize(PackageManagerShellCommand.java:617)',
        );
      }
      return installBytes(ctx, bytes, args, path);
    }
    case 'uninstall': {
      const keep = args.includes('-k');
      const name = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user')[0];
      const pkg = name ? device.packages.get(name) : undefined;
      if (!pkg || pkg.system) {
        await io.stdout('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
        return 1;
      }
      device.am.forceStop(pkg.name, 'uninstall');
      device.packages.remove(pkg.name);
      device.fs.removeSystem(pkg.codePath);
      if (!keep) device.exits.removePackage(pkg.name);
      device.log('system', 'I', 'PackageManager', `Removing package ${pkg.name}`, device.systemPid);
      await io.stdout('Success\n');
      return 0;
    }
    case 'clear': {
      const name = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user')[0];
      const pkg = name ? device.packages.get(name) : undefined;
      if (!pkg) {
        await io.stdout('Failed\n');
        return 1;
      }
      device.am.forceStop(pkg.name, 'clear');
      pkg.grantedPermissions.clear();
      await io.stdout('Success\n');
      return 0;
    }
    case 'grant':
    case 'revoke': {
      const { pkg: name, perm } = permissionArgs(args);
      if (!name || !perm) {
        await io.stderr(`Error: no package or permission specified\n`);
        return 255;
      }
      const pkg = device.packages.get(name);
      const at = `com.android.server.pm.permission.PermissionManagerServiceImpl.${verb}RuntimePermissionInternal(PermissionManagerServiceImpl.java:1422)`;
      if (!pkg) return exception(io, verb, 'java.lang.IllegalArgumentException', `Unknown package: ${name}`, at);
      if (!isKnownPermission(perm))
        return exception(io, verb, 'java.lang.IllegalArgumentException', `Unknown permission: ${perm}`, at);
      if (!pkg.requestedPermissions.includes(perm)) {
        return exception(
          io,
          verb,
          'java.lang.SecurityException',
          `Package ${name} has not requested permission ${perm}`,
          at,
        );
      }
      if (!RUNTIME_PERMISSIONS.has(perm)) {
        return exception(
          io,
          verb,
          'java.lang.SecurityException',
          `Permission ${perm} requested by ${name} is not a changeable permission type`,
          at,
        );
      }
      if (verb === 'grant') pkg.grantedPermissions.add(perm);
      else if (pkg.grantedPermissions.delete(perm) && device.am.runtimes.has(name)) {
        // Revoking a runtime permission kills the app, as on a real device.
        device.am.killProcess(name, 'OTHER', 'UNKNOWN', 'permissions revoked');
      }
      return 0;
    }
    case 'dump': {
      const pkg = args[0] ? device.packages.get(args[0]) : undefined;
      if (!pkg) {
        await io.stdout('');
        return 0;
      }
      await io.stdout(dumpPackage(pkg));
      return 0;
    }
    case 'resolve-activity': {
      const name = args.filter(
        (a, i) => !a.startsWith('-') && !['-c', '-a', '--user', '-d'].includes(args[i - 1] ?? ''),
      )[0];
      const pkg = name ? device.packages.get(name) : undefined;
      if (!pkg?.launcherActivity) {
        await io.stdout('No activity found\n');
        return 0;
      }
      const cmp = shortComponent(pkg.name, pkg.launcherActivity);
      if (args.includes('--brief'))
        await io.stdout(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n${cmp}\n`);
      else
        await io.stdout(
          `Activity #0:\n  priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n  ActivityInfo:\n    name=${pkg.launcherActivity}\n    packageName=${pkg.name}\n    enabled=true exported=true directBootAware=false\n`,
        );
      return 0;
    }
    case 'enable':
    case 'disable':
    case 'disable-user': {
      const name = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user')[0];
      const pkg = name ? device.packages.get(name) : undefined;
      if (!pkg)
        return exception(
          io,
          verb,
          'java.lang.IllegalArgumentException',
          `Unknown package: ${name}`,
          'com.android.server.pm.PackageManagerService.setEnabledSetting(PackageManagerService.java:3720)',
        );
      pkg.enabled = verb === 'enable';
      if (!pkg.enabled) device.am.forceStop(pkg.name, 'force-stop');
      await io.stdout(
        `Package ${pkg.name} new state: ${verb === 'enable' ? 'enabled' : verb === 'disable' ? 'disabled' : 'disabled-user'}\n`,
      );
      return 0;
    }
    case undefined:
    case 'help':
    case '-h':
      await io.stdout(
        'Package manager (package) commands:\n  help\n    Print this help text.\n  path [--user USER_ID] PACKAGE\n  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [--user USER_ID] [FILTER]\n  install [-r] [-t] [-g] [-d] [-S BYTES] [PATH|-]\n  uninstall [-k] [--user USER_ID] PACKAGE\n  clear [--user USER_ID] PACKAGE\n  grant [--user USER_ID] PACKAGE PERMISSION\n  revoke [--user USER_ID] PACKAGE PERMISSION\n  resolve-activity [--brief] [--user USER_ID] INTENT\n',
      );
      return 0;
    default:
      await io.stderr(`Unknown command: ${verb}\n`);
      return 255;
  }
};
