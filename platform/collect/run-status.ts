/**
 * Collection progress as the dashboard shows it, read from small files of the collect folder only
 * (never the store itself, which a serving process must not load): each site's last finished run
 * (`last-run-<site>.json`, written by ./crawl-run.ts when a run completes or stops), and a run under
 * way or cut short (its lock `run-<site>.lock` and checkpoint `checkpoint-<site>.json`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLLECT_SITES, type CollectSite } from '../../models/ingest/collectors/collected-listing';
import { writeFileAtomically } from './atomic-file';
import { readCheckpoint } from './checkpoint';

/** What a finished run leaves behind. */
export interface LastRun {
  site: CollectSite;
  runId: string;
  status: 'completed' | 'stopped';
  /** Why a stopped run stopped; null for a completed one. */
  reason: string | null;
  day: string;
  pages: number;
  listings: number;
  skipped: number;
  requests: number;
  /** ISO times: the run's start (its first page, also when resumed) and its end. */
  startedAt: string;
  endedAt: string;
  /** A completed run: listings it saw, removed today, and cross-site duplicates linked. */
  seen: number | null;
  removedToday: number | null;
  linkedDuplicates: number | null;
}

/**
 * One site's state: `running` (a live process holds its lock; counts so far), `interrupted` (a
 * checkpoint without a live holder: the next run resumes it), `completed` or `stopped` (its last
 * finished run), or `never` (nothing collected yet).
 */
export interface SiteRunStatus {
  site: CollectSite;
  state: 'running' | 'interrupted' | 'completed' | 'stopped' | 'never';
  runId: string | null;
  day: string | null;
  pages: number | null;
  listings: number | null;
  requests: number | null;
  reason: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** The last finished run, when the state is running or interrupted (null otherwise, or when there was none). */
  previous: LastRun | null;
}

export function lastRunPath(directory: string, site: CollectSite): string {
  return join(directory, `last-run-${site}.json`);
}

export function writeLastRun(directory: string, run: LastRun): void {
  writeFileAtomically(lastRunPath(directory, run.site), `${JSON.stringify(run)}\n`);
}

function readJson<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null; // being replaced, or not ours: read as absent
  }
}

function lockHolder(directory: string, site: CollectSite): number | null {
  const file = join(directory, `run-${site}.lock`);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export function siteRunStatus(directory: string, site: CollectSite): SiteRunStatus {
  const last = readJson<LastRun>(lastRunPath(directory, site));
  let checkpoint = null;
  try {
    checkpoint = readCheckpoint(directory, site);
  } catch {
    checkpoint = null;
  }
  const running = lockHolder(directory, site) !== null;
  // A checkpoint of the run the last file already closed is stale (a completed run clears it, a stopped one keeps it to resume).
  if (checkpoint && (running || checkpoint.runId !== last?.runId || last.status === 'stopped')) {
    const resumable = !running && last?.runId === checkpoint.runId ? last : null;
    return {
      site, state: running ? 'running' : 'interrupted', runId: checkpoint.runId, day: checkpoint.day, pages: checkpoint.pages, listings: checkpoint.listings,
      requests: resumable?.requests ?? null, reason: resumable?.reason ?? null, startedAt: checkpoint.startedAt, endedAt: resumable?.endedAt ?? null,
      previous: last && last.runId !== checkpoint.runId ? last : null,
    };
  }
  if (running) return { site, state: 'running', runId: null, day: null, pages: 0, listings: 0, requests: null, reason: null, startedAt: null, endedAt: null, previous: last };
  if (!last) return { site, state: 'never', runId: null, day: null, pages: null, listings: null, requests: null, reason: null, startedAt: null, endedAt: null, previous: null };
  return { site, state: last.status, runId: last.runId, day: last.day, pages: last.pages, listings: last.listings, requests: last.requests, reason: last.reason, startedAt: last.startedAt, endedAt: last.endedAt, previous: null };
}

/** Every site's state, in the collector's order. */
export function collectStatus(directory: string): SiteRunStatus[] {
  return COLLECT_SITES.map((site) => siteRunStatus(directory, site));
}
