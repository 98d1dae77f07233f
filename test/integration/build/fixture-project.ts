import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const FIXTURES = resolve('test/fixtures/projects');
export const CAPTURES = resolve('test/fixtures/gradle-output');
/** The stand-in Gradle lives with the demo project, which ships it; fixtures borrow the same file. */
export const STAND_IN_GRADLE = resolve('examples/notes-app/gradle/stand-in-gradle.mjs');

/** A private copy of a fixture project (builds write into it) with the stand-in Gradle wired in. */
export function copyFixtureProject(name: 'kts-flavors' | 'groovy-app'): { root: string; cleanup(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'droidwright-build-fixture-'));
  const root = join(parent, name);
  cpSync(join(FIXTURES, name), root, { recursive: true });
  mkdirSync(join(root, 'gradle'), { recursive: true });
  copyFileSync(STAND_IN_GRADLE, join(root, 'gradle', 'stand-in-gradle.mjs'));
  chmodSync(join(root, 'gradlew'), 0o755);
  return { root, cleanup: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Chooses what the stand-in Gradle does on its next runs. */
export function setScenario(root: string, scenario: 'success' | `replay ${string}` | `slow ${number}`): void {
  mkdirSync(join(root, '.stand-in-gradle'), { recursive: true });
  writeFileSync(join(root, '.stand-in-gradle', 'scenario'), scenario);
}

export function replayCapture(root: string, capture: string): void {
  setScenario(root, `replay ${join(CAPTURES, capture)}`);
}

/** How many times the stand-in Gradle was started in this project. */
export function invocations(root: string): { pid: number; args: string[]; android_serial?: string }[] {
  try {
    return readFileSync(join(root, '.stand-in-gradle', 'invocations.log'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { pid: number; args: string[]; android_serial?: string });
  } catch {
    return [];
  }
}
