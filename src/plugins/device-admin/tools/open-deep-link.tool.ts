import { z } from 'zod';
import { validateDeepLink } from '../../../android/deep-link.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField, launchTimingFields } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';
import type { AppController } from '../services/app-controller.js';
import { DeepLinkOpened } from '../device-admin.events.js';

/** `com.example/.Main` → `com.example`: the app that handled a link is the package the event concerns. */
function packageOfComponent(component: string | null): string | null {
  const pkg = component?.split('/')[0];
  return pkg && /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(pkg) ? pkg : null;
}

export function createOpenDeepLinkTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'open_deep_link',
    toolset: 'device-admin',
    kind: 'W',
    title: 'Open deep link',
    description:
      'Open a URI with a VIEW intent (deep links, app links); fails when nothing resolves it. Refuses schemes that open no app (javascript, data, file, content, intent, about, blob).',
    input: z.object({
      device_serial: deviceSerialField,
      uri: z.string().min(1).max(2048).describe('The link (https://example.com/item/42, myapp://item/42).'),
      package: z.string().min(1).max(255).optional().describe('Only let this package handle the link.'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      uri: z.string().describe('The URI opened (trimmed).'),
      activity: z.string().optional().describe('The activity that handled it, when am reports it.'),
      ...launchTimingFields,
    }),
    async handler(args, ctx) {
      const { uri, scheme } = validateDeepLink(args.uri);
      const pkg = args.package !== undefined ? validatePackageName(args.package) : undefined;
      const serial = await deps.devices.select(args.device_serial, ctx);
      const out = await deps.apps.openDeepLink(serial, uri, pkg, ctx.signal);
      const timing = {
        total_ms: out.am?.totalTimeMs ?? null,
        wait_ms: out.am?.waitTimeMs ?? null,
        launch_state: out.am?.launchState ?? null,
      };
      ctx.append(
        DeepLinkOpened,
        { device_serial: serial, uri, scheme, package: pkg ?? null, activity: out.component },
        { stream: `device:${serial}`, device: serial, package: pkg ?? packageOfComponent(out.component) },
      );
      return {
        data: omitNulls({ device_serial: serial, uri, activity: out.component, ...timing }),
        summary: `opened ${scheme}: link on ${serial}${out.component ? ` in ${out.component}` : ''}`,
      };
    },
  });
}
