// Each command's runner, imported only when that command runs: esbuild splits every import() here into its own
// chunk, so `droidwright mcp` never loads what only other commands need (Ink/React, the simulator, sharp).
// One line per command and subcommand of command-specs.ts, keyed by its path; a test checks they match.
import type { CommandLoader } from './command-line.js';

export const commandLoaders: Readonly<Record<string, CommandLoader>> = {
  setup: async () => (await import('./setup-command.js')).runSetupCommand,
  doctor: async () => (await import('./doctor-command.js')).runDoctorCommand,
  mcp: async () => (await import('./mcp-command.js')).runMcpCommand,
  'events list': async () => (await import('./events-command.js')).runEventsList,
  'events tail': async () => (await import('./events-command.js')).runEventsTail,
  'events trace': async () => (await import('./events-command.js')).runEventsTrace,
  'events verify': async () => (await import('./events-command.js')).runEventsVerify,
  'events digest': async () => (await import('./events-command.js')).runEventsDigest,
  'events export': async () => (await import('./events-command.js')).runEventsExport,
  'events migrate': async () => (await import('./events-migrate-command.js')).runEventsMigrate,
  'events stats': async () => (await import('./events-command.js')).runEventsStats,
  'events rebuild': async () => (await import('./events-command.js')).runEventsRebuild,
  trust: async () => (await import('./trust-command.js')).runTrustCommand,
  untrust: async () => (await import('./trust-command.js')).runUntrustCommand,
  'sessions list': async () => (await import('./sessions-command.js')).runSessionsList,
  'sessions show': async () => (await import('./sessions-command.js')).runSessionsShow,
  'sessions export': async () => (await import('./sessions-command.js')).runSessionsExport,
  'sessions verify': async () => (await import('./sessions-command.js')).runSessionsVerify,
  'runconfig list': async () => (await import('./runconfig-command.js')).runRunconfigList,
  'runconfig approve': async () => (await import('./runconfig-command.js')).runRunconfigApprove,
  tui: async () => (await import('../tui/tui-command.js')).runTuiCommand,
  docs: async () => (await import('./docs-command.js')).runDocsCommand,
  retrace: async () => (await import('./retrace-command.js')).runRetraceCommand,
  sim: async () => (await import('../sim/sim-command.js')).runSimCommand,
  demo: async () => (await import('../demo/demo-command.js')).runDemoCommand,
  logcat: async () => (await import('../plugins/logcat/logcat-command.js')).runLogcatCommand,
  completion: async () => (await import('./completion-command.js')).runCompletionCommand,
  __complete: async () => (await import('./completion-command.js')).runCompleteCommand,
  'build-worker': async () => (await import('../plugins/build/build-worker-command.js')).runBuildWorkerCommand,
  'logcat-worker': async () => (await import('../plugins/logcat/logcat-worker-command.js')).runLogcatWorkerCommand,
};
