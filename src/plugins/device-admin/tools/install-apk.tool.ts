import { z } from 'zod';
import { readApkInfo } from '../../../android/apk-info.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { openProjectApk } from '../../../android/project-apk.js';
import { ToolError } from '../../../kernel/errors.js';
import type { ProjectSelection } from '../../../kernel/project-selection.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { ApkInstaller } from '../services/apk-installer.js';
import { AppInstalled } from '../device-admin.events.js';

export function createInstallApkTool(deps: {
  project: ProjectSelection;
  devices: DeviceInspector;
  installer: ApkInstaller;
}) {
  return defineTool({
    name: 'install_apk',
    toolset: 'device-admin',
    kind: 'D',
    title: 'Install APK',
    description:
      "Install (or replace) an APK the project built, which must be under an application module's build/outputs; recorded with the build that wrote it.",
    input: z.object({
      device_serial: deviceSerialField,
      apk_path: z.string().min(1).max(4096).describe('APK path, absolute or relative to the project root.'),
    }),
    output: z.object({
      device_serial: z.string().describe('Where it was installed.'),
      package: z.string().describe('Application id read from the APK.'),
      version_code: z.number().int().describe('versionCode of the APK.'),
      version_name: z.string().nullable().describe('versionName of the APK.'),
      apk_path: z.string().describe('Canonical path that was installed.'),
      apk_sha256: z.string().describe('SHA-256 of the installed file.'),
      apk_size: z.number().int().describe('Bytes.'),
      build_id: z
        .string()
        .nullable()
        .describe('The build that wrote this exact APK, when the build history lists its hash.'),
      module: z.string().nullable().describe('Gradle module of the APK.'),
      variant: z.string().nullable().describe('Build variant, when the build history knows it.'),
      launchable_activity: z.string().nullable().describe('The launcher activity, for launch_app.'),
      build_link_note: z
        .string()
        .optional()
        .describe('Present when builds of several variants wrote these exact bytes, so no build_id is named.'),
      duration_ms: z.number().int().describe('Time spent copying and installing.'),
    }),
    async handler(args, ctx) {
      if (!deps.project.root) {
        throw new ToolError(
          'PROJECT_NOT_FOUND',
          'No Gradle project is selected, so no build output can be installed. Start droidwright mcp inside the project or pass --project <path>.',
        );
      }
      const apk = await openProjectApk(deps.project.root, args.apk_path);
      try {
        const info = await readApkInfo(apk.copyPath, apk.path);
        const serial = await deps.devices.select(args.device_serial, ctx);
        const { durationMs } = await deps.installer.install(serial, apk.copyPath, info, ctx.signal);
        const { match: build, ambiguity } = deps.installer.findBuild(info.sha256, apk.path, deps.project.root);
        const data = {
          device_serial: serial,
          package: info.packageName,
          version_code: info.versionCode,
          version_name: info.versionName,
          apk_path: apk.path,
          apk_sha256: info.sha256,
          apk_size: info.size,
          build_id: build?.buildId ?? null,
          module: build?.module ?? apk.module.path,
          variant: build?.variant ?? null,
          duration_ms: durationMs,
        };
        ctx.append(AppInstalled, data, {
          stream: `device:${serial}`,
          device: serial,
          package: info.packageName,
          correlation: build ? `build:${build.buildId}` : null,
        });
        return {
          data: {
            ...data,
            launchable_activity: info.launchableActivity,
            ...(ambiguity ? { build_link_note: ambiguity } : {}),
          },
          summary: `installed ${info.packageName} ${info.versionName ?? ''} (${info.versionCode}) on ${serial}${build ? ` from build ${build.buildId}` : ''}${ambiguity ? `. ${ambiguity}` : ''}`,
        };
      } finally {
        await apk.dispose();
      }
    },
  });
}
