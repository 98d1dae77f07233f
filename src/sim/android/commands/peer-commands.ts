/*
 * Commands the most-used peer tools run on a phone that the simulator lacked: `cmd package query-activities`
 * (app listing), `content` on the settings provider (orientation), `mv` (clipboard and file moves) and
 * /proc/meminfo (system info). Output follows what Android 14 prints, so their parsers read it unchanged.
 */
import type { CommandHandler } from '../shell/command.js';
import { normalizePath } from '../sim-file-system.js';
import type { SimulatedDevice } from '../simulated-device.js';

/** `cmd package query-activities [-a ACTION] [-c CATEGORY] [--brief] [--components]`: launcher activities. */
export async function queryActivities(args: readonly string[], ctx: Parameters<CommandHandler>[0]): Promise<number> {
  const { io, device } = ctx;
  const flagValue = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const action = flagValue('-a');
  const category = flagValue('-c');
  // The launcher query (MAIN + LAUNCHER) is what app listings ask; other intents resolve to nothing here.
  const launcherQuery =
    (action === undefined || action === 'android.intent.action.MAIN') &&
    (category === undefined || category === 'android.intent.category.LAUNCHER');
  const found = launcherQuery
    ? device.packages
        .list()
        .filter((p) => p.enabled && p.launcherActivity)
        .sort((a, b) => a.name.localeCompare(b.name))
    : [];
  if (found.length === 0) {
    await io.stdout('No activities found\n');
    return 0;
  }
  if (args.includes('--brief') || args.includes('--components')) {
    await io.stdout(`${found.map((p) => `${p.name}/${p.launcherActivity}`).join('\n')}\n`);
    return 0;
  }
  const blocks = found.map(
    (p, i) =>
      `  Activity #${i}:\n` +
      '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n' +
      '    ActivityInfo:\n' +
      `      name=${p.launcherActivity}\n` +
      `      packageName=${p.name}\n` +
      '      enabled=true exported=true directBootAware=false\n' +
      `      taskAffinity=${p.name} targetActivity=null persistableMode=PERSIST_ROOT_ONLY\n` +
      '      launchMode=0 flags=0x3 privateFlags=0x0 theme=0x0\n' +
      '      screenOrientation=-1 configChanges=0x0 softInputMode=0x0\n' +
      '      lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT\n' +
      '      resizeMode=RESIZE_MODE_RESIZEABLE\n',
  );
  await io.stdout(`${found.length} activities found:\n${blocks.join('')}`);
  return 0;
}

const SETTINGS_URI = /^content:\/\/settings\/(system|secure|global)$/;

function settingsTable(device: SimulatedDevice, uri: string | undefined): Map<string, string> | null {
  const match = uri ? SETTINGS_URI.exec(uri) : null;
  return match ? device.settings[match[1] as 'system' | 'secure' | 'global'] : null;
}

/** `--bind name:s:user_rotation` → ['name', 'user_rotation']. */
function parseBind(bind: string): [string, string] | null {
  const match = /^([^:]+):[sibflndv]:(.*)$/s.exec(bind);
  return match ? [match[1], match[2]] : null;
}

/** `--where "name='user_rotation'"`: the one form settings clients use. */
function whereName(where: string | undefined): string | null {
  if (where === undefined) return null;
  const match = /^\s*name\s*=\s*'([^']*)'\s*$/.exec(where) ?? /^\s*name\s*=\s*"([^"]*)"\s*$/.exec(where);
  return match ? match[1] : null;
}

const CONTENT_USAGE =
  'usage: adb shell content [subcommand] [options]\n\n' +
  'usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] [--extra <BINDING>...]\n' +
  'usage: adb shell content delete --uri <URI> [--user <USER_ID>] [--where <WHERE>]\n' +
  'usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]\n';

