/**
 * What a serving process reads of the collector's exports (platform/collect/collected-exports.ts): the
 * newest weekly index, read again once its refresh time has passed, a broken file logged once and
 * read as absent; and the publication of its weeks after the index's newest month
 * (models/residential/collected-weekly.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectedWeeklySeries } from '../../models/residential';
import { CollectedWeeklyIndex, readNewestWeeklyIndex } from '../../platform/collect/collected-exports';

const point = (week: string, flats: number) => ({ week, flats, medianUsdPerM2: flats ? 1200 : null, repeatFlats: Math.max(0, flats - 1), repeatChange: flats > 1 ? 0.99501 : null });

describe('collected weekly index', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'collected-exports-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));
  const write = (day: string, text: string) => {
    mkdirSync(join(directory, 'exports'), { recursive: true });
    writeFileSync(join(directory, 'exports', `weekly-index-${day}.json`), text);
  };

  it('reads the newest export, again after the refresh time; none is null', () => {
    let now = 0;
    const reader = new CollectedWeeklyIndex(directory, () => {}, 60_000, () => now);
    expect(readNewestWeeklyIndex(directory)).toBeNull();
    expect(reader.current()).toBeNull();
    write('2026-11-16', JSON.stringify({ day: '2026-11-16', weekly: [point('2026-11-09', 3)] }));
    write('2026-11-23', JSON.stringify({ day: '2026-11-23', weekly: [point('2026-11-16', 4)] }));
    now = 59_999;
    expect(reader.current()).toBeNull(); // within the refresh time
    now = 60_000;
    expect(reader.current()).toMatchObject({ day: '2026-11-23', weekly: [{ week: '2026-11-16', flats: 4 }] });
  });

  it('a file that does not parse is logged once and read as absent', () => {
    const logged: string[] = [];
    let now = 0;
    const reader = new CollectedWeeklyIndex(directory, (m) => logged.push(m), 1, () => now);
    write('2026-11-23', '{"day":');
    expect(reader.current()).toBeNull();
    now = 5;
    expect(reader.current()).toBeNull();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/collected weekly index not read/);
  });

  it('publishes the weeks ending after the newest month, weekly, from collected listings, not applied', () => {
    const weekly = [point('2026-07-20', 5), point('2026-07-27', 6), point('2026-08-03', 0)];
    const series = collectedWeeklySeries('2026-07', '2026-08-09', weekly)!;
    expect(series).toMatchObject({ exportedOn: '2026-08-09', appliedToValuations: false });
    expect(series.points).toEqual([
      { week: '2026-07-27', weekEnd: '2026-08-02', frequency: 'weekly', source: 'collected listings', listings: 6, medianUsdPerM2: 1200, repeatListings: 5, repeatChange: 0.995 },
      { week: '2026-08-03', weekEnd: '2026-08-09', frequency: 'weekly', source: 'collected listings', listings: 0, medianUsdPerM2: null, repeatListings: 0, repeatChange: null },
    ]);
    expect(collectedWeeklySeries('2026-08', '2026-08-09', weekly.slice(0, 2))).toBeNull();
  });
});
