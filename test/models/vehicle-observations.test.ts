/**
 * An organisation's exported vehicle observations as a training source (`npm run train --
 * --with-observations FILE`, issue 18 item 4): the mapping to vehicle records with its report, and
 * how they enter the forward splits (a full vehicle training takes minutes: the row selection is
 * tested directly).
 */
import { join } from 'node:path';
import { readObservationExport, type ExportedObservation, type ObservationExport } from '../../models/ingest/observation-export';
import { PROJECT_ROOT } from '../../models/paths';
import { ingestVehicleObservations, OBSERVATION_DROP_REASONS, type VehicleRecord } from '../../models/vehicle/ingest';
import { observationLine } from '../../tools/models/vehicle/train-cli';
import { forwardSplitRows, forwardTestPeriods } from '../../models/vehicle/train';
import type { VehicleFeatureSource } from '../../models/vehicle/features';

const FIXTURE = join(PROJECT_ROOT, 'test', 'models', 'fixtures', 'vehicle-observations.ndjson');

const listing = (over: Partial<VehicleRecord> = {}): VehicleRecord => ({
  source: 'avtoelon_2022', sourceRow: 1, period: '2022-06', make: 'Chevrolet', model: 'Damas', year: 2019, mileageKm: 50_000, engineLitres: 0.8,
  fuel: 'petrol', transmission: 'manual', body: 'minivan', drive: 'front', colour: null, trim: null, defects: null, region: null, priceUsd: 7000, ...over,
});

const cobalt = (line: number, priceUsd: number, over: Partial<ExportedObservation> = {}): ExportedObservation => ({
  line, id: `obs_${line}`, kind: 'vehicle', observedAt: '2026-10-01', priceUsd, priceType: 'sale',
  input: { make: 'Chevrolet', model: 'Cobalt', year: 2021, trim: null, engine: 1.5, fuel: 'petrol', transmission: 'manual', bodyType: 'sedan', drive: null, region: null, condition: null, paint: null, colour: null },
  ...over,
});

describe('exported vehicle observations → vehicle records', () => {
  const exported = readObservationExport(FIXTURE);
  // Ten Damas listings at 0.8 l: the model's median the observations' engine sizes are judged by.
  const listings = Array.from({ length: 10 }, (_, k) => listing({ sourceRow: k + 1 }));
  const { records, report } = ingestVehicleObservations(exported, listings);
  const byLine = new Map(records.map((r) => [r.sourceRow, r]));

  it('maps the canonical request of a kept line field by field, dated by the month observed', () => {
    expect(byLine.get(1)).toEqual({
      source: 'observations', sourceRow: 1, period: '2026-10', make: 'Chevrolet', model: 'Cobalt', year: 2021,
      mileageKm: null, engineLitres: 1.5, fuel: 'petrol', transmission: 'automatic', body: 'sedan', drive: null, colour: 'white', trim: 4,
      defects: false, region: 'tashkent_city', priceUsd: 12_400,
    });
    // The make as the service wrote it (Daewoo, not its badge family); needs_repair → defects; regions and drive as codes.
    expect(byLine.get(3)).toEqual(expect.objectContaining({ make: 'Daewoo', model: 'Nexia 2', year: 2014, fuel: 'gas_petrol', transmission: 'manual', period: '2026-11', defects: null }));
    expect(byLine.get(4)).toEqual(expect.objectContaining({ model: 'Spark', drive: 'front', region: 'samarkand', defects: true, period: '2026-09', priceUsd: 6_900 }));
    expect(records.map((r) => r.sourceRow)).toEqual([1, 3, 4, 5, 12]);
  });

  it('cleans as the listings are cleaned: an engine size judged by the listings\' model median, an unknown code set to unknown', () => {
    expect(byLine.get(5)!.engineLitres).toBe(0.8); // "8" on a Damas: the decimal point restored
    expect(report.corrections).toEqual({ engine_decimal_restored: 1, code_cleared: 1 });
    expect(byLine.get(12)).toEqual(expect.objectContaining({ make: 'Lada', model: '2107', colour: null })); // "sky_blue" is no colour code
    // Without listings to judge by, only the absolute bounds apply: 8 l is kept.
    expect(ingestVehicleObservations(exported).records.find((r) => r.sourceRow === 5)!.engineLitres).toBe(8);
  });

  it('counts every vehicle line, kept or dropped with its reason, and by price type; home lines are not its', () => {
    expect(report).toEqual(expect.objectContaining({
      file: 'vehicle-observations.ndjson', sha256: exported.sha256, lines: 11, otherKinds: 1, kept: 5,
      dropped: { unknown_model: 2, invalid_input: 1, year_out_of_range: 1, price_out_of_range: 1, duplicate_in_file: 1 },
      byPriceType: { sale: { lines: 6, kept: 2 }, appraisal: { lines: 2, kept: 1 }, listing: { lines: 3, kept: 2 } },
      periods: { first: '2026-08', last: '2026-11' },
      byPeriod: { '2026-08': 1, '2026-09': 1, '2026-10': 1, '2026-11': 2 },
    }));
    const dropped = Object.values(report.dropped).reduce((a, b) => a + b, 0);
    expect(report.kept + dropped).toBe(report.lines);
    for (const reason of Object.keys(report.dropped)) expect(OBSERVATION_DROP_REASONS).toHaveProperty(reason);
    expect(records.every((r) => r.source === 'observations')).toBe(true);
    expect(exported.observations.filter((o) => o.kind === 'home')).toHaveLength(1);
  });

  it('drops a line that is no canonical vehicle with its reason rather than failing', () => {
    const odd = (line: number, input: Record<string, unknown>) => cobalt(line, 9_000, { input });
    const { records: kept, report: r } = ingestVehicleObservations({
      file: 'odd.ndjson', sha256: 'x', observations: [
        odd(1, {}),
        odd(2, { make: 'Chevrolet', model: 'Cobalt', year: '2021' }),
        odd(3, { make: 'chevrolet', model: 'Cobalt', year: 2021 }), // a spelling, not the catalogue's name
        odd(4, { make: 'Chevrolet', model: 'cobalt', year: 2021 }),
        odd(5, { make: 'Chevrolet', model: 'Cobalt', year: 1900 }),
        odd(6, { make: 'Chevrolet', model: 'Cobalt', year: 2021, engine: 'big', trim: 9, fuel: 'steam', mileageKm: 61_000 }),
      ],
    });
    expect(r.dropped).toEqual({ invalid_input: 2, unknown_model: 2, year_out_of_range: 1 });
    expect(kept).toEqual([expect.objectContaining({ sourceRow: 6, engineLitres: null, trim: null, fuel: null, mileageKm: 61_000 })]);
    expect(r.corrections).toEqual({ code_cleared: 3 });
  });

  it('fences prices among the observations themselves, per model around its model year', () => {
    const observations = [...Array.from({ length: 24 }, (_, k) => cobalt(k + 1, 11_000 + 100 * k)), cobalt(25, 60_000, { priceType: 'appraisal' })];
    const { records: kept, report: r } = ingestVehicleObservations({ file: 'f.ndjson', sha256: 'x', observations });
    expect(kept).toHaveLength(24);
    expect(r.dropped).toEqual({ price_outlier: 1 });
    expect(r.byPriceType.appraisal).toEqual({ lines: 1, kept: 0 });
    expect(r.priceFences).toBe(1);
    expect(r.unfenced).toBe(0);
  });

  it('is empty, with its counts, for an export without a vehicle line', () => {
    const homes: ObservationExport = { file: 'homes.ndjson', sha256: 'y', observations: exported.observations.filter((o) => o.kind === 'home') };
    const { records: none, report: r } = ingestVehicleObservations(homes);
    expect(none).toEqual([]);
    expect(r).toEqual(expect.objectContaining({ lines: 0, otherKinds: 1, kept: 0, dropped: {}, periods: null, byPeriod: {} }));
  });

  it('prints one line about them', () => {
    expect(observationLine(report)).toBe(
      `observations vehicle-observations.ndjson (sha256 ${exported.sha256.slice(0, 12)}…): 5 of 11 vehicle lines kept (sale 2/6, appraisal 1/2, listing 2/3), observed 2026-08 to 2026-11; `
      + 'dropped unknown_model 2, invalid_input 1, year_out_of_range 1, price_out_of_range 1, duplicate_in_file 1; 1 line of another kind left to its trainer',
    );
  });
});

