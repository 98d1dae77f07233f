import { readFileSync } from 'node:fs';

/*
 * Whether a process we recorded earlier is still running. A pid alone is not enough: the kernel reuses
 * pids, so a lock holder, an MCP server or an emulator that died can seem alive through an unrelated
 * process that got its number. Recording the start time next to the pid tells them apart.
 */

/** A process as the kernel knows it: pid plus its start time, which a reused pid does not share. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Start time in clock ticks since boot (Linux /proc/<pid>/stat field 22); null where unknown (then only the pid is checked). */
  readonly startTime: string | null;
}

/**
 * State (field 3) and start time (field 22) of a /proc/<pid>/stat line. The command name (field 2)
 * may contain spaces and parentheses, so fields are counted after the last ')'.
 */
export function parseProcStat(text: string): { state: string | null; startTime: string | null } {
  const close = text.lastIndexOf(')');
  if (close === -1) return { state: null, startTime: null };
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  // After "pid (comm) " the next field is field 3 (state), so field 22 is at index 19.
  const state = fields[0];
  const start = fields[19];
  return {
    state: state && /^[A-Za-z]$/.test(state) ? state : null,
    startTime: start !== undefined && /^\d+$/.test(start) ? start : null,
  };
}

function readProcStat(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
}

/** Field 22 (starttime) of /proc/<pid>/stat, or null when there is no /proc (macOS) or no such process. */
export function processStartTime(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const stat = readProcStat(pid);
  return stat === null ? null : parseProcStat(stat).startTime;
}

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: processStartTime(process.pid) };
}

export function identityOf(pid: number): ProcessIdentity {
  return { pid, startTime: processStartTime(pid) };
}

/**
 * The process `pid` is running and is the one recorded: a pid now used by a process started at another
 * time counts as dead, and so does a zombie (exited, not yet reaped: it answers signal 0 but will never
 * do anything again). `startTime` null checks the pid only, as does a system without /proc.
 */
export function isProcessAlive(pid: number, startTime: string | null): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = readProcStat(pid);
  if (stat === null) return true;
  const now = parseProcStat(stat);
  if (now.state === 'Z' || now.state === 'X') return false;
  return startTime === null || now.startTime === null || now.startTime === startTime;
}
