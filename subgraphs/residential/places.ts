/**
 * The residential side of the District and Mahalla entities: keys to the codes the model uses,
 * and what the model in service knows of a place (market figures, held-out accuracy).
 * Names and ids come from the shared vocabulary, as in the location subgraph.
 */
import type { ResidentialModelSummary, ResolvedLocation } from '../../models/residential';
import { DISTRICT_IDS, DISTRICT_NAMES, mahallasOf, type DistrictId } from '../../models/vocabulary';

/** A District as residential resolves it: the key (English name) and the code. */
export interface DistrictRef {
  name: string;
  id: DistrictId;
}

/** A Mahalla as residential resolves it: the key (id). */
export interface MahallaRef {
  id: string;
}

/** HomeValuation.location: the entities, and the plain names the REST reply reads without the location subgraph. */
export interface ValuationLocationView {
  district: DistrictRef;
  mahalla: MahallaRef | null;
  districtName: string;
  mahallaName: string | null;
  mahallaId: string | null;
  matched: string;
}

/** English name → code; the code is accepted as a key too, as the location subgraph accepts it. */
const DISTRICT_BY_KEY: ReadonlyMap<string, DistrictId> = new Map([
  ...DISTRICT_IDS.map((id) => [DISTRICT_NAMES[id], id] as const),
  ...DISTRICT_IDS.map((id) => [id, id] as const),
]);
const MAHALLA_NAMES: ReadonlyMap<string, string> = new Map(DISTRICT_IDS.flatMap((d) => mahallasOf(d).map((m) => [m.id, m.name] as const)));
const MAHALLA_IDS: ReadonlySet<string> = new Set(MAHALLA_NAMES.keys());

/** The District with this key; null for a name that is no district. */
export function districtRef(key: string): DistrictRef | null {
  const id = DISTRICT_BY_KEY.get(key);
  return id ? { name: DISTRICT_NAMES[id], id } : null;
}

/** The Mahalla with this id; null for an unknown id. */
export function mahallaRef(id: string): MahallaRef | null {
  return MAHALLA_IDS.has(id) ? { id } : null;
}

/** The mahalla's Uzbek Latin name (the vocabulary's); null for an unknown id. */
export function mahallaName(id: string): string | null {
  return MAHALLA_NAMES.get(id) ?? null;
}

export function valuationLocation(location: ResolvedLocation): ValuationLocationView {
  const district = districtRef(location.district);
  if (!district) throw new Error(`the valuation resolved an unknown district ${location.district}`);
  return {
    district,
    mahalla: location.mahallaId ? { id: location.mahallaId } : null,
    districtName: location.district,
    mahallaName: location.mahalla,
    mahallaId: location.mahallaId,
    matched: location.matched,
  };
}

export interface MarketFigures {
  listings: number;
  medianPricePerM2: number;
}

export interface DistrictAccuracyFigures {
  accuracyClass: string;
  n: number;
  r2: number;
  mape: number;
  medianApe: number;
  intervalCoverage: number;
}

/** What one model version knows of the places, indexed once per request from its summary. */
export class ModelPlaces {
  private readonly accuracy: ReadonlyMap<string, DistrictAccuracyFigures>;

  constructor(private readonly summary: ResidentialModelSummary) {
    // summary.districts names districts in English (DISTRICT_NAMES), the District key.
    this.accuracy = new Map(summary.districts.map((d) => [d.district, {
      accuracyClass: d.accuracyClass,
      n: d.metrics.n,
      r2: d.metrics.r2,
      mape: d.metrics.mape,
      medianApe: d.metrics.medianApe,
      intervalCoverage: d.metrics.intervalCoverage,
    }]));
  }

  /** null when the version has no training listings in the district. */
  districtMarket(district: DistrictRef): MarketFigures | null {
    const market = this.summary.market.district[district.id];
    return market ? { listings: market.n, medianPricePerM2: market.medianPricePerM2 } : null;
  }

  /** null when the mahalla has fewer listings than the manifest keeps a median for (MIN_MAHALLA_ROWS). */
  mahallaMarket(mahalla: MahallaRef): MarketFigures | null {
    const market = this.summary.market.mahalla[mahalla.id];
    return market ? { listings: market.n, medianPricePerM2: market.medianPricePerM2 } : null;
  }

  /** null when the version's held-out evaluation has no sales in the district. */
  districtAccuracy(district: DistrictRef): DistrictAccuracyFigures | null {
    return this.accuracy.get(district.name) ?? null;
  }
}
