/** What the benchmarks read of a process from /proc (Linux). */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (Linux USER_HZ). */
export const CLK_TCK = 100;

/** A /proc/<pid>/stat line's command (in parentheses) and CPU time (utime + stime, every thread) in seconds. */
export function parseStat(stat: string): { name: string; cpu: number } {
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    cpu: (Number(fields[11]) + Number(fields[12])) / CLK_TCK,
  };
}

/** CPU time (user + system, every thread) of a process in seconds; NaN when it is gone or unreadable. */
export function cpuSecondsOf(pid: number): number {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpu;
  } catch {
    return NaN;
  }
}

/** A field of /proc/<pid>/status given in kB (`VmRSS`, `VmHWM`, …), in bytes; NaN when the process is gone. */
export function statusBytesOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The resident set size of a process (VmRSS), in bytes; NaN when it is gone. */
export const rssOf = (pid: number): number => statusBytesOf(pid, 'VmRSS');

/**
 * Waits (up to `maxMs`, default 2 minutes) until the processes `pids` are idle: together under 10 % of a core
 * over two quarter-seconds in a row. A server's start-up work (today's dailies, their pars refined on a solver
 * thread for seconds) then no longer shares the cores with what a benchmark measures.
 */
export async function idle(pids: readonly number[], maxMs = 120_000): Promise<void> {
  const cpu = () => pids.reduce((sum, pid) => sum + (cpuSecondsOf(pid) || 0), 0);
  const deadline = performance.now() + maxMs;
  let calm = 0;
  let last = cpu();
  while (calm < 2 && performance.now() < deadline) {
    await new Promise((res) => setTimeout(res, 250));
    const now = cpu();
    calm = now - last < 0.025 ? calm + 1 : 0;
    last = now;
  }
}