/** `content insert|query|delete --uri content://settings/<table> …` over the device's settings. */
export const contentCommand: CommandHandler = async ({ argv, io, device }) => {
  const [verb, ...args] = argv.slice(1);
  let uri: string | undefined;
  let where: string | undefined;
  let projection: string | undefined;
  const binds: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--uri') uri = args[++i];
    else if (a === '--where') where = args[++i];
    else if (a === '--projection') projection = args[++i];
    else if (a === '--bind') binds.push(args[++i] ?? '');
    else if (a === '--user' || a === '--sort' || a === '--extra') i++;
  }
  if (!verb || !['insert', 'query', 'delete', 'update'].includes(verb) || !uri) {
    await io.stderr(
      `[ERROR] ${verb ? 'Content provider URI not specified.' : 'Unsupported operation: null'}\n${CONTENT_USAGE}`,
    );
    return 1;
  }
  const table = settingsTable(device, uri);
  if (!table) {
    await io.stderr(
      `Error while accessing provider:${uri.replace(/^content:\/\//, '').split('/')[0]}\njava.lang.SecurityException: Unknown URI ${uri}\n`,
    );
    return 1;
  }
  const values = new Map(binds.map(parseBind).filter((b): b is [string, string] => b !== null));
  switch (verb) {
    case 'insert':
    case 'update': {
      const name = values.get('name') ?? whereName(where);
      if (name === null || name === undefined || !values.has('value')) {
        await io.stderr('java.lang.IllegalArgumentException: Must specify name and value\n');
        return 1;
      }
      table.set(name, values.get('value')!);
      return 0;
    }
    case 'delete': {
      const name = whereName(where);
      if (name !== null) table.delete(name);
      return 0;
    }
    default: {
      const name = whereName(where);
      const rows = [...table].filter(([key]) => name === null || key === name).sort(([a], [b]) => a.localeCompare(b));
      if (rows.length === 0) {
        await io.stdout('No result found.\n');
        return 0;
      }
      const columns = (projection ?? '_id:name:value').split(':').filter(Boolean);
      const lines = rows.map(([key, value], i) => {
        const cell = (column: string): string =>
          column === 'name' ? key : column === 'value' ? value : column === '_id' ? String(i + 1) : 'NULL';
        return `Row: ${i} ${columns.map((c) => `${c}=${cell(c)}`).join(', ')}`;
      });
      await io.stdout(`${lines.join('\n')}\n`);
      return 0;
    }
  }
};

/** `mv [-f] SRC... DEST`: files only (what clipboard helpers and pulls move), like toybox for that case. */
export const mvCommand: CommandHandler = async ({ argv, io, device, cwd }) => {
  const args = argv.slice(1).filter((a) => a !== '-f' && a !== '-n' && a !== '-v');
  if (args.length < 2) {
    await io.stderr('mv: Needs 2 arguments (see "mv --help")\n');
    return 1;
  }
  const dest = normalizePath(args[args.length - 1], cwd);
  const sources = args.slice(0, -1);
  const intoDir = device.fs.isDirectory(dest);
  if (sources.length > 1 && !intoDir) {
    await io.stderr(`mv: '${args[args.length - 1]}' not directory\n`);
    return 1;
  }
  let status = 0;
  for (const source of sources) {
    const from = normalizePath(source, cwd);
    const data = device.fs.readFile(from);
    if (data === null) {
      await io.stderr(
        `mv: ${source}: ${device.fs.isDirectory(from) ? 'Is a directory' : 'No such file or directory'}\n`,
      );
      status = 1;
      continue;
    }
    const to = intoDir ? `${dest}/${from.split('/').pop()}` : dest;
    const error = device.fs.checkWritable(to) ?? device.fs.checkWritable(from);
    if (error) {
      await io.stderr(`mv: ${to}: ${error}\n`);
      status = 1;
      continue;
    }
    device.fs.writeFile(to, data, (device.fs.stat(from)?.mode ?? 0o644) & 0o7777, Math.floor(device.clock() / 1000));
    device.fs.remove(from, false);
  }
  return status;
};

/** /proc/meminfo of an 8 GB phone, with the free memory the running apps leave. */
export function procMeminfo(device: SimulatedDevice): string {
  const totalKb = 7_824_636;
  const apps = device.processes.list().length;
  const freeKb = Math.max(180_000, 2_412_880 - apps * 9_000);
  const availableKb = freeKb + 2_106_664;
  const rows: [string, number][] = [
    ['MemTotal', totalKb],
    ['MemFree', freeKb],
    ['MemAvailable', availableKb],
    ['Buffers', 5_744],
    ['Cached', 2_237_072],
    ['SwapCached', 11_224],
    ['Active', 1_893_452],
    ['Inactive', 1_811_604],
    ['Active(anon)', 803_280],
    ['Inactive(anon)', 677_308],
    ['Active(file)', 1_090_172],
    ['Inactive(file)', 1_134_296],
    ['Unevictable', 167_064],
    ['Mlocked', 167_064],
    ['SwapTotal', 4_194_300],
    ['SwapFree', 3_941_116],
    ['Dirty', 212],
    ['Writeback', 0],
    ['AnonPages', 1_627_452],
    ['Mapped', 1_103_548],
    ['Shmem', 16_284],
    ['KReclaimable', 254_832],
    ['Slab', 522_812],
    ['SReclaimable', 171_592],
    ['SUnreclaim', 351_220],
    ['KernelStack', 87_440],
    ['ShadowCallStack', 21_868],
    ['PageTables', 142_048],
    ['CommitLimit', 8_106_616],
    ['Committed_AS', 141_232_856],
    ['VmallocTotal', 263_061_440],
    ['VmallocUsed', 116_872],
    ['VmallocChunk', 0],
    ['Percpu', 8_832],
    ['CmaTotal', 0],
    ['CmaFree', 0],
  ];
  return rows.map(([key, kb]) => `${`${key}:`.padEnd(16)}${String(kb).padStart(8)} kB`).join('\n') + '\n';
}
