import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { type CliEnv, freePort, type McpTestClient, startMcpClient } from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

/** Programs a hostile project might ship, hoping droidwright runs them instead of the host's. */
const PLANTED = ['java', 'adb', 'git', 'emulator', 'sdkmanager', 'avdmanager', 'aapt'];

describe('host tools are never taken from the project', () => {
  const temp = createTempHome('e2e-host-tools');
  let mcp: McpTestClient | undefined;
  afterAll(async () => {
    await mcp?.close();
    temp.cleanup();
  });

  test('with ".", a relative entry and the project\'s own bin on PATH, run_health_check runs none of its programs', async () => {
    const project = realpathSync(createFakeGradleProject(temp.home, 'hostile'));
    const marker = join(temp.home, 'planted-program-ran');
    mkdirSync(join(project, 'bin'));
    for (const dir of [project, join(project, 'bin')]) {
      for (const name of PLANTED) {
        const path = join(dir, name);
        // Prints a plausible version too, so a check that ran it would also report it as fine.
        writeFileSync(
          path,
          `#!/bin/sh\necho "$0 $*" >> '${marker}'\necho 'openjdk version "21.0.1" 2023-10-17' >&2\necho 'Android Debug Bridge version 1.0.41'\n`,
        );
        chmodSync(path, 0o755);
      }
    }
    const env: CliEnv = {
      home: temp.home,
      adbPort: await freePort(),
      extra: {
        PATH: ['.', '', 'bin', join(project, 'bin'), process.env.PATH ?? ''].join(delimiter),
        // Empty, so java and adb are looked up on PATH.
        JAVA_HOME: '',
        ANDROID_HOME: '',
        ANDROID_SDK_ROOT: '',
      },
    };
    mcp = await startMcpClient(env, [], { cwd: project });
    const result = await mcp.client.callTool({ name: 'run_health_check', arguments: {} });
    const report = result.structuredContent as {
      java: { path: string | null; source: string | null };
      adb: { path: string | null };
      emulator: { path: string | null };
    };
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    for (const path of [report.java.path, report.adb.path, report.emulator.path]) {
      if (path == null) continue;
      expect(isAbsolute(path)).toBe(true);
      expect(path.startsWith(`${project}/`)).toBe(false);
    }
  });
});
