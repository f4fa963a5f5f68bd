/** The CPU time a process has used, read from Linux's /proc (the benchmark's own children only). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * User plus system CPU ticks from the text of `/proc/<pid>/stat`. The command name (field 2) may hold spaces and
 * parentheses, so fields are counted from the last `)`: utime and stime are fields 14 and 15.
 */
export function cpuTicksFromStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field N is fields[N - 3].
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`not a /proc/<pid>/stat line: ${stat}`);
  return utime + stime;
}

/** Reads a process's CPU time in seconds; `ticksPerSecond` is the kernel's CLK_TCK. */
export function processCpuSeconds(pid: number, ticksPerSecond: number): number {
  return cpuTicksFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8')) / ticksPerSecond;
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`; 100 on every Linux this runs on when getconf is missing). */
export function clockTicksPerSecond(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
}
