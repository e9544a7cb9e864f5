/**
 * Issue 37, "numbers to reach": a month of daily runs against the fake site in which, each week, 5%
 * of the listings on the site are removed, 10% cut their price and new ones appear. Days on market,
 * price cuts, removals and the last asking price are checked exactly against what the fake site did.
 * Each day opens the store afresh from its files, as a daily process would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daysBetween, lifeFacts, uyborCollector, type UyborListing } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { crawlSite, LifecycleStore, ManualClock } from '../../platform/collect';
import { fakeSiteConfig, FakeSite } from './support/fake-site';
import { uyborFlat } from './support/listings';

const DAYS = 30;
const START = Date.parse('2026-06-01T03:00:00Z');
const dayName = (day: number) => new Date(START + day * 86_400_000).toISOString().slice(0, 10);

interface Truth {
  listing: UyborListing;
  createdDay: number;
  lastOnSite: number;
  removedDay: number | null;
  cuts: number;
}

describe('a simulated month of daily runs', () => {
  let site: FakeSite;
  let directory: string;
  beforeAll(async () => {
    site = await new FakeSite().start();
    directory = mkdtempSync(join(tmpdir(), 'collect-month-'));
  });
  afterAll(async () => {
    await site.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('reports days on market, price cuts, removals and last asking prices exactly', async () => {
    const truth = new Map<string, Truth>();
    let next = 0;
    const add = (count: number, day: number) => {
      for (let i = 0; i < count; i++) {
        const listing = { ...uyborFlat(next++), createdAt: `${dayName(day)}T01:00:00Z` };
        truth.set(String(listing.id), { listing, createdDay: day, lastOnSite: day, removedDay: null, cuts: 0 });
      }
    };
    add(400, 0);
    const normaliser = createNormaliser();
    for (let day = 0; day < DAYS; day++) {
      if (day > 0 && day % 7 === 0) {
        const onSite = [...truth.values()].filter((t) => t.removedDay === null);
        // Every 20th listing on the site leaves (5%), every 10th of the rest cuts its price by 5% (10%).
        onSite.forEach((t, i) => {
          if (i % 20 === 0) t.removedDay = day;
          else if (i % 10 === 1) {
            t.listing = { ...t.listing, price: Math.round(Number(t.listing.price) * 0.95) };
            t.cuts++;
          }
        });
        add(20, day);
      }
      site.uybor = [...truth.values()].filter((t) => t.removedDay === null).map((t) => t.listing);
      for (const t of truth.values()) if (t.removedDay === null) t.lastOnSite = day;
      const store = LifecycleStore.open(directory);
      const result = await crawlSite({
        collector: uyborCollector({ normaliser }, [7]),
        config: fakeSiteConfig(site.baseUrl, directory),
        store,
        clock: new ManualClock(START + day * 86_400_000),
      });
      expect(result.status).toBe('completed');
    }

    const store = LifecycleStore.open(directory);
    expect(store.size).toBe(truth.size);
    let removed = 0;
    let cut = 0;
    for (const [id, t] of truth) {
      const life = store.get('uybor', id)!;
      const facts = lifeFacts(life);
      expect({ id, firstSeen: life.firstSeen, lastSeen: life.lastSeen }).toEqual({ id, firstSeen: dayName(t.createdDay), lastSeen: dayName(t.lastOnSite) });
      expect(facts.daysOnMarket).toBe(t.lastOnSite - t.createdDay);
      expect(facts.priceCuts).toBe(t.cuts);
      expect(facts.lastAskingPrice.amount).toBe(t.listing.price);
      // Removed once absent from two completed runs: every weekly removal (the last on day 28) is.
      expect(life.removed).toEqual(t.removedDay === null ? null : { day: dayName(t.removedDay), reason: 'absent' });
      if (t.removedDay !== null) expect(daysBetween(life.lastSeen, life.removed!.day)).toBe(1);
      removed += t.removedDay === null ? 0 : 1;
      cut += t.cuts > 0 ? 1 : 0;
    }
    expect(removed).toBeGreaterThan(70); // 4 weeks × 5% of about 420
    expect(cut).toBeGreaterThan(120);
    expect(store.summary()).toMatchObject({ listings: truth.size, removed, active: truth.size - removed });
  });
});
