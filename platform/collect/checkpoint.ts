/**
 * Where an unfinished run of one site stands: its id, its day, the cursor of the next page to ask
 * for, and its counts so far. Written atomically after each page is stored, so a run killed at any
 * moment resumes from the page after the last one it stored (at worst asking that page again, which
 * the store takes as the same sighting). Removed when the run completes.
 */
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectSite } from '../../models/ingest/collectors';
import { writeFileAtomically } from './atomic-file';

export interface RunCheckpoint {
  runId: string;
  site: CollectSite;
  day: string;
  cursor: unknown;
  pages: number;
  listings: number;
  startedAt: string;
}

export function checkpointPath(directory: string, site: CollectSite): string {
  return join(directory, `checkpoint-${site}.json`);
}

export function readCheckpoint(directory: string, site: CollectSite): RunCheckpoint | null {
  const file = checkpointPath(directory, site);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as RunCheckpoint;
}

export function writeCheckpoint(directory: string, checkpoint: RunCheckpoint): void {
  writeFileAtomically(checkpointPath(directory, checkpoint.site), JSON.stringify(checkpoint));
}

export function clearCheckpoint(directory: string, site: CollectSite): void {
  const file = checkpointPath(directory, site);
  if (existsSync(file)) unlinkSync(file);
}
