import type { CommandHandler } from '../shell/command.js';
import type { SimulatedDevice } from '../simulated-device.js';

const NAMESPACES = ['global', 'system', 'secure'] as const;
type Namespace = (typeof NAMESPACES)[number];

/** Side effects a setting has on the simulated hardware. */
function applySetting(device: SimulatedDevice, ns: Namespace, key: string, value: string | null): void {
  if (ns === 'global' && key === 'airplane_mode_on') {
    device.log('system', 'I', 'ConnectivityService', `setAirplaneMode(${value === '1'})`, device.systemPid);
  }
}

export const settingsCommand: CommandHandler = async ({ argv, io, device }) => {
  const args = argv
    .slice(argv[0] === 'cmd' ? 2 : 1)
    .filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user' && a !== '--lineage');
  const [verb, nsArg, key, ...rest] = args;
  if (!verb || verb === 'help') {
    await io.stdout(
      'Settings provider (settings) commands:\n  get [--user <USER_ID> | current] NAMESPACE KEY\n  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n  delete [--user <USER_ID> | current] NAMESPACE KEY\n  list [--user <USER_ID> | current] NAMESPACE\n',
    );
    return 0;
  }
  if (!['get', 'put', 'delete', 'list', 'reset'].includes(verb)) {
    await io.stderr(`Invalid command: ${verb}\n`);
    return 255;
  }
  if (!nsArg || !(NAMESPACES as readonly string[]).includes(nsArg)) {
    await io.stderr(`Invalid namespace '${nsArg ?? ''}'\n`);
    return 255;
  }
  const ns = nsArg as Namespace;
  const table = device.settings[ns];
  switch (verb) {
    case 'get':
      if (!key) {
        await io.stderr('Invalid key\n');
        return 255;
      }
      await io.stdout(`${table.get(key) ?? 'null'}\n`);
      return 0;
    case 'put': {
      const value = rest[0];
      if (!key || value === undefined) {
        await io.stderr('Invalid arguments\n');
        return 255;
      }
      table.set(key, value);
      applySetting(device, ns, key, value);
      return 0;
    }
    case 'delete':
      if (!key) return 255;
      await io.stdout(`Deleted ${table.delete(key) ? 1 : 0} rows\n`);
      applySetting(device, ns, key, null);
      return 0;
    case 'list':
      await io.stdout(
        `${[...table]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `${k}=${v}`)
          .join('\n')}\n`,
      );
      return 0;
    default:
      return 0;
  }
};

export const svcCommand: CommandHandler = async ({ argv, io, device }) => {
  const [what, action] = argv.slice(1);
  const keys: Record<string, string> = { wifi: 'wifi_on', data: 'mobile_data', bluetooth: 'bluetooth_on' };
  if (what && keys[what] && (action === 'enable' || action === 'disable')) {
    device.settings.global.set(keys[what], action === 'enable' ? '1' : '0');
    device.log(
      'system',
      'I',
      what === 'wifi' ? 'WifiService' : 'ConnectivityService',
      `${what} ${action}d by shell (uid 2000)`,
      device.systemPid,
    );
    return 0;
  }
  if (what === 'power' && action === 'stayon') {
    const mode = argv[3] ?? 'true';
    device.settings.global.set(
      'stay_on_while_plugged_in',
      mode === 'true' ? '7' : mode === 'false' ? '0' : mode === 'usb' ? '2' : mode === 'ac' ? '1' : '4',
    );
    return 0;
  }
  await io.stdout(
    what && keys[what]
      ? `Control the ${what} manager\n\nusage: svc ${what} [enable|disable]\n         Turn ${what} on or off.\n\n`
      : 'Available commands:\n    help     Show information about the subcommands\n    power    Control the power manager\n    data     Control mobile data connectivity\n    wifi     Control the Wi-Fi manager\n    bluetooth Control Bluetooth service\n',
  );
  return 0;
};

/** `cmd connectivity airplane-mode [enable|disable]` and `cmd wifi set-wifi-enabled enabled|disabled`. */
export const connectivityCommand: CommandHandler = async ({ argv, io, device }) => {
  const [, service, verb, arg] = argv;
  if (service === 'connectivity' && verb === 'airplane-mode') {
    if (arg === undefined) {
      await io.stdout(`${device.settings.global.get('airplane_mode_on') === '1' ? 'enabled' : 'disabled'}\n`);
      return 0;
    }
    if (arg !== 'enable' && arg !== 'disable') {
      await io.stderr(`Unsupported airplane mode setting: ${arg}\n`);
      return 255;
    }
    device.settings.global.set('airplane_mode_on', arg === 'enable' ? '1' : '0');
    applySetting(device, 'global', 'airplane_mode_on', arg === 'enable' ? '1' : '0');
    return 0;
  }
  if (service === 'wifi' && verb === 'set-wifi-enabled' && (arg === 'enabled' || arg === 'disabled')) {
    device.settings.global.set('wifi_on', arg === 'enabled' ? '1' : '0');
    return 0;
  }
  if (service === 'wifi' && verb === 'status') {
    await io.stdout(
      device.settings.global.get('wifi_on') === '1'
        ? 'Wifi is enabled\nWifi is connected to "AndroidWifi"\n'
        : 'Wifi is disabled\n',
    );
    return 0;
  }
  await io.stderr(`Unknown command: ${verb ?? ''}\n`);
  return 255;
};

export const wmCommand: CommandHandler = async ({ argv, io, device }) => {
  const args = argv.slice(argv[0] === 'cmd' ? 2 : 1);
  const [verb, value] = args;
  if (verb === 'size') {
    if (value === undefined) {
      const p = device.physical;
      const o = device.overrideSize;
      await io.stdout(`Physical size: ${p.width}x${p.height}\n${o ? `Override size: ${o.width}x${o.height}\n` : ''}`);
      return 0;
    }
    if (value === 'reset') {
      device.overrideSize = null;
      return 0;
    }
    const m = /^(\d+)x(\d+)$/.exec(value);
    if (!m || Number(m[1]) < 100 || Number(m[2]) < 100) {
      await io.stderr(`Error: bad size ${value}\n`);
      return 255;
    }
    device.overrideSize = { width: Number(m[1]), height: Number(m[2]) };
    return 0;
  }
  if (verb === 'density') {
    if (value === undefined) {
      await io.stdout(
        `Physical density: ${device.physical.density}\n${device.overrideDensity ? `Override density: ${device.overrideDensity}\n` : ''}`,
      );
      return 0;
    }
    if (value === 'reset') {
      device.overrideDensity = null;
      return 0;
    }
    if (!/^\d+$/.test(value) || Number(value) < 72) {
      await io.stderr(`Error: bad density ${value}\n`);
      return 255;
    }
    device.overrideDensity = Number(value);
    return 0;
  }
  if (verb === 'user-rotation') {
    if (value === 'lock' || value === 'free') {
      device.settings.system.set('accelerometer_rotation', value === 'free' ? '1' : '0');
      if (args[2] !== undefined) device.settings.system.set('user_rotation', args[2]);
      return 0;
    }
    await io.stdout(
      `${device.settings.system.get('accelerometer_rotation') === '1' ? 'free' : 'lock'} ${device.rotation()}\n`,
    );
    return 0;
  }
  await io.stderr(`Unknown command: ${verb ?? ''}\n`);
  return 255;
};
