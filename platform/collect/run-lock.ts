/**
 * Never two runs of one site at once on this data home: a lock file made with O_EXCL holding the
 * owner's pid. A lock whose process is gone (a run killed with SIGKILL) is taken over; a live one
 * refuses. Across machines sharing Redis the BullMQ scheduler adds its own guard (one worker,
 * concurrency 1: ./bullmq-schedule.ts).
 */
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectSite } from '../../models/ingest/collectors';

export class RunInProgress extends Error {
  constructor(readonly site: CollectSite, readonly pid: number) {
    super(`a ${site} run is already in progress (pid ${pid})`);
  }
}

export interface RunLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireRunLock(directory: string, site: CollectSite): RunLock {
  const file = join(directory, `run-${site}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) throw new RunInProgress(site, owner);
      if (owner === process.pid) throw new RunInProgress(site, owner);
      unlinkSync(file); // its process died without releasing it
    }
  }
  throw new Error(`could not take the ${site} run lock`);
}
