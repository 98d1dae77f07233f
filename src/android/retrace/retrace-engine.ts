import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../../kernel/errors.js';
import type { ProcessRunner } from '../../kernel/process-runner.js';
import { type ProguardMapping, parseProguardMapping } from './proguard-mapping.js';
import { Retracer, retraceStackTrace } from './retracer.js';

/** Mappings of large apps reach tens of MB; anything far beyond is not a mapping droidwright should parse. */
export const MAX_MAPPING_BYTES = 512 * 1024 * 1024;

export type RetraceEngineName = 'sdk' | 'builtin';

/**
 * Retraces stack trace text with a mapping file: the Android SDK's R8 `retrace` when one was found (the tool the
 * mapping's own compiler ships), else the built-in TypeScript retracer, which follows the same rules and reproduces
 * R8's published test cases.
 */
export class RetraceEngine {
  private cached: { key: string; retracer: Retracer; mapping: ProguardMapping } | null = null;

  constructor(
    /** The SDK `retrace` executable (absolute), or null for the built-in engine. */
    readonly sdkRetrace: string | null,
    private readonly runner: ProcessRunner | null,
  ) {}

  get name(): RetraceEngineName {
    return this.sdkRetrace && this.runner ? 'sdk' : 'builtin';
  }

  /** The parsed mapping (built-in engine's cache: one mapping, keyed by path, size and mtime). */
  mapping(mappingPath: string): ProguardMapping {
    return this.load(mappingPath).mapping;
  }

  async retrace(mappingPath: string, text: string, signal?: AbortSignal): Promise<string> {
    if (this.sdkRetrace && this.runner) return this.runSdk(this.sdkRetrace, this.runner, mappingPath, text, signal);
    return retraceStackTrace(this.load(mappingPath).retracer, text);
  }

  private load(mappingPath: string): { retracer: Retracer; mapping: ProguardMapping } {
    let key: string;
    try {
      const st = statSync(mappingPath);
      if (st.size > MAX_MAPPING_BYTES)
        throw new ToolError(
          'INVALID_ARGUMENT',
          `${mappingPath} is ${st.size} bytes, more than a mapping file droidwright reads (${MAX_MAPPING_BYTES}).`,
        );
      key = `${mappingPath}\n${st.size}\n${st.mtimeMs}`;
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(
        'MAPPING_NOT_FOUND',
        `Cannot read the mapping file ${mappingPath} (${(error as NodeJS.ErrnoException).code ?? 'error'}). Pass the mapping.txt the minified build wrote.`,
      );
    }
    if (this.cached?.key === key) return this.cached;
    const mapping = parseProguardMapping(readFileSync(mappingPath, 'utf8'));
    this.cached = { key, mapping, retracer: new Retracer(mapping) };
    return this.cached;
  }

  private async runSdk(
    retrace: string,
    runner: ProcessRunner,
    mappingPath: string,
    text: string,
    signal?: AbortSignal,
  ): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'droidwright-retrace-'));
    try {
      const traceFile = join(dir, 'stacktrace.txt');
      await writeFile(traceFile, text);
      const result = await runner.run(retrace, [mappingPath, traceFile], {
        signal,
        timeoutMs: 120_000,
        maxOutputBytes: 8 * 1024 * 1024,
      });
      if (result.exitCode !== 0 || result.truncated) {
        throw new ToolError(
          'COMMAND_FAILED',
          `${retrace} ${result.timedOut ? 'timed out' : `exited with ${result.exitCode ?? result.signal}`}: ${result.stderr.trim().slice(-500) || 'no error output'}. Check the SDK's Command-line Tools (run_health_check).`,
        );
      }
      return result.stdout.replace(/\r?\n$/, '');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** `# pg_map_id: <id>` from the head of a mapping file (R8 writes it in the first lines), or null. */
export function readMappingMapId(head: string): string | null {
  return /^#\s*pg_map_id:\s*(\S+)/m.exec(head)?.[1] ?? null;
}
