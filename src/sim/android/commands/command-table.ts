import type { CommandHandler } from '../shell/command.js';
import { amCommand, monkeyCommand } from './am-command.js';
import { BASIC_COMMANDS } from './basic-commands.js';
import { dumpsysCommand } from './dumpsys-command.js';
import { imeCommand } from './ime-commands.js';
import { logcatCommand } from './logcat-command.js';
import { contentCommand, mvCommand, queryActivities } from './peer-commands.js';
import { pmCommand } from './pm-command.js';
import { connectivityCommand, settingsCommand, svcCommand, wmCommand } from './settings-commands.js';
import { inputCommand, screencapCommand, uiautomatorCommand } from './ui-commands.js';

/** `cmd <service> …`: the binder shell-command entry point the framework tools wrap. */
const cmdCommand: CommandHandler = async (ctx) => {
  const service = ctx.argv[1];
  switch (service) {
    case 'package':
      if (ctx.argv[2] === 'query-activities') return queryActivities(ctx.argv.slice(3), ctx);
      return pmCommand(ctx);
    case 'activity':
      return amCommand(ctx);
    case 'settings':
      return settingsCommand(ctx);
    case 'window':
      return wmCommand(ctx);
    case 'input':
      return inputCommand(ctx);
    case 'input_method':
      return imeCommand(ctx);
    case 'connectivity':
    case 'wifi':
      return connectivityCommand(ctx);
    case '-l':
      await ctx.io.stdout(
        `${['activity', 'connectivity', 'input', 'input_method', 'package', 'settings', 'wifi', 'window'].join('\n')}\n`,
      );
      return 0;
    case undefined:
      await ctx.io.stderr(
        'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n',
      );
      return 20;
    default:
      await ctx.io.stderr(`cmd: Can't find service: ${service}\n`);
      return 20;
  }
};

export const COMMANDS: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
  ...Object.entries(BASIC_COMMANDS),
  ['pm', pmCommand],
  ['am', amCommand],
  ['cmd', cmdCommand],
  ['monkey', monkeyCommand],
  ['dumpsys', dumpsysCommand],
  ['settings', settingsCommand],
  ['svc', svcCommand],
  ['wm', wmCommand],
  ['input', inputCommand],
  ['ime', imeCommand],
  ['uiautomator', uiautomatorCommand],
  ['screencap', screencapCommand],
  ['logcat', logcatCommand],
  ['content', contentCommand],
  ['mv', mvCommand],
]);
