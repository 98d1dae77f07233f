import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore } from '../../../src/events/event-store.js';
import { buildHistoryProjection } from '../../../src/plugins/build/build-history.projection.js';
import { buildEvents } from '../../../src/plugins/build/build.events.js';
import {
  appendFinished,
  finishedEventData,
  MAX_FINISHED_DATA_BYTES,
  type FinishedFacts,
} from '../../../src/plugins/build/services/build-finished-event.js';
import type { BuildDiagnostic } from '../../../src/plugins/build/services/gradle-output/build-diagnostic.js';

const agent = { kind: 'agent' as const, session: 'sess-bytes', client: 'jest', pid: process.pid };
const sha = 'a'.repeat(64);

/** 300 Kotlin errors whose messages are long Japanese text: three UTF-8 bytes a character. */
function japaneseErrors(count: number): BuildDiagnostic[] {
  return Array.from({ length: count }, (_, i) => ({
    severity: 'error' as const,
    source: 'kotlin' as const,
    file: `/home/dev/アプリ/src/main/java/com/example/画面${i}.kt`,
    line: i + 1,
    column: 5,
    message: `未解決の参照です: '関数${i}'。${'型の不一致: 期待される型は文字列ですが、実際の型は整数です。'.repeat(12)}`,
    task: ':app:compileDebugKotlin',
  }));
}

function facts(diagnostics: BuildDiagnostic[]): FinishedFacts {
  return {
    status: 'failed',
    durationMs: 1234,
    exitCode: 1,
    signal: null,
    reason: diagnostics[0]?.message ?? null,
    cancelledBy: null,
    diagnostics,
    apks: Array.from({ length: 3 }, (_, i) => ({
      path: `/p/app-${i}.apk`,
      module: ':app',
      variant: 'debug',
      sha256: sha,
      size: 10,
      package: 'com.example',
      version_code: 1,
      version_name: '1.0',
    })),
    mappings: [],
    tests: null,
    log: { path: '/p/b.log', sha256: sha, bytes: 10, lines: 1, truncated_lines: 0 },
  };
}

describe('build.finished size bound (UTF-8 bytes)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-finished-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps 300 long Japanese Kotlin errors under the byte budget, errors first, counts complete', () => {
    const all = japaneseErrors(300);
    const chars = JSON.stringify(all).length;
    const bytes = Buffer.byteLength(JSON.stringify(all), 'utf8');
    // The trap the character budget fell into: well under 256 Ki characters, well over 256 KiB.
    expect(bytes).toBeGreaterThan(256 * 1024);
    expect(chars).toBeLessThan(bytes / 2);
    const data = finishedEventData('b1', facts(all)) as {
      diagnostics: BuildDiagnostic[];
      diagnostics_total: number;
      diagnostic_counts: { error: number };
      truncated?: boolean;
      apks: unknown[];
    };
    expect(Buffer.byteLength(JSON.stringify(data), 'utf8')).toBeLessThanOrEqual(MAX_FINISHED_DATA_BYTES);
    expect(data.diagnostics.length).toBeGreaterThan(50);
    expect(data.diagnostics.length).toBeLessThan(300);
    expect(data.diagnostics[0]).toEqual(all[0]);
    expect(data).toMatchObject({ diagnostics_total: 300, diagnostic_counts: { error: 300 }, truncated: true });
    expect(data.apks).toHaveLength(3);
  });

  it('is recorded by a real event store, and a store that refuses it still gets the outcome', () => {
    const catalog = new EventCatalog(buildEvents);
    const store = EventStore.open({ path: join(dir, 'events.db'), catalog, projections: [buildHistoryProjection] });
    try {
      expect(appendFinished(store, 'b1', agent, facts(japaneseErrors(300)))).toBe(true);
      const [recorded] = store.query({ types: ['build.finished'], stream: 'build:b1' });
      expect(recorded!.data).toMatchObject({ status: 'failed', diagnostics_total: 300, truncated: true });
    } finally {
      store.close();
    }
    // A store with a smaller limit than our budget refuses the full record: the minimal one goes in instead.
    const small = EventStore.open({
      path: join(dir, 'small.db'),
      catalog,
      projections: [buildHistoryProjection],
      maxDataBytes: 4096,
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(appendFinished(small, 'b2', agent, facts(japaneseErrors(300)))).toBe(true);
      const [recorded] = small.query({ types: ['build.finished'], stream: 'build:b2' });
      expect(recorded!.data).toMatchObject({
        status: 'failed',
        exit_code: 1,
        diagnostics: [],
        apks: [],
        diagnostic_counts: { error: 300 },
        diagnostics_total: 300,
        truncated: true,
        log: { sha256: sha },
      });
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('recording the outcome without details');
      expect(small.verify().ok).toBe(true);
    } finally {
      stderr.mockRestore();
      small.close();
    }
  });

  it('drops mapping and APK entries when they alone are over the budget', () => {
    const f = facts([]);
    const apks = Array.from({ length: 100 }, (_, i) => ({
      ...f.apks[0]!,
      path: `/p/${'長い名前'.repeat(100)}-${i}.apk`,
    }));
    const data = finishedEventData('b1', { ...f, apks }, 32 * 1024) as { apks: unknown[]; truncated?: boolean };
    expect(Buffer.byteLength(JSON.stringify(data), 'utf8')).toBeLessThanOrEqual(32 * 1024);
    expect(data.apks.length).toBeLessThan(100);
    expect(data.truncated).toBe(true);
  });
});
