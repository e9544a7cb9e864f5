/**
 * Issue 37, item 3: the life-cycle store on its own: prices with the day's rate, bumps, inactive and
 * 410 removals, relisting, the journal replayed after a crash (a half-written line ignored, a
 * completed run applied once), cross-site duplicates linked and counted once, and saved pages
 * ingested from a folder (`--from-dir`).
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adaptOlxOffer, adaptUyborListing, isSkipped, lifeFacts, uzsPerUsdOn, type Collected, type CollectedListing } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { PROJECT_ROOT } from '../../models/paths';
import { createVehicleLookups } from '../../models/vehicle/ingest/lookups';
import { ingestDirectory, LifecycleStore } from '../../platform/collect';
import { olxFlat, uyborFlat } from './support/listings';

const normaliser = createNormaliser();
const home = (day: string) => ({ normaliser, seenOn: day });
const one = (result: Collected): CollectedListing => {
  if (isSkipped(result)) throw new Error(result.skip);
  return result;
};

describe('life-cycle store', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'collect-store-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps each asking price with its day and rate, and each bump, once', () => {
    const store = LifecycleStore.open(directory);
    const flat = uyborFlat(1);
    store.recordSightings('r1', '2026-06-01', [one(adaptUyborListing(flat, home('2026-06-01')))]);
    store.recordSightings('r2', '2026-06-02', [one(adaptUyborListing(flat, home('2026-06-02')))]);
    const inSoum = { ...flat, price: 700_000_000, priceCurrency: 'uzs', upAt: '2026-06-03T05:00:00Z' };
    store.recordSightings('r3', '2026-06-03', [one(adaptUyborListing(inSoum, home('2026-06-03')))]);
    store.recordSightings('r4', '2026-06-04', [one(adaptUyborListing({ ...inSoum, price: 650_000_000 }, home('2026-06-04')))]);
    const life = store.get('uybor', String(flat.id))!;
    expect(life.prices.map((p) => [p.day, p.amount, p.currency, p.uzsPerUsd])).toEqual([
      ['2026-06-01', flat.price, 'USD', uzsPerUsdOn('2026-06-01')],
      ['2026-06-03', 700_000_000, 'UZS', uzsPerUsdOn('2026-06-03')],
      ['2026-06-04', 650_000_000, 'UZS', uzsPerUsdOn('2026-06-04')],
    ]);
    expect(life.bumps).toEqual(['2026-06-03T05:00:00Z']);
    expect(lifeFacts(life)).toMatchObject({ priceCuts: 1, lastAskingPrice: { amount: 650_000_000, currency: 'UZS' } });
  });

  it('removes on inactive or 410 at once, on absence after two completed runs, and relists when seen again', () => {
    const store = LifecycleStore.open(directory);
    const [a, b, c] = [uyborFlat(1), uyborFlat(2), uyborFlat(3)];
    store.recordSightings('r1', '2026-06-01', [a, b, c].map((l) => one(adaptUyborListing(l, home('2026-06-01')))));
    store.completeRun('uybor', 'r1', '2026-06-01');
    store.recordSightings('r2', '2026-06-02', [one(adaptUyborListing({ ...b, isActive: false }, home('2026-06-02')))]);
    store.recordGone('uybor', String(c.id), '2026-06-02', 'gone');
    store.completeRun('uybor', 'r2', '2026-06-02');
    expect(store.get('uybor', String(a.id))!.removed).toBeNull(); // one missed run is not a removal
    expect(store.get('uybor', String(b.id))!.removed).toEqual({ day: '2026-06-02', reason: 'inactive' });
    expect(store.get('uybor', String(c.id))!.removed).toEqual({ day: '2026-06-02', reason: 'gone' });
    store.completeRun('uybor', 'r3', '2026-06-03');
    expect(store.get('uybor', String(a.id))!.removed).toEqual({ day: '2026-06-02', reason: 'absent' });
    store.recordSightings('r4', '2026-06-04', [one(adaptUyborListing(a, home('2026-06-04')))]);
    expect(store.get('uybor', String(a.id))).toMatchObject({ removed: null, relists: 1, lastSeen: '2026-06-04' });
  });

  it('replays its journal after a crash, ignoring a half-written line and a completed run seen twice', () => {
    const store = LifecycleStore.open(directory);
    const [a, b] = [uyborFlat(1), uyborFlat(2)];
    store.recordSightings('r1', '2026-06-01', [a, b].map((l) => one(adaptUyborListing(l, home('2026-06-01')))));
    store.completeRun('uybor', 'r1', '2026-06-01'); // compacted: the journal is empty
    store.recordSightings('r2', '2026-06-02', [one(adaptUyborListing(a, home('2026-06-02')))]);
    const completed = JSON.stringify({ e: 'completed', site: 'uybor', run: 'r2', day: '2026-06-02' });
    appendFileSync(join(directory, 'journal.ndjson'), `${completed}\n${completed}\n{"e":"seen","run":"r3","da`);
    const reopened = LifecycleStore.open(directory);
    expect(reopened.size).toBe(2);
    expect(reopened.get('uybor', String(a.id))!.lastSeen).toBe('2026-06-02');
    expect(reopened.get('uybor', String(b.id))).toMatchObject({ missedRuns: 1, removed: null });
    expect(reopened.hasCompleted('uybor', 'r2')).toBe(true);
  });

  it('links the same flat on uybor and olx and counts it once', () => {
    const store = LifecycleStore.open(directory);
    const day = '2026-06-01';
    const uybor = uyborFlat(7, 61_000);
    const sameOnOlx = olxFlat(7, 60_000); // same district, rooms, area, floor; price within 5%
    const otherOnOlx = olxFlat(8, 90_000);
    store.recordSightings('u1', day, [one(adaptUyborListing(uybor, home(day)))]);
    store.recordSightings('o1', day, [sameOnOlx, otherOnOlx].map((o) => one(adaptOlxOffer(o, 'apartment', home(day)))));
    const completion = store.completeRun('olx', 'o1', day);
    expect(completion.linkedDuplicates).toBe(1);
    const linked = [store.get('uybor', String(uybor.id))!, store.get('olx', String(sameOnOlx.id))!];
    expect(linked.filter((l) => l.duplicateOf !== null)).toHaveLength(1);
    expect(store.summary()).toMatchObject({ listings: 3, active: 3, linkedDuplicates: 1, distinctActive: 2 });
  });

  it('ingests saved pages from a folder, recognising each site by its content', () => {
    const saved = join(directory, 'saved');
    mkdirSync(saved);
    copyFileSync(join(PROJECT_ROOT, 'test', 'collect', 'fixtures', 'uybor-listings.json'), join(saved, 'a-uybor.json'));
    copyFileSync(join(PROJECT_ROOT, 'test', 'collect', 'fixtures', 'olx-offers.json'), join(saved, 'b-olx.json'));
    const recorded = join(PROJECT_ROOT, '..', 'shared', 'fixtures', 'avtoelon', 'search-2025-11-11.html');
    const withAvtoelon = existsSync(recorded);
    if (withAvtoelon) copyFileSync(recorded, join(saved, 'c-avtoelon.html'));
    appendFileSync(join(saved, 'notes.html'), '<p>nothing</p>');
    const store = LifecycleStore.open(join(directory, 'store'));
    const report = ingestDirectory(saved, store, {
      home: home('2026-06-30'),
      vehicles: { lookups: createVehicleLookups(), seenOn: '2026-06-30' },
      runId: 'dir-1',
      complete: true,
    });
    expect(report.listings).toEqual({ uybor: 5, olx: 3, avtoelon: withAvtoelon ? 20 : 0 });
    expect(report.skipped).toBe(3); // uybor land and unpriced, olx negotiable
    expect(report.unrecognised).toEqual(['notes.html']);
    expect(store.size).toBe(8 + (withAvtoelon ? 20 : 0));
    expect(store.get('olx', '50000003')!.removed).toEqual({ day: '2026-06-30', reason: 'inactive' });
    expect(readFileSync(join(directory, 'store', 'listings.ndjson'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1 + store.size);
  });
});
