/**
 * Issue 37, item 4 (the part built): collected homes exported as a dated training source, and the
 * weekly market point (median asking USD/m², and the repeat-asking change over the same flats).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adaptOlxOffer, adaptUyborListing, isSkipped, weekOf, type Collected, type CollectedListing } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { exportTrainingSource, LifecycleStore } from '../../platform/collect';
import { olxFlat, uyborFlat } from './support/listings';

const normaliser = createNormaliser();
const one = (result: Collected): CollectedListing => {
  if (isSkipped(result)) throw new Error(result.skip);
  return result;
};

describe('training export and weekly market point', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'collect-export-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('weeks start on Monday', () => {
    expect(weekOf('2026-06-01')).toBe('2026-06-01'); // a Monday
    expect(weekOf('2026-06-07')).toBe('2026-06-01');
    expect(weekOf('2026-06-08')).toBe('2026-06-08');
  });

  it('exports each home once at its last asking price, and reads the weekly change over the same flats', () => {
    const store = LifecycleStore.open(directory);
    const flats = [1, 2, 3, 4].map((n) => uyborFlat(n, 50_000));
    const seen = (day: string, listings: CollectedListing[]) => store.recordSightings(`r-${day}`, day, listings);
    const uybor = (day: string, list = flats, factor = 1) => list.map((f) => one(adaptUyborListing({ ...f, price: Number(f.price) * factor }, { normaliser, seenOn: day })));
    // Week of 1 June: four flats at $50,000. Week of 8 June: the same four ask 10% more, and a cheap new one appears.
    seen('2026-06-03', uybor('2026-06-03'));
    seen('2026-06-10', uybor('2026-06-10', flats, 1.1));
    const cheap = uyborFlat(9, 20_000);
    seen('2026-06-10', uybor('2026-06-10', [cheap]));
    // The same flat as uybor's first on olx, linked as a duplicate: exported once.
    seen('2026-06-10', [one(adaptOlxOffer(olxFlat(1, 55_500), 'apartment', { normaliser, seenOn: '2026-06-10' }))]);
    store.completeRun('olx', 'r-2026-06-10', '2026-06-10');

    const written = exportTrainingSource(store, '2026-06-14', 2);
    const records = readFileSync(written.recordsPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { source: string; priceUsd: number; period: string });
    expect(written.records).toBe(5);
    expect(records.map((r) => r.source)).toEqual(['uybor_collected', 'uybor_collected', 'uybor_collected', 'uybor_collected', 'uybor_collected']);
    expect(records.slice(0, 4).map((r) => r.priceUsd)).toEqual([55_000, 55_000, 55_000, 55_000]);
    expect(records.every((r) => r.period === '2026-06')).toBe(true);

    expect(written.weekly.map((p) => [p.week, p.flats, p.repeatFlats, p.repeatChange])).toEqual([
      ['2026-06-01', 4, 0, null],
      ['2026-06-08', 5, 4, 1.1],
    ]);
    const [first, second] = written.weekly;
    // Areas 56, 72, 88 and 44 m²: the median of the four prices per m² is the mean of the middle two.
    expect(first.medianUsdPerM2).toBe(Math.round((50_000 / 56 + 50_000 / 72) / 2));
    expect(second.medianUsdPerM2).not.toBeNull();
    expect(JSON.parse(readFileSync(written.indexPath, 'utf8'))).toEqual({ day: '2026-06-14', weekly: written.weekly });
  });
});
