import 'reflect-metadata';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { Container, type ContainerModule } from 'inversify';
import {
  EventContribution,
  type EventDefinition,
  type Projection,
  type StoreTable,
} from '../events/event-definition.js';
import { EventCatalog } from '../events/event-catalog.js';
import { EventStore, StoreUnavailableError } from '../events/event-store.js';
import { EventWitness } from '../events/event-witness.js';
import { redactLocation } from '../events/postgres/postgres-location.js';
import { getContributions } from './contribution-provider.js';
import { ToolError } from './errors.js';
import { EventStoreProvider } from './event-store-provider.js';
import { ProcessRunner } from './process-runner.js';
import { selectProject, SelectedProject } from './project-selection.js';
import { RuntimeOptions } from './runtime-options.js';
import { Settings } from './settings.js';
import { eventLogLocation, isPostgresStore, witnessPath } from './store-location.js';
import { ToolRegistry } from './tool-registry.js';
import { ToolsetContribution } from './toolset-contribution.js';
import { ProjectTrustPolicy } from './project-trust-policy.js';
import { ToolCallPolicy } from './tool-call-policy.js';

/** Every event type, projection and side table the loaded plugins contribute. */
export function collectEventContributions(container: Container): {
  events: EventDefinition[];
  projections: Projection[];
  tables: StoreTable[];
} {
  const contributions = getContributions<EventContribution>(container, EventContribution);
  return {
    events: contributions.flatMap((c) => [...c.events()]),
    projections: contributions.flatMap((c) => [...c.projections()]),
    tables: contributions.flatMap((c) => [...(c.tables?.() ?? [])]),
  };
}

/**
 * Opens the log (the SQLite file in the data directory, or the store `--store` / $DROIDWRIGHT_STORE chose),
 * turning every failure (missing directory, unwritable home, corrupt file, unreachable server) into one
 * actionable error. A PostgreSQL URL is shown only without its password.
 */
function openStore(container: Container, options: RuntimeOptions): EventStore {
  const location = eventLogLocation(options);
  const remote = isPostgresStore(location);
  const shown = remote ? redactLocation(location) : location;
  if (existsSync(options.home) && !statSync(options.home).isDirectory()) {
    throw new ToolError(
      'STORE_UNAVAILABLE',
      `The data directory ${options.home} is a file, not a directory. Move it or set DROIDWRIGHT_HOME to a directory.`,
      { path: shown },
    );
  }
  try {
    // The data directory holds this machine's witness of the log even when the log itself is remote; there, a
    // directory that cannot be made costs only the witness (which reports that itself), not the log.
    try {
      mkdirSync(options.home, { recursive: true });
    } catch (error) {
      if (!remote) throw error;
    }
    const { events, projections, tables } = collectEventContributions(container);
    return EventStore.open({ path: location, catalog: new EventCatalog(events), projections, tables });
  } catch (error) {
    // The store's own failure already says what to do; the adapter maps it to STORE_UNAVAILABLE.
    if (error instanceof ToolError || error instanceof StoreUnavailableError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ToolError(
      'STORE_UNAVAILABLE',
      remote
        ? `Cannot open the event log at ${shown}: ${reason}. Check that the role may create and write tables in that database (droidwright creates its schema on first use), or run \`droidwright doctor\`.`
        : `Cannot open the event log at ${location}: ${reason}. Check that ${options.home} is writable and the file is a droidwright database (set DROIDWRIGHT_HOME to use another directory).`,
      { path: shown },
    );
  }
}

/** Lets shutdown close the store (and write its witness) only if something opened it. */
const OpenedStore = Symbol.for('droidwright.OpenedStore');
interface OpenedStore {
  current(): EventStore | undefined;
  witness(): EventWitness | undefined;
}

/**
 * The one place objects are wired. Kernel services are singletons; each plugin adds its bindings
 * through its ContainerModule. Nothing here opens the database until something calls the
 * EventStoreProvider (inject that: EventStore's constructor is private, so it is not a DI token).
 */
export function createContainer(options: RuntimeOptions, modules: readonly ContainerModule[]): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(RuntimeOptions).toConstantValue(options);
  container.bind(Settings).toSelf().inSingletonScope();
  container.bind(ProcessRunner).toSelf().inSingletonScope();
  // Trust itself is the core plugin's (ProjectTrust); the policy that enforces it is everyone's.
  container.bind<ToolCallPolicy>(ToolCallPolicy).to(ProjectTrustPolicy).inSingletonScope();
  container
    .bind<SelectedProject>(SelectedProject)
    .toDynamicValue(() => selectProject({ projectPath: options.projectPath, cwd: options.cwd }))
    .inSingletonScope();

  let store: EventStore | undefined;
  let witness: EventWitness | undefined;
  const provideStore: EventStoreProvider = () => {
    if (store) return store;
    store = openStore(container, options);
    // Every process that appends leaves the head it reached outside the database (see docs/event-log.md),
    // on this machine, in a file of this store's own: a remote log is witnessed by every machine that writes it.
    witness = EventWitness.attach(store, witnessPath(options.home, options.store));
    return store;
  };
  container.bind(EventStoreProvider).toConstantValue(provideStore);
  container.bind(OpenedStore).toConstantValue({ current: () => store, witness: () => witness });

  container
    .bind(ToolRegistry)
    .toDynamicValue(() => new ToolRegistry(getContributions<ToolsetContribution>(container, ToolsetContribution)))
    .inSingletonScope();

  container.load(...modules);
  return container;
}

/** Closes what the container opened (the database). Safe to call more than once. */
export function disposeContainer(container: Container): void {
  const handles = container.get<OpenedStore>(OpenedStore);
  handles.witness()?.close();
  const opened = handles.current();
  if (!opened) return;
  try {
    opened.close();
  } catch {
    // Already closed.
  }
}
