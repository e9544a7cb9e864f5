/** What a child process uses, read from /proc (Linux): its CPU time and resident memory. */
import { readFileSync } from 'node:fs';

/** User + system CPU time of `pid` in ms (clock ticks of 10 ms; time stolen by other guests is not counted). */
export function processCpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of `pid` in MB (0 once it has exited). */
export function processRssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
