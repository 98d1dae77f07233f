import type { PromptArgument, PromptDefinition } from './prompt-definition.js';

const deviceSerial = (required: boolean): PromptArgument => ({
  name: 'device_serial',
  description: required
    ? 'adb serial of the device to work on (list_devices shows them).'
    : 'adb serial of the device; leave empty when only one device is online.',
  required,
  rule: 'device_serial',
});

/**
 * The prompts droidwright serves. Each is a plan a model can follow step by step; the server lists one
 * only when the tools of its required steps are served. `test/unit/mcp/prompts.test.ts` fails when a
 * step names a tool or parameter the registry does not have, so extend these freely when tools arrive.
 */
export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'diagnose-crash',
    title: 'Diagnose a crash',
    description:
      'Find why an app crashed or stopped responding, from the recorded crash, the exit history and the log.',
    arguments: [
      {
        name: 'package',
        description: 'Application id of the app that crashed, e.g. com.example.app.',
        required: true,
        rule: 'package',
      },
      deviceSerial(false),
    ],
    goal: 'Find out why {package} crashed on {device_serial} and what in the code causes it. Follow these steps in order and stop once the cause is clear.',
    steps: [
      {
        tool: 'get_crash_logs',
        args: { package: { arg: 'package' }, device_serial: { arg: 'device_serial' } },
        look: 'Take the newest crash group (its crash_group_id, count and the build installed then).',
      },
      {
        tool: 'get_crash_stack_trace',
        args: { package: { arg: 'package' }, crash_group_id: { from: 'crash_group_id from get_crash_logs' } },
        look: 'Read the exception and the first frames in the app’s own code, and the log lines around it.',
      },
      {
        tool: 'get_crash_stack_trace',
        args: {
          package: { arg: 'package' },
          crash_group_id: { from: 'the same crash_group_id' },
          retrace: { value: true },
        },
        when: 'the frames look obfuscated (short names such as a.b.c)',
        look: 'Use the deobfuscated frames; a refusal says why the mapping of that exact build is not available.',
      },
      {
        tool: 'get_exit_reasons',
        args: { package: { arg: 'package' }, device_serial: { arg: 'device_serial' } },
        when: 'no crash was recorded, or to see ANRs and native crashes that never reached the log',
        look: 'Look at the newest exits with reason CRASH, CRASH_NATIVE or ANR.',
        optional: true,
      },
      {
        tool: 'get_logcat_entries',
        args: {
          package: { arg: 'package' },
          device_serial: { arg: 'device_serial' },
          min_level: { value: 'W' },
          count: { value: 200 },
        },
        look: 'Read the warnings and errors the app logged before the crash.',
      },
      {
        tool: 'get_memory_info',
        args: { package: { arg: 'package' }, device_serial: { arg: 'device_serial' } },
        when: 'the trace shows OutOfMemoryError',
        look: 'Compare the Java and native heaps.',
        optional: true,
      },
      {
        tool: 'dump_app_info',
        args: { package: { arg: 'package' }, device_serial: { arg: 'device_serial' } },
        look: 'Check the installed version and its flags, so you fix the code that was actually running.',
        optional: true,
      },
    ],
    finish:
      'Report the cause with the evidence (exception, frame, log line) and the change you propose. Do not reinstall, restart or clear anything without asking.',
  },
  {
    name: 'full-deploy',
    title: 'Build, install and launch',
    description: 'Build the app, install the APK on a device, launch it and check it starts without crashing.',
    arguments: [
      deviceSerial(true),
      {
        name: 'variant',
        description: 'Build variant, e.g. debug or demoDebug (default debug).',
        required: false,
        rule: 'variant',
        default: 'debug',
      },
    ],
    goal: 'Build the {variant} variant, install it on {device_serial} and launch it. Follow these steps in order; stop and report at the first failure.',
    steps: [
      {
        tool: 'get_project_info',
        look: 'Note the application id of the app module. When trusted is false, show the user trust_hint and stop: only they can trust the project.',
      },
      {
        tool: 'list_devices',
        look: 'Check that the device is listed with state "device"; if not, tell the user what its state means.',
      },
      {
        tool: 'start_logcat',
        args: { device_serial: { arg: 'device_serial' } },
        look: 'The device log is now stored, so a crash at start-up is caught.',
        optional: true,
      },
      {
        tool: 'run_gradle_task',
        args: { task: { value: 'assemble' }, variant: { arg: 'variant' } },
        look: 'Wait for the result; note build_id.',
      },
      {
        tool: 'get_build_errors',
        args: { build_id: { from: 'build_id from run_gradle_task' } },
        when: 'the build failed',
        look: 'Report the errors with their files and lines, and stop.',
      },
      {
        tool: 'find_apk_path',
        args: { variant: { arg: 'variant' } },
        look: 'Take path.',
      },
      {
        tool: 'install_apk',
        args: { device_serial: { arg: 'device_serial' }, apk_path: { from: 'path from find_apk_path' } },
        look: 'Check it installed.',
      },
      {
        tool: 'launch_app',
        args: {
          device_serial: { arg: 'device_serial' },
          package: { from: 'the application id from get_project_info' },
        },
        look: 'Note the launch time and any warning.',
      },
      {
        tool: 'get_crash_logs',
        args: {
          package: { from: 'the same application id' },
          device_serial: { arg: 'device_serial' },
        },
        look: 'Confirm no new crash appeared after the launch; if one did, diagnose it before anything else.',
        optional: true,
      },
    ],
    finish: 'Report the build id, the APK installed, and how the app started.',
  },
  {
    name: 'build-and-fix',
    title: 'Build and fix errors',
    description: 'Run a Gradle task, read its structured errors, fix the code and build again until it passes.',
    arguments: [
      {
        name: 'task',
        description: 'Gradle task to run, e.g. assembleDebug or :app:compileDebugKotlin (default assembleDebug).',
        required: false,
        rule: 'gradle_task',
        default: 'assembleDebug',
      },
    ],
    goal: 'Make {task} pass. Repeat the steps until it does, or until the same error comes back twice.',
    steps: [
      {
        tool: 'get_project_info',
        look: 'When trusted is false, show the user trust_hint and stop: a build runs the project’s code and only they can allow it.',
      },
      {
        tool: 'run_gradle_task',
        args: { task: { arg: 'task' } },
        look: 'Wait for the result; note build_id and status.',
      },
      {
        tool: 'get_build_errors',
        args: { build_id: { from: 'build_id from run_gradle_task' }, severity: { value: 'error' } },
        when: 'the build failed',
        look: 'Fix the first errors at their file and line in the source; a later error is often caused by an earlier one.',
      },
      {
        tool: 'get_build_log',
        args: { build_id: { from: 'the same build_id' }, filter: { from: 'a word from the failure' } },
        when: 'the errors do not explain the failure (a Gradle or configuration problem)',
        look: 'Read the log lines around it.',
      },
      {
        tool: 'run_gradle_task',
        args: { task: { arg: 'task' } },
        when: 'you changed the code',
        look: 'Build again and compare the errors with the previous build.',
      },
    ],
    finish:
      'Report what you changed and why, and the final build status. Do not edit build scripts to silence an error.',
  },
  {
    name: 'test-ui-flow',
    title: 'Test a UI flow',
    description: 'Drive the app on a device through a described flow, checking each screen, and report what worked.',
    arguments: [
      {
        name: 'flow',
        description: 'The flow to test in plain words, e.g. "log in as demo@example.com and open Settings".',
        required: true,
        rule: 'free_text',
      },
      deviceSerial(false),
    ],
    goal: 'Test this flow on {device_serial}: {flow}. Act one step at a time and check the screen after each.',
    steps: [
      {
        tool: 'get_ui_hierarchy',
        args: { device_serial: { arg: 'device_serial' } },
        look: 'See where the app is; note screen_hash.',
      },
      {
        tool: 'ui_tap_element',
        args: {
          device_serial: { arg: 'device_serial' },
          text: { from: 'the element’s text' },
          expect_screen_hash: { from: 'the last screen_hash' },
        },
        look: 'Tap the next control of the flow; the result lists what changed and the new screen_hash.',
      },
      {
        tool: 'ui_fill_input',
        args: {
          device_serial: { arg: 'device_serial' },
          resource_id: { from: 'the field’s resource id' },
          value: { from: 'the text to enter' },
          expect_screen_hash: { from: 'the last screen_hash' },
        },
        when: 'the flow enters text',
        look: 'Fill one field at a time.',
      },
      {
        tool: 'wait_for_element',
        args: { device_serial: { arg: 'device_serial' }, text_contains: { from: 'what the next screen shows' } },
        when: 'the app loads or animates',
        look: 'Continue once it appears; a timeout means the flow is stuck there.',
      },
      {
        tool: 'ui_assert_element',
        args: {
          device_serial: { arg: 'device_serial' },
          text_contains: { from: 'the expected text' },
          expect: { value: 'visible' },
        },
        look: 'Check each expected outcome of the flow.',
      },
      {
        tool: 'screenshot',
        args: { device_serial: { arg: 'device_serial' } },
        when: 'a step fails or the screen is unexpected',
        look: 'Look at the screen itself.',
      },
      {
        tool: 'get_crash_logs',
        args: { device_serial: { arg: 'device_serial' } },
        when: 'the app vanished from the screen',
        look: 'It may have crashed: report the crash instead of retrying.',
        optional: true,
      },
    ],
    finish:
      'Report each step of the flow as passed or failed, with the screen row or assertion that shows it. Do not clear data or reinstall without asking.',
  },
];
