import Database from 'better-sqlite3';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliActor, thisHost, type Actor } from '../../../src/shared/actor.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { getContributions } from '../../../src/kernel/contribution-provider.js';
import { ProjectTrust } from '../../../src/kernel/project-trust.js';
import { checkToolCall, ToolCallPolicy } from '../../../src/kernel/tool-call-policy.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { SelectedProject } from '../../../src/kernel/project-selection.js';
import { ToolRegistry } from '../../../src/kernel/tool-registry.js';
import { TrustService } from '../../../src/plugins/core/trust-service.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { McpSessionStarted, McpToolCalled } from '../../../src/plugins/core/core.events.js';

describe('container, trust service and core read models on a real SQLite file', () => {
  const temp = createTempHome('trust');
  afterAll(() => temp.cleanup());

  test('trust is recorded as events, read by every container on the same home, and survives a rebuild', () => {
    const root = createFakeGradleProject(temp.home, 'app-project');
    symlinkSync(root, join(temp.home, 'link'));
    const first = createContainer({ home: temp.home, cwd: root, readOnly: false, env: process.env }, pluginModules);
    const second = createContainer(
      { home: temp.home, cwd: temp.home, projectPath: 'link', readOnly: false, env: process.env },
      pluginModules,
    );
    try {
      expect(first.get<SelectedProject>(SelectedProject)).toEqual({ root, selectedBy: 'cwd' });
      expect(second.get<SelectedProject>(SelectedProject)).toEqual({ root, selectedBy: 'flag' });
      const trust = first.get(TrustService);
      expect(trust.isTrusted(root)).toBe(false);
      expect(trust.trust(join(temp.home, 'link'), cliActor())).toBe(true);
      expect(trust.trust(root, cliActor())).toBe(false);
      // Another process (container) sees it at once.
      expect(second.get(TrustService).isTrusted(root)).toBe(true);
      expect(trust.list()).toEqual([
        { root, trustedAt: expect.any(Number), by: `cli (pid ${process.pid} on ${thisHost()})` },
      ]);

      const store = first.get<EventStoreProvider>(EventStoreProvider)();
      const events = store.query({ types: ['project.*'], order: 'asc' });
      expect(events.map((e) => [e.type, e.actor.kind, (e.data as { root: string }).root])).toEqual([
        ['project.trusted', 'cli', root],
      ]);

      const agent: Actor = { kind: 'agent', session: 's1', client: 'c', pid: process.pid };
      store.append(
        McpSessionStarted,
        {
          session: 's1',
          client_name: 'c',
          client_version: '1',
          protocol_version: 'p',
          pid: process.pid,
          toolsets: ['core'],
          read_only: false,
          project_root: root,
        },
        { stream: 'mcp:s1', actor: agent },
      );
      store.append(
        McpToolCalled,
        {
          session: 's1',
          tool: 'get_x',
          toolset: 'core',
          kind: 'R',
          outcome: 'error',
          error_code: 'NO_DEVICE',
          duration_ms: 3,
          summary: 's',
          arguments: {},
        },
        { stream: 'mcp:s1', actor: agent },
      );
      expect(second.get(TrustService).untrust(root, cliActor())).toBe(true);
      expect(trust.isTrusted(root)).toBe(false);

      const snapshot = () => ({
        trusted: store.prepareRead('SELECT * FROM trusted_projects ORDER BY root').all(),
        sessions: store.prepareRead('SELECT * FROM mcp_sessions ORDER BY session').all(),
        calls: store.prepareRead('SELECT * FROM mcp_tool_calls ORDER BY seq').all(),
      });
      const live = snapshot();
      expect(live.sessions).toEqual([
        expect.objectContaining({ session: 's1', calls: 1, errors: 1, refused: 0, ended_at: null }),
      ]);
      store.rebuildProjections();
      expect(snapshot()).toEqual(live);
    } finally {
      disposeContainer(first);
      disposeContainer(second);
    }
  });

  test('trust is decided from the log: a trusted_projects row inserted by hand grants nothing', async () => {
    const root = createFakeGradleProject(temp.home, 'forged-project');
    const container = createContainer({ home: temp.home, cwd: root, readOnly: false, env: process.env }, pluginModules);
    try {
      const trust = container.get<ProjectTrust>(ProjectTrust);
      expect(trust).toBe(container.get(TrustService));
      container.get<EventStoreProvider>(EventStoreProvider)();
      // What someone with write access to events.db (e.g. the sqlite3 shell) can do: a row, no event.
      const forger = new Database(join(temp.home, 'events.db'));
      try {
        forger.prepare('INSERT INTO trusted_projects (root, trusted_at, by) VALUES (?, ?, ?)').run(root, 1, 'forged');
      } finally {
        forger.close();
      }
      expect(
        container
          .get(TrustService)
          .list()
          .map((p) => p.root),
      ).toContain(root);
      expect(trust.isTrusted(root)).toBe(false);
      const policies = getContributions<ToolCallPolicy>(container, ToolCallPolicy);
      const runGradle = container.get(ToolRegistry).get('run_gradle_task')!.definition;
      const actor: Actor = { kind: 'agent', session: 's2', pid: process.pid };
      await expect(
        checkToolCall(policies, { tool: runGradle, args: { task: 'assembleDebug' }, actor }),
      ).rejects.toMatchObject({
        code: 'PROJECT_NOT_TRUSTED',
      });

      // The newest grant or revocation decides.
      const service = container.get(TrustService);
      expect(service.trust(root, cliActor())).toBe(true);
      expect(trust.isTrusted(root)).toBe(true);
      await checkToolCall(policies, { tool: runGradle, args: { task: 'assembleDebug' }, actor });
      expect(service.untrust(root, cliActor())).toBe(true);
      expect(trust.isTrusted(root)).toBe(false);
      expect(service.trust(root, cliActor())).toBe(true);
      expect(trust.isTrusted(root)).toBe(true);
    } finally {
      disposeContainer(container);
    }
  });

  test('an unreadable store never grants trust, and the registry still builds', () => {
    const home = join(temp.home, 'broken');
    mkdirSync(home);
    writeFileSync(join(home, 'events.db'), 'this is not a database'.repeat(100));
    chmodSync(join(home, 'events.db'), 0o644);
    const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, pluginModules);
    try {
      expect(container.get(TrustService).isTrusted(home)).toBe(false);
      expect(container.get(ToolRegistry).get('get_project_info')).toBeDefined();
      expect(() => container.get<EventStoreProvider>(EventStoreProvider)()).toThrow(
        /not a readable droidwright event log/,
      );
    } finally {
      disposeContainer(container);
    }
  });
});
