/**
 * The vehicle listing files and what is known about each scrape (from data/README.md). Pure data.
 * Periods are the scrape month: no file carries listing dates. Oldest first.
 */
import type { VehicleListingSource, VehicleSource } from './record';

export interface VehicleSourceFile {
  source: VehicleListingSource;
  path: string; // relative to DATA_DIR
  period: string; // 'YYYY-MM'
  regionColumn: string; // the city or district cell, for the report of names no region was found for
  delimiter?: string; // the cell separator when not ','
  idColumn?: string; // the site's listing id, where the file keeps it: a row repeating an earlier id is dropped first
}

export const VEHICLE_SOURCE_FILES: readonly VehicleSourceFile[] = [
  // README: "avtoelon.uz, November 2020, all makes", `;`-separated.
  {
    source: 'avtoelon_2020', path: 'vehicles/avtoelon_2020.csv', period: '2020-11', regionColumn: 'Город', delimiter: ';',
    idColumn: 'id',
  },
  // README: "avtoelon.uz, mid-2022, all makes".
  { source: 'avtoelon_2022', path: 'vehicles/avtoelon_2022.csv', period: '2022-06', regionColumn: 'Shahar' },
  // README: "avtoelon.uz, August 2023, Chevrolet".
  { source: 'avtoelon_chevrolet_2023', path: 'vehicles/avtoelon_chevrolet_2023.csv', period: '2023-08', regionColumn: 'region' },
];

export function vehicleSourceFile(source: VehicleSource): VehicleSourceFile {
  const file = VEHICLE_SOURCE_FILES.find((f) => f.source === source);
  if (!file) throw new Error(`unknown vehicle source ${source}`);
  return file;
}
