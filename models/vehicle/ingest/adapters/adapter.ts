/**
 * What every vehicle adapter does: turn one raw CSV row into a canonical record, or say why it
 * cannot. Plus the fields all sources read the same way.
 */
import type { RawRow } from '../../../ingest/csv';
import { parseCount, parseNumber } from '../../../ingest/parse';
import { normaliseText } from '../../../vocabulary';
import type { Adapted, Dropped } from '../candidate';
import type { VehicleLookups } from '../lookups';
import { parseEngineCell, parseMileage } from '../parse';
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

/** Where the avtoelon.uz listing form's cells stand in a file: the 2020 file names them in Russian, the 2022 one in Uzbek. */
export interface FormColumns {
  mileage: string; // "66 000 km", "71000.0"
  engine: string; // "1.3 (Gaz-benzin)": litres and fuel
  gearbox: string;
  body: string;
  drive: string;
  colour: string;
  city: string;
}

/** The form's fields of one row, read the same way whatever the labels' language. */
export function formFields(
  lookups: VehicleLookups,
  row: RawRow,
  columns: FormColumns,
): Pick<VehicleRecord, 'mileageKm' | 'engineLitres' | 'fuel' | 'transmission' | 'body' | 'drive' | 'colour' | 'region'> {
  const engine = parseEngineCell(row[columns.engine]);
  return {
    mileageKm: parseMileage(row[columns.mileage]),
    engineLitres: engine.litres,
    fuel: engine.fuel,
    transmission: lookups.transmission(row[columns.gearbox]),
    body: lookups.body(row[columns.body]),
    drive: lookups.drive(row[columns.drive]),
    colour: lookups.colour(row[columns.colour]),
    region: lookups.region(row[columns.city]),
  };
}

/** The city or district cell as the de-duplication compares it. */
export function localityOf(text: string | undefined): string {
  return normaliseText(text ?? '');
}
