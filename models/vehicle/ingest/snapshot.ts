/**
 * Which vehicle data a run read, for a model manifest: the snapshot id and, per file, its SHA-256
 * and row count, checked against data/SHA256SUMS as for the listings (models/ingest/snapshot.ts).
 */
import { loadCsv } from '../../ingest/csv';
import { snapshotOf, type DataSnapshot } from '../../ingest/snapshot';
import { VEHICLE_SOURCE_FILES } from './sources';

export function vehicleDataSnapshot(): DataSnapshot {
  return snapshotOf(VEHICLE_SOURCE_FILES.map((file) => loadCsv(file.path, { delimiter: file.delimiter })));
}
