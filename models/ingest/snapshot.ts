/**
 * Which data a run read: the snapshot id from data/README.md and, per listing file, its SHA-256 and
 * row count. A file that no longer matches data/SHA256SUMS is an error: a model trained on it would
 * record a snapshot it was not trained on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../paths';
import { loadCsv, type LoadedFile } from './csv';
import { OLX_2021_GEOCODED_PATH, SOURCE_FILES } from './sources';

export interface DataSnapshot {
  id: string;
  files: { path: string; sha256: string; rows: number }[];
}

/** Every file ingestion reads, relative to DATA_DIR. */
export const LISTING_PATHS: readonly string[] = [...SOURCE_FILES.map((file) => file.path), OLX_2021_GEOCODED_PATH];

function snapshotId(): string {
  const readme = readFileSync(join(DATA_DIR, 'README.md'), 'utf8');
  const match = /Snapshot id:\s*`([^`]+)`/.exec(readme);
  if (!match) throw new Error('data/README.md states no "Snapshot id"');
  return match[1];
}

function recordedChecksums(): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(join(DATA_DIR, 'SHA256SUMS'), 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64})\s+\*?(?:\.\/)?(.+)$/.exec(line.trim());
    if (match) sums.set(match[2], match[1]);
  }
  return sums;
}

export function snapshotOf(files: readonly LoadedFile[]): DataSnapshot {
  const recorded = recordedChecksums();
  for (const file of files) {
    const expected = recorded.get(file.path);
    if (expected !== file.sha256) {
      throw new Error(`data/${file.path} does not match data/SHA256SUMS (${expected ?? 'not listed'}): update the snapshot record first`);
    }
  }
  return { id: snapshotId(), files: files.map((file) => ({ path: file.path, sha256: file.sha256, rows: file.rows.length })) };
}

export function dataSnapshot(): DataSnapshot {
  return snapshotOf(LISTING_PATHS.map((path) => loadCsv(path)));
}
