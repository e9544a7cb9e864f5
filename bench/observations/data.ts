/**
 * The benchmark's test files valued by a base model through the serving runtimes (the code the
 * service values with): every July 2026 uybor flat at its posting date, every 2023 Chevrolet at the
 * scrape's month. Each valued listing becomes a scored observation (price type 'listing').
 */
import { loadCsv } from '../../models/ingest/csv';
import { ingestListings } from '../../models/ingest';
import { sourceFile } from '../../models/ingest/sources';
import type { ApartmentRequest } from '../../models/residential/request';
import { ResidentialModelSet } from '../../models/residential/runtime';
import { ingestVehicles } from '../../models/vehicle/ingest';
import { VehicleModelSet } from '../../models/vehicle/runtime';
import type { VehicleRequest } from '../../models/vehicle/valuation';
import { badgeFamily } from '../../models/vehicle/vocabulary';
import { homeGroups, vehicleGroups, type ScoredObservation } from '../../models/observations';
import type { BaseModel } from './base-models';

export interface ValuedFile {
  observations: ScoredObservation[];
  /** Listings the runtime refused (vehicles without a basis). */
  refused: number;
  /** Milliseconds the runtime took to value them all. */
  valuationMs: number;
  /** Where each flat is (flats only): for candidate levels below the segment. */
  places?: Map<ScoredObservation, Place>;
}

export interface Place {
  mahallaId: string | null;
  lat: number | null;
  lon: number | null;
  totalFloors: number | null;
}

/**
 * The July 2026 flats as clients would send them (ingested alone, without price fences: the
 * residential trainer's forward test), each valued at its `posted_at` date.
 */
export async function valuedFlats(base: BaseModel): Promise<ValuedFile> {
  const records = ingestListings({ sources: ['uybor_2026'], priceFences: false }).records.filter((r) => r.propertyType === 'apartment');
  const rows = loadCsv(sourceFile('uybor_2026').path).rows;
  const postedAt = records.map((r) => {
    const posted = rows[r.sourceRow - 1]['posted_at'];
    if (!/^\d{4}-\d{2}-\d{2}/.test(posted)) throw new Error(`row ${r.sourceRow} has no posting date`);
    return posted.slice(0, 10);
  });
  const requests: ApartmentRequest[] = records.map((r, i) => ({
    district: r.district, mahallaId: r.mahallaId, area: r.area, rooms: r.rooms ?? 1, floor: r.floor ?? 1, totalFloors: r.totalFloors ?? 1,
    renovation: r.renovation, buildingType: r.buildingType, furniture: r.furniture, bathroom: r.bathroom, market: r.market, seller: r.seller,
    lat: r.lat, lon: r.lon, askingPrice: null, valuationDate: postedAt[i],
  }));
  const runtime = await ResidentialModelSet.load(base.version, base.root);
  const started = performance.now();
  const values = await runtime.value(requests);
  const valuationMs = performance.now() - started;
  await runtime.close();
  const observations: ScoredObservation[] = records.map((r, i) => ({
    kind: 'home', groups: homeGroups(r.district, r.market), observedAt: postedAt[i], priceUsd: r.priceUsd, priceType: 'listing',
    base: { estimate: values[i].estimate, low: values[i].interval.low, high: values[i].interval.high, coverage: values[i].interval.coverage, widening: values[i].marketLevel.intervalWidening },
    reference: `uybor_2026 row ${r.sourceRow}`,
  }));
  const places = new Map(observations.map((o, i) => [o, { mahallaId: records[i].mahallaId, lat: records[i].lat, lon: records[i].lon, totalFloors: records[i].totalFloors }]));
  return { observations, refused: 0, valuationMs, places };
}

/**
 * The 2023 Chevrolet file as the vehicle trainer ingests it, valued in the scrape's month (no listing
 * dates exist), or at `valuationDate`: dated later, the base model extrapolates its level past its
 * data and widens its intervals for the months between, as the service's car model does now.
 */
export async function valuedChevrolets(base: BaseModel, valuationDate?: string): Promise<ValuedFile> {
  const records = ingestVehicles({ sources: ['avtoelon_chevrolet_2023'] }).records;
  const requests: VehicleRequest[] = records.map((r) => ({
    make: r.make, model: r.model, year: r.year, mileageKm: r.mileageKm, engineLitres: r.engineLitres, fuel: r.fuel, transmission: r.transmission,
    body: r.body, drive: r.drive, trim: r.trim, defects: r.defects, region: r.region, paint: null, colour: r.colour,
    valuationDate: valuationDate ?? `${r.period}-15`, askingPrice: null,
  }));
  const runtime = await VehicleModelSet.load(base.version, base.root);
  const started = performance.now();
  const values = await runtime.value(requests);
  const valuationMs = performance.now() - started;
  await runtime.close();
  const observations: ScoredObservation[] = [];
  records.forEach((r, i) => {
    const value = values[i];
    if (value instanceof Error) return;
    observations.push({
      kind: 'vehicle', groups: vehicleGroups(badgeFamily(r.make), r.model), observedAt: valuationDate ?? `${r.period}-15`, priceUsd: r.priceUsd, priceType: 'listing',
      base: { estimate: value.estimate, low: value.interval.low, high: value.interval.high, coverage: value.interval.coverage, widening: value.marketLevel.intervalWidening },
      reference: `avtoelon_chevrolet_2023 row ${r.sourceRow}`,
    });
  });
  return { observations, refused: records.length - observations.length, valuationMs };
}
