/**
 * Two realistic valuations for the report renderer: a 3-room flat in Chilanzar (every section,
 * the district outline read from data/geo as the service has it) and a Chevrolet Cobalt (no
 * market figures, no location). Figures are plausible for Tashkent in early 2026, not real ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../../models/paths';
import type { DistrictOutline, ValuationReportData } from '../../gateway/reports';

interface DistrictFeature {
  properties: { ADM2_EN: string };
  geometry: { type: 'GeometryCollection'; geometries: DistrictOutline[] };
}

/** Chilonzor's boundary from the districts file the location index uses (a GeometryCollection of one MultiPolygon). */
export function chilanzarOutline(): DistrictOutline {
  const file = JSON.parse(readFileSync(join(DATA_DIR, 'geo', 'tashkent_districts.geojson'), 'utf8')) as { features: DistrictFeature[] };
  const feature = file.features.find((f) => f.properties.ADM2_EN === 'Chilonzor district');
  if (!feature) throw new Error('Chilonzor district not in data/geo/tashkent_districts.geojson');
  return feature.geometry.geometries[0];
}

export function chilanzarFlat(): ValuationReportData {
  return {
    valuationId: 'val_01JD8Y6Q4W3ZK2M9TPR5H7XB1C',
    organisation: 'org_hamkorbank_tashkent',
    createdAt: '2026-03-12T10:14:27Z',
    kind: 'home',
    object: {
      property_type: 'apartment',
      district: 'Chilanzar',
      mahalla: 'Katartal',
      area_m2: 65,
      rooms: 3,
      floor: 4,
      total_floors: 9,
      renovation: 'euro',
      market: 'resale',
      building_type: 'panel',
      bathroom: 'separate',
      year_built: 1984,
      asking_price_usd: 95000,
    },
    estimate: 78500,
    interval: { low: 68200, high: 90400, coverage: 0.9 },
    confidence: { level: 'medium', score: 0.64, fsd: null }, // a record made before fsd was answered
    attribution: {
      kind: 'flat',
      modelVersion: '2026.11.25',
      estimate: 78500,
      typical: { area: 58, rooms: 2, totalFloors: 9, market: 'resale', renovation: 'average', buildingType: 'panel', listings: 1432 },
      contributions: [
        { group: 'size', usd: -9800, share: -0.125 },
        { group: 'renovation', usd: -6100, share: -0.078 },
        { group: 'place', usd: -2400, share: -0.031 },
        { group: 'floor', usd: 300, share: 0.004 },
      ],
    },
    drivers: [{ kind: 'marketLevel', indexRatio: 1.018 }],
    members: [{ name: 'lightgbm', usd: 79400, weight: 0.55 }, { name: 'catboost', usd: 77900, weight: 0.45 }],
    uzs: { estimate: 993_060_000, low: 862_780_000, high: 1_143_600_000, rate: 12650.45, rateDate: '2026-03-12', basis: 'cbu-daily' },
    valuationDate: '2026-03-12',
    dataAgeMonths: 2,
    market: {
      district: 'Chilanzar',
      districtMedianPricePerM2: 1182,
      districtListings: 1432,
      mahalla: 'Katartal',
      mahallaMedianPricePerM2: 1236,
      mahallaListings: 87,
    },
    comparables: [
      { label: '3-room, Katartal 28', area: 67, rooms: 3, floor: '3/9', period: '2026-01', priceUsd: 81000, priceAtValuationDateUsd: 81900, distanceKm: 0.3, sameMahalla: false },
      { label: '3-room, Chilanzar-9, euro', area: 63, rooms: 3, floor: '5/9', period: '2025-12', priceUsd: 76500, priceAtValuationDateUsd: 77900, distanceKm: 0.8, sameMahalla: false },
      { label: '3-room, Bunyodkor ave.', area: 70.5, rooms: 3, floor: '2/5', period: '2026-02', priceUsd: 84000, priceAtValuationDateUsd: 84300, distanceKm: 1.2, sameMahalla: false },
      { label: '2-room + kitchen-living, Katartal', area: 61, rooms: 3, floor: '8/9', period: '2025-11', priceUsd: 72000, priceAtValuationDateUsd: 73600, distanceKm: 0.6, sameMahalla: false },
      { label: '3-room, Chilanzar-12, good', area: 66, rooms: 3, floor: '1/4', period: '2026-02', priceUsd: 74500, priceAtValuationDateUsd: 74700, distanceKm: 1.4, sameMahalla: false },
    ],
    location: {
      lat: 41.2897,
      lon: 69.2042,
      composite: 71,
      subindexes: [
        { name: 'transport', score: 84 },
        { name: 'education', score: 77 },
        { name: 'healthcare', score: 69 },
        { name: 'daily_needs', score: 88 },
        { name: 'green', score: 52 },
        { name: 'culture', score: 41 },
        { name: 'safety', score: 63 },
        { name: 'centrality', score: 58 },
        { name: 'market_liquidity', score: null },
      ],
      districtOutline: chilanzarOutline(),
    },
    anomalyFlags: ['ASKING_PRICE_ABOVE_INTERVAL'],
    marketAdjustment: { baseEstimate: 76900, factor: 1.021, group: 'Chilanzar · resale', observations: 38 },
    marketMixture: null,
    model: {
      version: 'residential-2026.03.1',
      trainedAt: '2026-03-01T04:00:00Z',
      districtAccuracy: { district: 'Chilanzar', medianApe: 0.094, intervalCoverage: 0.902, n: 412, accuracyClass: 'good' },
      headline: { n: 2140, medianApe: 0.108, intervalCoverage: 0.897 },
    },
  };
}

