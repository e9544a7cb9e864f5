/** The vehicle ingestion report: what came in, what went out, and why every other row was dropped. */
import type { LedgerReport } from '../../ingest/report';
import type { DataSnapshot } from '../../ingest/snapshot';
import type { VehiclePriceFence } from './outliers';
import type { VehicleCorrection, VehicleDropReason } from './reasons';
import type { VehicleSource } from './record';

export interface VehicleSourceReport extends LedgerReport<VehicleSource, VehicleDropReason, VehicleCorrection> {
  /** City or district cells no region was found for, among the rows kept (their region is null). */
  unresolvedRegions: Record<string, number>;
}

export interface ModelCount {
  make: string;
  model: string;
  records: number;
  bySource: Partial<Record<VehicleSource, number>>;
}

export interface VehicleIngestReport {
  snapshot: DataSnapshot;
  sources: VehicleSourceReport[];
  totals: { rowsIn: number; rowsOut: number; dropped: Partial<Record<VehicleDropReason, number>> };
  priceFences: VehiclePriceFence[];
  /** Records in no group large enough for a fence (kept). */
  unfencedRecords: number;
  /** Most records first. */
  recordsByMake: { make: string; records: number }[];
  recordsByModel: ModelCount[];
  elapsedMs: number;
}
