import type { CommandHandler } from '../shell/command.js';
import { ADB_KEYBOARD_IME, ADB_KEYBOARD_PACKAGE, LATIN_IME } from '../input-methods.js';
import type { SimulatedDevice } from '../simulated-device.js';

/** Input methods installed on the device: the system keyboard, and ADBKeyboard when its app is installed. */
function installedInputMethods(device: SimulatedDevice): string[] {
  return device.packages.get(ADB_KEYBOARD_PACKAGE) ? [LATIN_IME, ADB_KEYBOARD_IME] : [LATIN_IME];
}

function enabledInputMethods(device: SimulatedDevice): string[] {
  const installed = installedInputMethods(device);
  const setting = device.settings.secure.get('enabled_input_methods');
  const enabled = setting ? setting.split(':').filter((id) => installed.includes(id)) : [LATIN_IME];
  return enabled.length > 0 ? enabled : [LATIN_IME];
}

/** `ime` (`cmd input_method`): list, enable, disable and set input methods, as Android 8+ answers. */
export const imeCommand: CommandHandler = async ({ argv, io, device }) => {
  const args = argv.slice(argv[0] === 'cmd' ? 2 : 1);
  const [verb, ...rest] = args;
  const installed = installedInputMethods(device);
  switch (verb) {
    case 'list': {
      const all = rest.includes('-a');
      const brief = rest.includes('-s');
      const ids = all ? installed : enabledInputMethods(device);
      if (brief) await io.stdout(ids.map((id) => `${id}\n`).join(''));
      else
        await io.stdout(
          ids
            .map(
              (id) =>
                `${id}:\n  mId=${id} mSettingsActivity=null mIsVrOnly=false mSupportsSwitchingToNextInputMethod=false\n`,
            )
            .join(''),
        );
      return 0;
    }
    case 'enable':
    case 'disable': {
      const id = rest.filter((a) => !a.startsWith('-'))[0];
      if (!id || !installed.includes(id)) {
        await io.stdout(`Unknown input method ${id ?? ''} cannot be ${verb}d for user #0\n`);
        return 0;
      }
      const enabled = new Set(enabledInputMethods(device));
      const was = enabled.has(id);
      if (verb === 'enable') enabled.add(id);
      else enabled.delete(id);
      device.settings.secure.set('enabled_input_methods', [...enabled].join(':'));
      await io.stdout(
        `Input method ${id}: ${verb === 'enable' ? (was ? 'already enabled' : 'now enabled') : was ? 'now disabled' : 'already disabled'} for user #0\n`,
      );
      return 0;
    }
    case 'set': {
      const id = rest.filter((a) => !a.startsWith('-'))[0];
      if (!id || !enabledInputMethods(device).includes(id)) {
        await io.stderr(`Unknown input method ${id ?? ''} cannot be selected for user #0\n`);
        return 0;
      }
      device.settings.secure.set('default_input_method', id);
      await io.stdout(`Input method ${id} selected for user #0\n`);
      return 0;
    }
    default:
      await io.stdout(
        'ime <command>:\n  list [-a] [-s]\n    prints all enabled input methods.\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]\n',
      );
      return verb === undefined || verb === 'help' ? 0 : 255;
  }
};

/** `dumpsys input_method`: the lines tools read (mCurMethodId, mInputShown) among the usual ones. */
export function inputMethodDump(device: SimulatedDevice): string {
  const shown = device.inputShown();
  const fg = device.am.foreground();
  return [
    'Current Input Method Manager state:',
    `  Input Methods: mMethodMapUpdateCount=2 mBindInstantServiceAllowed=false`,
    ...installedInputMethods(device).flatMap((id, i) => [`  InputMethod #${i}:`, `    mId=${id} mIsVrOnly=false`]),
    `  mCurMethodId=${device.currentInputMethod()}`,
    `  mCurFocusedWindow=Window{7c1e2a1 u0 ${fg ? `${fg.runtime.pkg.name}/${fg.screen.activity}` : 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity'}} softInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE`,
    `  mHaveConnection=true mBoundToMethod=true mVisibleBound=${shown}`,
    `  mShowRequested=${shown} mShowExplicitlyRequested=false mShowForced=false mInputShown=${shown}`,
    '',
  ].join('\n');
}
