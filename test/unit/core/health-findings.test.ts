import {
  deviceStateHint,
  type HealthReport,
  healthFindings,
  nodeCheck,
  parseDeviceList,
  postgresFix,
  type StoreCheck,
} from '../../../src/plugins/core/services/health-checker.js';

const ok = { ok: true, path: '/x', version: '1', hint: null };

const sqliteStore: StoreCheck = {
  ok: true,
  kind: 'sqlite',
  location: '/h/events.db',
  reachable: true,
  server_version: null,
  schema_version: 2,
  head: { seq: 3, hash: 'a'.repeat(64) },
  error: null,
  hint: null,
};
const postgresStore: StoreCheck = {
  ...sqliteStore,
  kind: 'postgres',
  location: 'alice@db.example.com:5432/droidwright',
  server_version: '16.4',
};

function report(overrides: Partial<HealthReport> = {}): HealthReport {
  return {
    node: nodeCheck('20.19.0'),
    java: { ...ok, source: 'PATH', major_version: 17, warning: null },
    android_sdk: { ...ok, source: 'ANDROID_HOME' },
    build_tools: ok,
    adb: { ...ok, server: { port: 5037, reachable: true, version: 41 } },
    devices: {
      ok: true,
      listed: true,
      devices: [{ serial: 'emulator-5554', state: 'device', hint: null }],
      hint: null,
    },
    emulator: ok,
    project: { ok: true, path: '/p', trusted: true, hint: null },
    gradle_wrapper: ok,
    retrace: ok,
    data_dir: { ok: true, path: '/h', hint: null },
    store: sqliteStore,
    event_log: { ok: true, path: '/h/events.db', checked: 3, anchors: 1, hint: null },
    all_ok: true,
    ...overrides,
  };
}

describe('health findings (run_health_check and doctor)', () => {
  test('adb device listings, states and their fixes', () => {
    expect(parseDeviceList('emulator-5554\tdevice\nR58M123\tunauthorized\n\n10.0.0.2:5555\toffline\n')).toEqual([
      { serial: 'emulator-5554', state: 'device' },
      { serial: 'R58M123', state: 'unauthorized' },
      { serial: '10.0.0.2:5555', state: 'offline' },
    ]);
    expect(deviceStateHint('device')).toBeNull();
    expect(deviceStateHint('unauthorized')).toMatch(/accept the "Allow USB debugging\?" prompt/);
    expect(deviceStateHint('offline')).toMatch(/reconnect/);
  });

  test('Node versions below engines are an error', () => {
    expect(nodeCheck('20.9.0').ok).toBe(true);
    expect(nodeCheck('24.1.0').ok).toBe(true);
    expect(nodeCheck('20.8.1')).toMatchObject({ ok: false, hint: expect.stringMatching(/Node\.js 20, 22 or 24/) });
  });

  test('everything fine: only ok findings', () => {
    expect(healthFindings(report()).filter((f) => f.status !== 'ok')).toEqual([]);
  });

  test('an unauthorized phone is a warning naming the prompt; a broken log and no adb are errors', () => {
    const findings = healthFindings(
      report({
        devices: {
          ok: false,
          listed: true,
          devices: [{ serial: 'R58M123', state: 'unauthorized', hint: deviceStateHint('unauthorized') }],
          hint: 'No device is online',
        },
        adb: {
          ok: false,
          path: null,
          version: null,
          hint: 'adb not found.',
          server: { port: 5037, reachable: false, version: null },
        },
        event_log: { ok: false, path: '/h/events.db', checked: 7, anchors: 0, hint: 'does not verify at seq 7' },
        project: { ok: true, path: '/p', trusted: false, hint: 'run `droidwright trust /p`' },
      }),
    );
    const byCheck = Object.fromEntries(findings.map((f) => [f.check, f]));
    expect(byCheck['device R58M123']).toMatchObject({ status: 'warning', fix: expect.stringMatching(/accept/) });
    expect(byCheck.adb).toMatchObject({ status: 'error', fix: 'adb not found.' });
    expect(byCheck.event_log).toMatchObject({ status: 'error', fix: 'does not verify at seq 7' });
    expect(byCheck.trust).toMatchObject({ status: 'warning', fix: 'run `droidwright trust /p`' });
  });

  test('the default SQLite log adds no store line; a PostgreSQL log reports its connection, server, schema and head', () => {
    expect(healthFindings(report()).map((f) => f.check)).not.toContain('store');
    const [store] = healthFindings(report({ store: postgresStore })).filter((f) => f.check === 'store');
    expect(store).toEqual({
      check: 'store',
      status: 'ok',
      summary: `event log in PostgreSQL 16.4 at alice@db.example.com:5432/droidwright: schema 2, head seq 3 (${'a'.repeat(12)}…)`,
      fix: null,
    });
  });

  test('an unreachable or refusing PostgreSQL is an error with one fix for its cause, naming the server', () => {
    const unreachable = healthFindings(
      report({
        store: {
          ...postgresStore,
          ok: false,
          reachable: false,
          server_version: null,
          schema_version: null,
          head: null,
          error:
            'Cannot reach the PostgreSQL event log at alice@db.example.com:5432/droidwright: connect ECONNREFUSED. Check that the server is running.',
          hint: postgresFix('connect ECONNREFUSED 10.0.0.5:5432', 'alice@db.example.com:5432/droidwright'),
        },
        all_ok: false,
      }),
    ).find((f) => f.check === 'store');
    expect(unreachable).toMatchObject({
      status: 'error',
      summary: 'Cannot reach the PostgreSQL event log at alice@db.example.com:5432/droidwright: connect ECONNREFUSED',
      fix: expect.stringMatching(/Start the server.*pg_isready -h db\.example\.com -p 5432/),
    });
    const at = 'alice@db.example.com:5432/droidwright';
    expect(postgresFix('password authentication failed for user "alice"', at)).toMatch(
      /PGPASSWORD.*db\.example\.com:5432:droidwright:ROLE:PASSWORD.*~\/\.pgpass/,
    );
    expect(postgresFix('database "droidwright" does not exist', at)).toMatch(
      /createdb -h db\.example\.com -p 5432 droidwright/,
    );
    expect(postgresFix('The server does not support SSL connections', at)).toMatch(/sslmode/);
    expect(postgresFix('permission denied for schema public', at)).toMatch(/CREATE on its schema/);
    expect(postgresFix('something else', at)).toMatch(/psql -h db\.example\.com -p 5432 droidwright/);
  });
});
