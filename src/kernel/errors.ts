/**
 * The one error catalog: every code here is thrown somewhere. A refused or failed call becomes an
 * `isError` tool result carrying one of these stable codes (invalid arguments and policy refusals
 * included); JSON-RPC errors are kept for unknown tools and malformed requests; anything else is a bug.
 */
export const ErrorCodes = {
  NO_DEVICE: 'No online device is visible to adb.',
  DEVICE_OFFLINE: 'The requested device is listed by adb but not online.',
  DEVICE_UNAUTHORIZED: 'The device has not authorized this computer for USB debugging.',
  DEVICE_NOT_FOUND: 'adb does not list the requested serial.',
  MULTIPLE_DEVICES: 'Several devices are online and no serial was given.',
  APP_NOT_INSTALLED: 'The package is not installed on the device.',
  PACKAGE_OUT_OF_SCOPE: "The package is not one of the project's application ids.",
  PROJECT_NOT_FOUND: 'No Gradle project is selected.',
  PROJECT_NOT_TRUSTED: 'The project has not been trusted with `droidwright trust`.',
  PATH_OUTSIDE_PROJECT: 'The path resolves outside the project.',
  BUILD_IN_PROGRESS: 'Another build of this project is running.',
  BUILD_NOT_FOUND: 'No build with that id.',
  BUILD_FAILED: 'The build failed.',
  TESTS_FAILED: 'Tests ran and some failed; the result names each with its message and location.',
  TASK_BLOCKED: 'The Gradle task is blocked by policy.',
  TOOL_DISABLED: 'The tool is not served by this session.',
  TIMEOUT: 'The operation timed out.',
  CANCELLED: 'The operation was cancelled.',
  NOT_FOUND: 'The requested item does not exist.',
  SESSION_NOT_FOUND: 'No debug session with that id (list_debug_sessions lists them).',
  SESSION_PRUNED: 'The debug session existed but was pruned from the read model (only the newest sessions are kept).',
  INVALID_ARGUMENT: 'An argument is well-formed but not acceptable here.',
  ADB_UNAVAILABLE: 'adb could not be found or its server could not be reached.',
  COMMAND_FAILED: 'A command on the device or host failed.',
  INSTALL_FAILED: 'The package manager refused the APK.',
  LAUNCH_FAILED: 'The activity manager could not start the app.',
  STORE_UNAVAILABLE: 'The event log could not be opened or written; a call that changes something does not run then.',
  UI_BUSY:
    "The device's UI Automator is in use: another droidwright process is capturing it, or another client (a running instrumentation test) holds it.",
  UI_CAPTURE_TIMEOUT: 'The screen could not be captured within the deadline (the app never became idle).',
  ASSERTION_FAILED: 'A checked condition on the device (an element visible, enabled, checked, absent) did not hold.',
  MAPPING_NOT_FOUND:
    'No R8 mapping file of the build that crashed could be found (not minified, not recorded, or changed on disk).',
  RETRACE_REFUSED:
    'The build that crashed could not be identified with certainty, so no mapping was applied; the reason says why.',
  CONFIRMATION_DECLINED:
    'The server runs with --confirm and the person declined or cancelled the confirmation (or it went unanswered); nothing ran.',
  CONFIRMATION_UNAVAILABLE:
    'The server runs with --confirm but the client cannot ask the person (no elicitation capability); nothing ran.',
  RESPONSE_TOO_LARGE: 'The result exceeded the 128 KiB response bound and was withheld (a droidwright bug).',
  SCREEN_CHANGED: 'The screen no longer matches expect_screen_hash; nothing was done (the new hash is in the details).',
  ELEMENT_NOT_FOUND: 'No element on the current screen matches the target.',
  ELEMENT_AMBIGUOUS: 'Several elements match the target; the candidates are named and none was acted on.',
  ELEMENT_DISABLED: 'The target element is disabled; acting on it would do nothing.',
  ELEMENT_NOT_VISIBLE: 'The target element is not on the screen (invisible, of zero size or scrolled out).',
  ELEMENT_NOT_EDITABLE: 'The target element is not a text field.',
  CONFIGURATION_INVALID:
    "A run configuration cannot be used as written: the project's shared file breaks its format, or names a module or variant the project lacks.",
  CONFIGURATION_NOT_APPROVED:
    "A shared run configuration's file was never approved by the user, or changed since it was (`droidwright runconfig approve`).",
  AVD_NOT_RUNNING: 'The run configuration targets an AVD no running emulator serves; call launch_avd first.',
  INPUT_METHOD_MISSING:
    'The device has no way to type this text: neither an input method that takes broadcasts nor a clipboard helper is installed.',
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** A failure the caller can act on. `message` must say what failed and what to do next. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * Arguments that break a rule (shape, range, policy before anything runs). The MCP adapter turns it
 * into an `isError` result naming `field` and the rule, recorded in the audit log as a refusal.
 */
export class InvalidArgumentsError extends Error {
  override readonly name = 'InvalidArgumentsError';
  constructor(
    message: string,
    readonly code: ErrorCode = 'INVALID_ARGUMENT',
    readonly field?: string,
  ) {
    super(message);
  }
}

export function isToolError(e: unknown): e is ToolError {
  return e instanceof ToolError;
}
