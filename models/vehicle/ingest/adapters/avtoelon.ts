/**
 * avtoelon.uz's listing as its scrapes write it (every vehicle file): the make and model, the model
 * year and a USD price (`price` in every file), then what the file's form asked. One reader; each
 * file's adapter says how its row names the vehicle and what its form adds.
 */
import type { RawRow } from '../../../ingest/csv';
import { isBlank, parseCount, parseNumber } from '../../../ingest/parse';
import { normaliseText } from '../../../vocabulary';
import type { Fuel } from '../../vocabulary';
import { isDropped, type Dropped } from '../candidate';
import type { VehicleLookups } from '../lookups';
import { parseEngineCell, parseMileage } from '../parse';
import type { VehicleCorrection } from '../reasons';
import type { VehicleListingSource, VehicleRecord } from '../record';
import { vehicleSourceFile } from '../sources';
import { fileFields, type VehicleAdapter } from './adapter';

/** The catalogue model a row's name cell means, with the fuel when the cell carried one, and what reading it corrected. */
export interface ModelRead {
  model: string;
  fuel: Fuel | null;
  corrections: VehicleCorrection[];
}

/** The catalogue make and model a row names. */
export type Identified = ModelRead & { make: string };

/** What a file's form says between the model year and the price, in the order its records give it. */
export type FormDetails = Omit<VehicleRecord, 'source' | 'sourceRow' | 'period' | 'make' | 'model' | 'year' | 'priceUsd'>;

/** How one file writes a listing. */
export interface AvtoelonLayout {
  source: VehicleListingSource;
  yearColumn: string;
  /** The make and model the row names, or why it names none. */
  identify(row: RawRow): Identified | Dropped;
  details(row: RawRow, vehicle: Identified): FormDetails;
}

/** The name cell read as the catalogue's name of a model of `make`. */
export function catalogueModel(lookups: VehicleLookups, make: string, name: string): ModelRead | null {
  const model = lookups.model(make, name);
  return model === null ? null : { model, fuel: null, corrections: [] };
}

/** The make from its own cell, then the model within it from the name cell (read by `readModel`). */
export function identifyByMake(
  lookups: VehicleLookups,
  row: RawRow,
  columns: { make: string; name: string },
  readModel: (lookups: VehicleLookups, make: string, name: string) => ModelRead | null = catalogueModel,
): Identified | Dropped {
  if (isBlank(row[columns.make]) || isBlank(row[columns.name])) return { drop: 'no_model' };
  const make = lookups.make(row[columns.make]);
  const read = make === null ? null : readModel(lookups, make, row[columns.name]);
  if (make === null || read === null) return { drop: 'unknown_model' };
  return { make, ...read };
}

/** Model year and asking price (USD in both files): a row missing either cannot be valued. */
function yearAndPrice(yearText: string, priceText: string): Pick<VehicleRecord, 'year' | 'priceUsd'> | Dropped {
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

/**
 * The details of the 2020 and 2022 forms, read the same way whatever the labels' language: the
 * form's cells, no trim level, and the defects box where the form has one (else null).
 */
export function formDetails(lookups: VehicleLookups, columns: FormColumns, defects: (row: RawRow) => boolean | null = () => null): (row: RawRow) => FormDetails {
  return (row) => {
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
      trim: null,
      defects: defects(row),
    };
  };
}

/** The city or district cell as the de-duplication compares it. */
function localityOf(text: string | undefined): string {
  return normaliseText(text ?? '');
}

export function createAvtoelonAdapter(layout: AvtoelonLayout): VehicleAdapter {
  const file = vehicleSourceFile(layout.source);
  return {
    file,
    adapt(row, sourceRow) {
      const vehicle = layout.identify(row);
      if (isDropped(vehicle)) return vehicle;
      const basics = yearAndPrice(row[layout.yearColumn], row['price']);
      if (isDropped(basics)) return basics;
      return {
        record: {
          ...fileFields(file, sourceRow),
          make: vehicle.make,
          model: vehicle.model,
          year: basics.year,
          ...layout.details(row, vehicle),
          priceUsd: basics.priceUsd,
        },
        corrections: vehicle.corrections,
        // The city or district cell: the one the report names unmatched regions from.
        locality: localityOf(row[file.regionColumn]),
      };
    },
  };
}
