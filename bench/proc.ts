/** A bench's child processes: when they are ready, and what they use, read from /proc (Linux): CPU time and resident memory. */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Resolves with the first match of `pattern` in what the child prints (its stdout piped), then
 * keeps draining its output; rejects if it exits first.
 */
export function announced(child: ChildProcess, name: string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(match);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${out}`)));
  });
}

/** Stops a child with SIGTERM (SIGKILL after 10 s) and waits for it to exit. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

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
