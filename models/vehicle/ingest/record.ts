/**
 * The canonical vehicle listing every adapter produces and the vehicle trainer consumes. Missing is
 * null throughout: a blank cell, a placeholder (777 777 km) and a column the source lacks all read
 * as "unknown", never as zero. No free text and nothing about the seller reaches it.
 */
import type { BodyType, Colour, Drive, Fuel, RegionId, Transmission } from '../vocabulary';

/** The listing files (./sources.ts). */
export type VehicleListingSource = 'avtoelon_2020' | 'avtoelon_2022' | 'avtoelon_chevrolet_2023';
/**
 * A listing file, an organisation's exported observations (./observations.ts, `npm run train -- --with-observations`),
 * or avtoelon.uz as the service collects it (models/ingest/collectors/avtoelon.ts).
 */
export type VehicleSource = VehicleListingSource | 'observations' | 'avtoelon_collected';

export interface VehicleRecord {
  source: VehicleSource;
  sourceRow: number;            // 1-based data row in the file (an observation: its line); not part of a listing's identity
  period: string;               // 'YYYY-MM' of the scrape (no listing dates exist); of an observation, the month observed
  make: string;                 // canonical catalogue name: resolveMake(make) === make
  model: string;                // canonical catalogue name: resolveModel(make, model) === model
  year: number;                 // model year
  mileageKm: number | null;     // the 2023 file has none
  engineLitres: number | null;  // null for electric cars
  fuel: Fuel | null;
  transmission: Transmission | null;
  body: BodyType | null;
  drive: Drive | null;
  colour: Colour | null;
  trim: number | null;          // avtoelon's "pozitsiya" 1–4 (2023 file only)
  defects: boolean | null;      // "Kami bor" (2022 file only): true when ticked, null when blank
  region: RegionId | null;
  priceUsd: number;             // asking price (an observation: its sale, appraisal or listing price)
}

/** The fields that make a listing: two rows of one file equal on all of them are one listing. */
export const LISTING_FIELDS = [
  'make', 'model', 'year', 'mileageKm', 'engineLitres', 'fuel', 'transmission', 'body', 'drive', 'colour', 'trim',
  'defects', 'region', 'priceUsd',
] as const satisfies readonly (keyof VehicleRecord)[];
