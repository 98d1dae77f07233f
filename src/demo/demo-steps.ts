/** What the scripted demo session knows as it goes: the device, the project, what earlier calls returned. */
export interface DemoState {
  serial: string;
  projectDir: string;
  apkPath?: string;
}

export interface DemoStep {
  readonly tool: string;
  /** One line telling the newcomer why an agent makes this call. */
  readonly why: string;
  args(state: DemoState): Record<string, unknown>;
  /** A refusal the demo shows on purpose. */
  readonly expectError?: boolean;
  after?(result: Record<string, unknown>, state: DemoState): void;
}

const PACKAGE = 'com.example.notes';

/** The main path of every toolset, in the order an agent would take it. */
export const demoSteps: readonly DemoStep[] = [
  { tool: 'get_project_info', why: 'Which project is this, and is it trusted to build?', args: () => ({}) },
  { tool: 'list_devices', why: 'Which devices can I act on?', args: () => ({}) },
  { tool: 'get_device_info', why: 'What is this device?', args: (s) => ({ device_serial: s.serial }) },
  { tool: 'list_build_variants', why: 'What can this project build?', args: () => ({}) },
  {
    tool: 'run_gradle_task',
    why: 'Build the debug APK (the demo project ships a stand-in gradlew; no Android SDK is needed).',
    args: () => ({ task: 'assembleDebug' }),
  },
  {
    tool: 'find_apk_path',
    why: 'Where is the APK that build wrote?',
    args: () => ({ variant: 'debug' }),
    after: (result, state) => {
      if (typeof result.path === 'string') state.apkPath = result.path;
    },
  },
  {
    tool: 'install_apk',
    why: 'Install it; the log ties the install to the build that made it.',
    args: (s) => ({ device_serial: s.serial, apk_path: s.apkPath ?? '' }),
  },
  {
    tool: 'launch_app',
    why: 'Start the app and measure the launch.',
    args: (s) => ({ device_serial: s.serial, package: PACKAGE }),
  },
  {
    tool: 'get_app_runtime_state',
    why: 'Is it running, and what is in the foreground?',
    args: (s) => ({ device_serial: s.serial, package: PACKAGE }),
  },
  {
    tool: 'set_device_orientation',
    why: 'Rotate to landscape to check the layout.',
    args: (s) => ({ device_serial: s.serial, orientation: 'landscape' }),
  },
  {
    tool: 'set_network_state',
    why: 'Go offline to test the app without a network (allowed on an emulator; over wireless adb it would cut adb off).',
    args: (s) => ({ device_serial: s.serial, airplane_mode: true }),
  },
  {
    tool: 'set_network_state',
    why: 'And back online.',
    args: (s) => ({ device_serial: s.serial, airplane_mode: false }),
  },
  {
    tool: 'open_deep_link',
    why: 'Policy at work: a javascript: link is refused before anything reaches the device.',
    args: (s) => ({ device_serial: s.serial, uri: 'javascript:alert(1)' }),
    expectError: true,
  },
  {
    tool: 'restart_app',
    why: 'Restart the app and read the Displayed time from logcat.',
    args: (s) => ({ device_serial: s.serial, package: PACKAGE }),
  },
  {
    tool: 'stop_app',
    why: 'Stop it again.',
    args: (s) => ({ device_serial: s.serial, package: PACKAGE }),
  },
  {
    tool: 'query_events',
    why: 'An agent can read the audit log too: what happened to this app?',
    args: () => ({ package: PACKAGE, limit: 10 }),
  },
];
