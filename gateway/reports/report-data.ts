/**
 * What the credit-committee report shows (issue 19): one valuation, already assembled by the
 * caller (the REST route and its data assembly live elsewhere). The renderer only reads it: it
 * fetches nothing, so the same data in the same language always gives the same document.
 */

export const REPORT_LANGUAGES = ['en', 'ru', 'uz'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

export type ObjectValue = string | number | boolean | null;

export interface UzsAmounts {
  estimate: number;
  low: number;
  high: number;
  /** Soʻm per US dollar. */
  rate: number;
  /** YYYY-MM-DD: the day the rate was set for. */
  rateDate: string;
  /**
   * Which rate it is, said in the report's language: the Central Bank's official rate of the
   * valuation date (or the newest before it), its last published rate (the date is past the
   * service's rates), its rate from the service's monthly table, or a rate recorded with the valuation.
   */
  basis: 'cbu-daily' | 'cbu-last-published' | 'cbu-monthly' | 'client' | 'recorded';
}

export interface MarketFigures {
  district: string;
  districtMedianPricePerM2: number | null;
  districtListings: number | null;
  mahalla: string | null;
  mahallaMedianPricePerM2: number | null;
  mahallaListings: number | null;
}

export interface Comparable {
  label: string;
  area: number | null;
  rooms: number | null;
  floor: string | null;
  /** When it was listed, e.g. '2025-11' or '2025 Q4'. */
  period: string;
  priceUsd: number;
  priceAtValuationDateUsd: number;
  distanceKm: number | null;
  /** The listing lies in the flat's mahalla and no closer point is known of either (both at the mahalla's centre): said as "same mahalla", not as 0 km. */
  sameMahalla: boolean;
}

/** GeoJSON geometry of a district, WGS84 ([lon, lat] positions). */
export interface DistrictOutline {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: number[][][] | number[][][][];
}

export interface LocationFigures {
  lat: number;
  lon: number;
  /** 0–100. */
  composite: number | null;
  /** Subindexes by id (transport, education, …: translated when known), 0–100. */
  subindexes: { name: string; score: number | null }[];
  districtOutline: DistrictOutline | null;
}

export interface DistrictAccuracy {
  district: string;
  /** Median absolute percentage error on held-out listings, a share (0.11 = 11%). */
  medianApe: number | null;
  /** Share of held-out listings inside their interval. */
  intervalCoverage: number | null;
  n: number | null;
  /** 'high' | 'good' | 'fair' | 'low' (translated when known). */
  accuracyClass: string | null;
}

export interface ValuationReportData {
  valuationId: string;
  /** The requesting organisation's id (no personal data exists in the service). */
  organisation: string;
  /** ISO time the valuation was made. */
  createdAt: string;
  kind: 'home' | 'vehicle';
  /**
   * The object as understood: label → value in canonical form (district, area_m2, renovation: 'euro', …
   * or make, model, year, mileage_km, …). Known keys and codes are translated, the rest shown as given.
   */
  object: Record<string, ObjectValue>;
  /** USD. */
  estimate: number;
  /** USD; coverage is the share the interval is meant to hold, e.g. 0.9. */
  interval: { low: number; high: number; coverage: number };
  /** score 0–1. */
  /** fsd: null in records made before it was answered. */
  confidence: { level: 'high' | 'medium' | 'low'; score: number; fsd: number | null };
  /**
   * What drives the estimate: each field group's contribution against the district's typical flat
   * or house, or the make and model's typical car, from the serving model at report time
   * (models/residential/attribution.ts, models/house/attribution.ts, models/vehicle/attribution.ts);
   * null when not computed (a district without a typical home, a vehicle model without typical
   * cars), `drivers` then. A car's members are shown beside it.
   */
  attribution: EstimateAttribution | null;
  /** Without an attribution: the figures behind the estimate, formatted and named by the renderer. */
  drivers: ReportDriver[];
  /** Without an attribution (and beside a car's): the ensemble's members, shown as such (not as drivers). */
  members: ReportMember[];
  /** The estimate and interval in soʻm at the rate of the valuation date (see UzsAmounts.basis); null when not known. */
  uzs: UzsAmounts | null;
  /** YYYY-MM-DD. */
  valuationDate: string;
  dataAgeMonths: number | null;
  /** District and mahalla market figures (homes; null for vehicles). */
  market: MarketFigures | null;
  comparables: Comparable[];
  /** Null when unknown (and for vehicles). */
  location: LocationFigures | null;
  /** Codes, e.g. AREA_OUTSIDE_DISTRICT_RANGE: known ones are explained, unknown ones shown as they are. */
  anomalyFlags: string[];
  /** Present when the organisation's observations moved the model's estimate. */
  marketAdjustment: { baseEstimate: number; factor: number; group: string | null; observations: number } | null;
  /** Present when a flat sent without its market was valued as a new build and as resale, mixed: the weight of the new build, 0–1. */
  marketMixture: { newBuildProbability: number } | null;
  model: {
    version: string;
    trainedAt: string | null;
    districtAccuracy: DistrictAccuracy | null;
    /** The model's held-out accuracy overall, said in one line; null when it is not the model in service. */
    headline: { n: number; medianApe: number; intervalCoverage: number } | null;
  };
}

/** The figures behind an estimate the report names in its language (vehicles, houses). */
/** One member of the ensemble: its own estimate (USD) and its weight in the ensemble (null in records made before weights were answered). */
export interface ReportMember {
  name: string;
  usd: number;
  weight: number | null;
}

export type ReportDriver =
  | { kind: 'marketLevel'; indexRatio: number }
  | { kind: 'observations'; factor: number }
  | { kind: 'score'; score: number };

export const ATTRIBUTION_GROUPS = ['size', 'place', 'market', 'floor', 'building', 'renovation'] as const;
export type AttributionGroup = (typeof ATTRIBUTION_GROUPS)[number];

export const HOUSE_ATTRIBUTION_GROUPS = ['size', 'plot', 'place', 'building', 'renovation', 'utilities'] as const;
export type HouseAttributionGroup = (typeof HOUSE_ATTRIBUTION_GROUPS)[number];

export const VEHICLE_ATTRIBUTION_GROUPS = ['year', 'mileage', 'engine', 'fuel', 'transmission', 'body', 'drive', 'trim', 'condition', 'region'] as const;
export type VehicleAttributionGroup = (typeof VEHICLE_ATTRIBUTION_GROUPS)[number];

/** A flat's or a house's, as the residential subgraph's homeEstimateAttribution answers it; a car's, as the vehicle subgraph's vehicleEstimateAttribution does. */
export type EstimateAttribution = FlatAttribution | HouseAttribution | VehicleAttribution;

export interface FlatAttribution {
  kind: 'flat';
  /** The model version that valued the variants (the one in service at report time). */
  modelVersion: string;
  /** Its estimate of the flat as recorded, USD. */
  estimate: number;
  /** The district's typical flat each group was set to in turn. */
  typical: { area: number; rooms: number; totalFloors: number; market: string | null; renovation: string | null; buildingType: string | null; listings: number };
  /** The largest first: what the estimate would change by were the group typical (USD), and as a share of the estimate. */
  contributions: { group: AttributionGroup; usd: number; share: number }[];
}

export interface HouseAttribution {
  kind: 'house';
  modelVersion: string;
  estimate: number;
  /** The district's typical house (models/house/attribution.ts TypicalHouse). */
  typical: {
    area: number; rooms: number | null; landAreaSotka: number | null; totalFloors: number | null; buildingType: string | null; renovation: string | null;
    gas: boolean | null; water: boolean | null; sewerage: boolean | null; listings: number;
  };
  contributions: { group: HouseAttributionGroup; usd: number; share: number }[];
}

export interface VehicleAttribution {
  kind: 'vehicle';
  modelVersion: string;
  estimate: number;
  /** Whose typical car it was compared with: the make and model's, the make's (too few listings of the model), or the market's. */
  level: 'model' | 'make' | 'market';
  /** The typical car (models/vehicle/attribution.ts TypicalVehicle): codes as the request's. */
  typical: {
    year: number; mileageKm: number | null; engineLitres: number | null; fuel: string | null; transmission: string | null; body: string | null;
    drive: string | null; trim: number | null; defects: boolean | null; region: string | null; listings: number;
  };
  contributions: { group: VehicleAttributionGroup; usd: number; share: number }[];
}
