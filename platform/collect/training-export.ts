/**
 * `npm run collect -- --export`: the collected homes and cars written as dated training sources,
 * `<collect folder>/exports/collected-homes-<day>.ndjson` and `collected-cars-<day>.ndjson` (one
 * canonical record a line, each written atomically), with the weekly market points of the last eight
 * weeks beside them (`weekly-index-<day>.json`). models/ingest/collectors/training-records.ts and
 * weekly-index.ts say what they hold: each listing once, at its last asking price (before removal,
 * or its current one), dated by the month it was last seen.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { carTrainingRecordsOf, trainingRecordsOf, weeklyMarketPoints, type WeeklyMarketPoint } from '../../models/ingest/collectors';
import { writeFileAtomically } from './atomic-file';
import type { LifecycleStore } from './lifecycle-store';

export interface TrainingExport {
  recordsPath: string;
  records: number;
  carsPath: string;
  cars: number;
  indexPath: string;
  weekly: WeeklyMarketPoint[];
}

export function exportTrainingSource(store: LifecycleStore, day: string, weeks = 8): TrainingExport {
  const folder = join(store.directory, 'exports');
  mkdirSync(folder, { recursive: true });
  const records = trainingRecordsOf(store.all(), day);
  const recordsPath = join(folder, `collected-homes-${day}.ndjson`);
  writeFileAtomically(recordsPath, records.map((record) => `${JSON.stringify(record)}\n`));
  const cars = carTrainingRecordsOf(store.all(), day);
  const carsPath = join(folder, `collected-cars-${day}.ndjson`);
  writeFileAtomically(carsPath, cars.map((record) => `${JSON.stringify(record)}\n`));
  const weekly = weeklyMarketPoints(store.all(), day, weeks);
  const indexPath = join(folder, `weekly-index-${day}.json`);
  writeFileAtomically(indexPath, `${JSON.stringify({ day, weekly }, null, 2)}\n`);
  return { recordsPath, records: records.length, carsPath, cars: cars.length, indexPath, weekly };
}
