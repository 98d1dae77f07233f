import { z } from 'zod';
import type { AppInspector } from '../../../android/app-inspector.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { defaultedPackageField, deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';

const Heap = z
  .object({
    size_kb: z.number().int().optional().describe('Heap size.'),
    allocated_kb: z.number().int().optional().describe('Allocated.'),
    free_kb: z.number().int().optional().describe('Free.'),
  })
  .optional();

export function createGetMemoryInfoTool(deps: {
  devices: DeviceInspector;
  apps: AppInspector;
  scope: PackageScopeGuard;
}) {
  return defineTool({
    name: 'get_memory_info',
    toolset: 'core',
    kind: 'R',
    title: 'Get memory info',
    description:
      'Memory of a running app (dumpsys meminfo): PSS/RSS, private dirty, Java and native heaps, App Summary, object counts (growing views or activities hint at leaks); running: false without a process.',
    input: z.object({ device_serial: deviceSerialField, package: defaultedPackageField }),
    output: z.object({
      device_serial: z.string().describe('The device that was read.'),
      package: z.string().describe('The application id.'),
      running: z.boolean().describe('Whether the app had a process to measure.'),
      pid: z.number().int().optional().describe('The measured process.'),
      total_pss_kb: z.number().int().optional().describe('Proportional set size in kB.'),
      total_rss_kb: z.number().int().optional().describe('Resident set size in kB (newer releases only).'),
      private_dirty_kb: z.number().int().optional().describe('Private dirty memory in kB.'),
      java_heap: Heap.describe('Dalvik/ART heap (size, allocated, free).'),
      native_heap: Heap.describe('Native heap (size, allocated, free).'),
      summary_kb: z
        .record(z.string(), z.number())
        .describe('App Summary rows (Java Heap, Native Heap, Code, Stack, Graphics, …) in kB.'),
      objects: z.record(z.string(), z.number()).describe('Object counters (Views, Activities, AppContexts, …).'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package ?? deps.scope.defaultPackage());
      const serial = await deps.devices.select(args.device_serial, ctx);
      await deps.apps.requireInstalled(serial, pkg, ctx.signal);
      const m = await deps.apps.memory(serial, pkg, ctx.signal);
      const heap = (h: { sizeKb: number | null; allocatedKb: number | null; freeKb: number | null } | null) =>
        h ? { size_kb: h.sizeKb, allocated_kb: h.allocatedKb, free_kb: h.freeKb } : null;
      return {
        data: omitNulls({
          device_serial: serial,
          package: pkg,
          running: m !== null,
          pid: m?.pid ?? null,
          total_pss_kb: m?.totalPssKb ?? null,
          total_rss_kb: m?.totalRssKb ?? null,
          private_dirty_kb: m?.privateDirtyKb ?? null,
          java_heap: heap(m?.javaHeap ?? null),
          native_heap: heap(m?.nativeHeap ?? null),
          summary_kb: { ...(m?.summary ?? {}) },
          objects: { ...(m?.objects ?? {}) },
        }),
        summary: m ? `${pkg} pid ${m.pid}: PSS ${m.totalPssKb ?? '?'} kB` : `${pkg} is not running on ${serial}`,
      };
    },
  });
}
