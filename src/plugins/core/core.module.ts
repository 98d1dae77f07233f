import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { ProjectTrust } from '../../kernel/project-trust.js';
import { ResourceTemplateContribution } from '../../kernel/resource-template-contribution.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { coreEvents } from './core.events.js';
import { CoreToolset } from './core.toolset.js';
import { debugSessionsProjection } from './debug-sessions.projection.js';
import { debugSessionResourceTemplate } from './debug-sessions-resource.js';
import { mcpActivityProjection } from './mcp-activity.projection.js';
import { DebugSessionReader } from './services/debug-session-reader.js';
import { DeviceTools } from './services/device-tools.js';
import { HealthChecker } from './services/health-checker.js';
import { McpActivityReader } from './services/mcp-activity-reader.js';
import { ProjectInspector } from './services/project-inspector.js';
import { TrustService } from './trust-service.js';
import { trustedProjectsProjection } from './trusted-projects.projection.js';

const coreEventContribution: EventContribution = {
  events: () => coreEvents,
  projections: () => [trustedProjectsProjection, mcpActivityProjection, debugSessionsProjection],
};

export const coreModule = new ContainerModule(({ bind }) => {
  bind(TrustService).toSelf().inSingletonScope();
  bind<ProjectTrust>(ProjectTrust).toService(TrustService);
  bind(ProjectInspector).toSelf().inSingletonScope();
  bind(McpActivityReader).toSelf().inSingletonScope();
  bind(HealthChecker).toSelf().inSingletonScope();
  bind(DebugSessionReader).toSelf().inSingletonScope();
  bind(DeviceTools).toSelf().inSingletonScope();
  bind(CoreToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(CoreToolset);
  bind<EventContribution>(EventContribution).toConstantValue(coreEventContribution);
  bind<ResourceTemplateContribution>(ResourceTemplateContribution).toConstantValue(debugSessionResourceTemplate);
});