export function cobaltCar(): ValuationReportData {
  return {
    valuationId: 'val_01JD8YB2N6V0C4QF8S1KJ3DRAE',
    organisation: 'org_hamkorbank_tashkent',
    createdAt: '2026-03-12T11:02:05Z',
    kind: 'vehicle',
    object: {
      make: 'Chevrolet',
      model: 'Cobalt',
      year: 2021,
      mileage_km: 58000,
      body_type: 'sedan',
      fuel: 'gas_petrol',
      transmission: 'automatic',
      engine_l: 1.5,
      colour: 'white',
      paint: 'original',
      region: 'Tashkent city',
    },
    estimate: 11200,
    interval: { low: 9800, high: 12700, coverage: 0.9 },
    confidence: { level: 'high', score: 0.92, fsd: 0.079 },
    attribution: null,
    drivers: [
      { kind: 'marketLevel', indexRatio: 1.021 },
      { kind: 'score', score: 0.92 },
    ],
    members: [{ name: 'lightgbm', usd: 11000, weight: 1 }],
    uzs: { estimate: 141_685_000, low: 123_974_000, high: 160_661_000, rate: 12650.45, rateDate: '2026-03-12', basis: 'cbu-daily' },
    valuationDate: '2026-03-12',
    dataAgeMonths: 1,
    market: null,
    comparables: [
      { label: 'Cobalt 2021, 4th trim, 61 000 km', area: null, rooms: null, floor: null, period: '2026-02', priceUsd: 11400, priceAtValuationDateUsd: 11350, distanceKm: null, sameMahalla: false },
      { label: 'Cobalt 2020, 4th trim, 72 000 km', area: null, rooms: null, floor: null, period: '2026-01', priceUsd: 10600, priceAtValuationDateUsd: 10500, distanceKm: null, sameMahalla: false },
      { label: 'Cobalt 2022, 2nd trim, 35 000 km', area: null, rooms: null, floor: null, period: '2026-02', priceUsd: 11900, priceAtValuationDateUsd: 11850, distanceKm: null, sameMahalla: false },
    ],
    location: null,
    anomalyFlags: [],
    marketAdjustment: null,
    marketMixture: null,
    model: {
      version: 'vehicle-2026.02.2',
      trainedAt: '2026-02-20',
      districtAccuracy: { district: 'Chevrolet Cobalt', medianApe: 0.061, intervalCoverage: 0.91, n: 1180, accuracyClass: 'high' },
      headline: null,
    },
  };
}
