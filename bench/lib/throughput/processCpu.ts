import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux); undefined
 * elsewhere. Ticks are 10 ms: over rounds of seconds that is well under 1 %.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces: fields count from after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * 10 : undefined;
  } catch {
    return undefined;
  }
}