describe('observations in the forward splits', () => {
  const row = (period: string): VehicleFeatureSource => ({
    make: 'Chevrolet', model: 'Cobalt', year: 2019, mileageKm: null, engineLitres: null, fuel: null, transmission: null, body: null, drive: null,
    trim: null, defects: null, region: null, period,
  });
  const dataOf = (rows: [string, string][]) => ({ rows: rows.map(([, period]) => row(period)), source: rows.map(([source]) => source) });
  const listings: [string, string][] = [['avtoelon_2020', '2020-11'], ['avtoelon_2022', '2022-06'], ['avtoelon_chevrolet_2023', '2023-08']];
  const observed: [string, string][] = [['observations', '2022-01'], ['observations', '2022-06'], ['observations', '2023-08'], ['observations', '2026-10']];
  const data = dataOf([...listings, ...observed]);
  const selected = (test: string, which: 'fit' | 'test') => data.rows.map((_, i) => i).filter(forwardSplitRows(data, test)[which]).map((i) => `${data.source[i]} ${data.rows[i].period}`);

  it('tests the listing snapshots after the oldest, never an observation month', () => {
    expect(forwardTestPeriods(data)).toEqual(['2022-06', '2023-08']);
    expect(forwardTestPeriods(dataOf(listings))).toEqual(['2022-06', '2023-08']);
  });

  it('fits a split on the observations dated before its test month only, and tests on its listings only', () => {
    expect(selected('2022-06', 'fit')).toEqual(['avtoelon_2020 2020-11', 'observations 2022-01']);
    expect(selected('2022-06', 'test')).toEqual(['avtoelon_2022 2022-06']);
    expect(selected('2023-08', 'fit')).toEqual(['avtoelon_2020 2020-11', 'avtoelon_2022 2022-06', 'observations 2022-01', 'observations 2022-06']);
    expect(selected('2023-08', 'test')).toEqual(['avtoelon_chevrolet_2023 2023-08']);
    // A later observation (2026-10) and one of the test month itself never reach a forward fit.
    for (const test of forwardTestPeriods(data)) expect(selected(test, 'fit')).not.toContain('observations 2026-10');
    expect(selected('2023-08', 'fit')).not.toContain('observations 2023-08');
  });

  it('selects the listings alone as before when there are no observations', () => {
    const only = dataOf(listings);
    const pick = (test: string, which: 'fit' | 'test') => only.rows.map((_, i) => i).filter(forwardSplitRows(only, test)[which]);
    expect(pick('2023-08', 'fit')).toEqual(only.rows.map((_, i) => i).filter((i) => only.rows[i].period < '2023-08'));
    expect(pick('2023-08', 'test')).toEqual(only.rows.map((_, i) => i).filter((i) => only.rows[i].period === '2023-08'));
  });
});
