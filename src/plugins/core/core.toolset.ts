import { inject, injectable } from 'inversify';
import { RunConfigurationCatalog } from '../../android/run-configurations/run-configuration-catalog.js';
import { RunPlanner } from '../../android/run-configurations/run-planner.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { SelectedProject } from '../../kernel/project-selection.js';
import { RuntimeOptions } from '../../kernel/runtime-options.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { TrustService } from './trust-service.js';
import { DeviceTools } from './services/device-tools.js';
import { HealthChecker } from './services/health-checker.js';
import { DebugSessionReader } from './services/debug-session-reader.js';
import { McpActivityReader } from './services/mcp-activity-reader.js';
import { ProjectInspector } from './services/project-inspector.js';
import { createCompareDebugSessionsTool } from './tools/compare-debug-sessions.tool.js';
import { createGetDebugSessionTool } from './tools/get-debug-session.tool.js';
import { createGetProjectInfoTool } from './tools/get-project-info.tool.js';
import { createListDebugSessionsTool } from './tools/list-debug-sessions.tool.js';
import { createListEventTypesTool } from './tools/list-event-types.tool.js';
import { createListMcpSessionsTool } from './tools/list-mcp-sessions.tool.js';
import { createListRunConfigurationsTool } from './tools/list-run-configurations.tool.js';
import { createQueryEventsTool } from './tools/query-events.tool.js';
import { createRunHealthCheckTool } from './tools/run-health-check.tool.js';

/** Project, health, audit queries, and the read-only device and app tools. */
@injectable()
export class CoreToolset implements ToolsetContribution {
  readonly name = 'core' as const;
  readonly description =
    'Project facts and trust status, toolchain health, the audit log of everything droidwright did, which agent sessions are active, and debug sessions (what happened to each install).';

  constructor(
    @inject(SelectedProject) private readonly project: SelectedProject,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(TrustService) private readonly trust: TrustService,
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(ProjectInspector) private readonly inspector: ProjectInspector,
    @inject(McpActivityReader) private readonly activity: McpActivityReader,
    @inject(HealthChecker) private readonly checker: HealthChecker,
    @inject(DeviceTools) private readonly deviceTools: DeviceTools,
    @inject(DebugSessionReader) private readonly sessions: DebugSessionReader,
    @inject(RunConfigurationCatalog) private readonly runConfigurations: RunConfigurationCatalog,
    @inject(RunPlanner) private readonly runPlanner: RunPlanner,
  ) {}

  tools(): readonly AnyToolDefinition[] {
    return [
      createGetProjectInfoTool({
        project: this.project,
        inspector: this.inspector,
        trust: this.trust,
        activity: this.activity,
        dataDir: this.options.home,
      }),
      createRunHealthCheckTool({ checker: this.checker }),
      createQueryEventsTool({ store: this.store }),
      createListEventTypesTool({ store: this.store }),
      createListMcpSessionsTool({ activity: this.activity }),
      createListDebugSessionsTool({ sessions: this.sessions }),
      createGetDebugSessionTool({ sessions: this.sessions }),
      createCompareDebugSessionsTool({ sessions: this.sessions }),
      ...this.deviceTools.tools(),
      createListRunConfigurationsTool({
        project: this.project,
        catalog: this.runConfigurations,
        planner: this.runPlanner,
        trust: this.trust,
      }),
    ];
  }
}
