/**
 * What every vehicle adapter does: turn one raw CSV row into a canonical record, or say why it
 * cannot. Plus the fields all sources read the same way.
 */
import type { RawRow } from '../../../ingest/csv';
import { parseCount, parseNumber } from '../../../ingest/parse';
import { normaliseText } from '../../../vocabulary';
import type { Adapted, Dropped } from '../candidate';
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

/** Model year and asking price (USD in both files): a row missing either cannot be valued. */
export function yearAndPrice(yearText: string, priceText: string): Pick<VehicleRecord, 'year' | 'priceUsd'> | Dropped {
  const year = parseCount(yearText);
  if (year === null) return { drop: 'no_year' };
  const priceUsd = parseNumber(priceText ?? '');
  if (priceUsd === null) return { drop: 'no_price' };
  return { year, priceUsd };
}

/** The city or district cell as the de-duplication compares it. */
export function localityOf(text: string | undefined): string {
  return normaliseText(text ?? '');
}
