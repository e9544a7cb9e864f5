/**
 * What every vehicle adapter does: turn one raw CSV row into a canonical record, or say why it
 * cannot. How the files (all avtoelon.uz scrapes) are read is ./avtoelon.ts.
 */
import type { RawRow } from '../../../ingest/csv';
import type { Adapted } from '../candidate';
import type { VehicleRecord } from '../record';
import type { VehicleSourceFile } from '../sources';

export interface VehicleAdapter {
  readonly file: VehicleSourceFile;
  adapt(row: RawRow, sourceRow: number): Adapted;
}

/** The fields fixed by the file rather than the row. */
export function fileFields(file: VehicleSourceFile, sourceRow: number): Pick<VehicleRecord, 'source' | 'sourceRow' | 'period'> {
  return { source: file.source, sourceRow, period: file.period };
}
