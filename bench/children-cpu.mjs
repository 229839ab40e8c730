// The bench scripts' one reading of their children's CPU time.
import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) of the waited-for children of this process so far, from /proc/self/stat (cutime,
 * cstime; Linux), or null where it cannot be read. The machine may be shared, so CPU, not wall time, compares runs.
 */
export function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]); // cutime, cstime (fields 16 and 17 of proc(5))
    return Number.isFinite(ticks) ? ticks / 100 : null; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}
