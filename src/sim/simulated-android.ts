/**
 * The seam between the adb transport (packets, streams, sync, emulator console) and the Android
 * the device simulates (shell, package manager, screens, logcat). The transport knows nothing of
 * Android; the Android knows nothing of packets.
 */

/** One service stream as the shell sees it. Writes resolve when adb flow control lets more through. */
export interface ShellIO {
  /** Bytes the host sends on stdin (shell_v2 id 0, or raw WRTE on legacy/exec streams); ends when the host closes its side. */
  readonly stdin: AsyncIterable<Buffer>;
  stdout(data: Buffer | string): Promise<void>;
  stderr(data: Buffer | string): Promise<void>;
  /** Aborted when the host closes the stream (CLSE) or the device stops: long-running commands (logcat -f, sleep) must end. */
  readonly signal: AbortSignal;
}

export interface SimFileStat {
  /** POSIX mode including the file-type bits (0o100644 for a file, 0o040755 for a directory). */
  readonly mode: number;
  readonly size: number;
  readonly mtimeSec: number;
}

export interface SimDirEntry extends SimFileStat {
  readonly name: string;
}

/** The device's file system as the sync service needs it. Paths are absolute device paths. */
export interface SimFileSystem {
  stat(path: string): SimFileStat | null;
  list(path: string): SimDirEntry[] | null;
  readFile(path: string): Buffer | null;
  /** Creates parent directories (adb's fixed_push_mkdir). Throws an Error with a device-style message on failure. */
  writeFile(path: string, data: Buffer, mode: number, mtimeSec: number): void;
}

export type ShellMode = 'shell_v2' | 'legacy' | 'exec';

export interface SimulatedAndroid {
  /** e.g. `device::ro.product.name=sdk_gphone64_x86_64;ro.product.model=Pixel 7;ro.product.device=emu64x;features=cmd,shell_v2,...` */
  banner(): string;
  /**
   * Runs a command line exactly as `/system/bin/sh -c` would receive it and resolves with the exit code.
   * `mode` tells how it arrived (shell_v2 can report exit codes; legacy/exec cannot, and exec has no shell parsing
   * in real Android but the same parser serves here).
   */
  exec(commandLine: string, io: ShellIO, mode: ShellMode): Promise<number>;
  readonly fs: SimFileSystem;
  /** The AVD name the emulator console reports for `avd name` (emulator mode only). */
  readonly avdName?: string;
  /** Stops background activity (log traffic, timers). */
  dispose(): void;
}
