/**
 * `npm run collect -- --export`: the collected homes written as a dated training source,
 * `<collect folder>/exports/collected-homes-<day>.ndjson` (one canonical record a line, written
 * atomically), with the weekly market points of the last eight weeks beside it
 * (`weekly-index-<day>.json`). models/ingest/collectors/training-records.ts and weekly-index.ts say what they hold.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { trainingRecordsOf, weeklyMarketPoints, type WeeklyMarketPoint } from '../../models/ingest/collectors';
import { writeFileAtomically } from './atomic-file';
import type { LifecycleStore } from './lifecycle-store';

export interface TrainingExport {
  recordsPath: string;
  records: number;
  indexPath: string;
  weekly: WeeklyMarketPoint[];
}

export function exportTrainingSource(store: LifecycleStore, day: string, weeks = 8): TrainingExport {
  const folder = join(store.directory, 'exports');
  mkdirSync(folder, { recursive: true });
  const records = trainingRecordsOf(store.all(), day);
  const recordsPath = join(folder, `collected-homes-${day}.ndjson`);
  writeFileAtomically(recordsPath, records.map((record) => `${JSON.stringify(record)}\n`));
  const weekly = weeklyMarketPoints(store.all(), day, weeks);
  const indexPath = join(folder, `weekly-index-${day}.json`);
  writeFileAtomically(indexPath, `${JSON.stringify({ day, weekly }, null, 2)}\n`);
  return { recordsPath, records: records.length, indexPath, weekly };
}
