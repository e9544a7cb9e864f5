/**
 * The life-cycle store: every collected listing once, with its life (models/ingest/collectors/listing-life.ts),
 * in two files under the collect folder:
 * - `listings.ndjson`: the state at the last compaction, one listing per line after a header line
 *   (the completed run ids per site);
 * - `journal.ndjson`: what happened since, appended page by page (sightings, gone answers, completed runs).
 * Opening reads the state and replays the journal; a half-written last line (a crash mid-append) is
 * ignored. A completed run is applied once even if replayed (its id is remembered), then the state is
 * rewritten atomically and the journal emptied. Memory is one compact life per listing, whatever the
 * number of runs: the journal is not kept in memory.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyGone, applyMissedRun, applySighting, lifeFacts, linkCrossSiteDuplicates, listingKey, uzsPerUsdOn,
  type CollectedListing, type CollectSite, type ListingLife, type RemovalReason,
} from '../../models/ingest/collectors';
import { writeFileAtomically } from './atomic-file';

type JournalEvent =
  | { e: 'seen'; run: string; day: string; listing: CollectedListing }
  | { e: 'gone'; key: string; day: string; reason: RemovalReason }
  | { e: 'completed'; site: CollectSite; run: string; day: string };

interface Header {
  completedRuns: Partial<Record<CollectSite, string[]>>;
}

/** How many completed run ids per site are remembered (enough to refuse a replay). */
const REMEMBERED_RUNS = 60;

export interface RunCompletion {
  site: CollectSite;
  runId: string;
  seen: number;
  removedToday: number;
  linkedDuplicates: number;
  /** Missed listings whose own page said gone (410) or archived, removed today (set by the crawl). */
  confirmedGone: number;
}

export interface StoreSummary {
  listings: number;
  active: number;
  removed: number;
  /** Active listings that are another site's listing of the same flat: not counted in `distinctActive`. */
  linkedDuplicates: number;
  distinctActive: number;
  bySite: Record<string, { listings: number; active: number }>;
}

export class LifecycleStore {
  private readonly lives = new Map<string, ListingLife>();
  private header: Header = { completedRuns: {} };
  private readonly rates = new Map<string, number>();
  private readonly statePath: string;
  private readonly journalPath: string;

  private constructor(readonly directory: string) {
    this.statePath = join(directory, 'listings.ndjson');
    this.journalPath = join(directory, 'journal.ndjson');
  }

  static open(directory: string): LifecycleStore {
    mkdirSync(directory, { recursive: true });
    const store = new LifecycleStore(directory);
    store.load();
    return store;
  }

  get size(): number {
    return this.lives.size;
  }

  get(site: CollectSite, id: string): ListingLife | undefined {
    return this.lives.get(listingKey(site, id));
  }

  all(): IterableIterator<ListingLife> {
    return this.lives.values();
  }

  /** Records one page's listings as seen by run `runId` on `day`: journaled first, then applied. */
  recordSightings(runId: string, day: string, listings: readonly CollectedListing[]): void {
    if (listings.length === 0) return;
    const events = listings.map((listing): JournalEvent => ({ e: 'seen', run: runId, day, listing }));
    this.journal(events);
    for (const event of events) this.apply(event);
  }

  /** The site answered 410 for the listing, or its page says it is no longer live. */
  recordGone(site: CollectSite, id: string, day: string, reason: RemovalReason): void {
    const event: JournalEvent = { e: 'gone', key: listingKey(site, id), day, reason };
    this.journal([event]);
    this.apply(event);
  }

  /**
   * Closes a run that walked all its pages: the site's listings it did not see miss one run (two in a
   * row is a removal), duplicates across sites are linked again, and the state is compacted.
   */
  completeRun(site: CollectSite, runId: string, day: string): RunCompletion {
    const removedBefore = this.countRemoved(site);
    const event: JournalEvent = { e: 'completed', site, run: runId, day };
    this.journal([event]);
    this.apply(event);
    let seen = 0;
    for (const life of this.lives.values()) if (life.site === site && life.lastRun === runId) seen++;
    const linkedDuplicates = linkCrossSiteDuplicates(this.lives.values());
    this.compact();
    return { site, runId, seen, removedToday: this.countRemoved(site) - removedBefore, linkedDuplicates, confirmedGone: 0 };
  }

  hasCompleted(site: CollectSite, runId: string): boolean {
    return this.header.completedRuns[site]?.includes(runId) ?? false;
  }

  summary(): StoreSummary {
    const bySite: StoreSummary['bySite'] = {};
    let active = 0;
    let linkedDuplicates = 0;
    for (const life of this.lives.values()) {
      const site = (bySite[life.site] ??= { listings: 0, active: 0 });
      site.listings++;
      if (life.removed) continue;
      active++;
      site.active++;
      if (life.duplicateOf) linkedDuplicates++;
    }
    return { listings: this.lives.size, active, removed: this.lives.size - active, linkedDuplicates, distinctActive: active - linkedDuplicates, bySite };
  }

  /** Writes the whole state and empties the journal. */
  compact(): void {
    const header = this.header;
    const lives = this.lives;
    writeFileAtomically(this.statePath, (function* () {
      yield JSON.stringify(header) + '\n';
      for (const life of lives.values()) yield JSON.stringify(life) + '\n';
    })());
    if (existsSync(this.journalPath)) truncateSync(this.journalPath, 0);
  }

  private countRemoved(site: CollectSite): number {
    let removed = 0;
    for (const life of this.lives.values()) if (life.site === site && life.removed) removed++;
    return removed;
  }

  private rateOn(day: string): number {
    let rate = this.rates.get(day);
    if (rate === undefined) {
      rate = uzsPerUsdOn(day);
      this.rates.set(day, rate);
    }
    return rate;
  }

  private journal(events: readonly JournalEvent[]): void {
    appendFileSync(this.journalPath, events.map((event) => JSON.stringify(event) + '\n').join(''));
  }

  private apply(event: JournalEvent): void {
    switch (event.e) {
      case 'seen': {
        const key = listingKey(event.listing.site, event.listing.id);
        this.lives.set(key, applySighting(this.lives.get(key), event.listing, event.run, event.day, this.rateOn(event.day)));
        return;
      }
      case 'gone': {
        const life = this.lives.get(event.key);
        if (life) applyGone(life, event.day, event.reason);
        return;
      }
      case 'completed': {
        if (this.hasCompleted(event.site, event.run)) return;
        for (const life of this.lives.values()) if (life.site === event.site && life.lastRun !== event.run) applyMissedRun(life, event.day);
        const runs = (this.header.completedRuns[event.site] ??= []);
        runs.push(event.run);
        if (runs.length > REMEMBERED_RUNS) runs.splice(0, runs.length - REMEMBERED_RUNS);
        return;
      }
      default: {
        const unreachable: never = event;
        throw new Error(`unknown journal event ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private load(): void {
    if (existsSync(this.statePath)) {
      const [header, ...lines] = readFileSync(this.statePath, 'utf8').split('\n');
      if (header) this.header = JSON.parse(header) as Header;
      for (const line of lines) {
        if (!line) continue;
        const life = JSON.parse(line) as ListingLife;
        this.lives.set(life.key, life);
      }
    }
    if (existsSync(this.journalPath)) {
      for (const line of readFileSync(this.journalPath, 'utf8').split('\n')) {
        if (!line) continue;
        let event: JournalEvent;
        try {
          event = JSON.parse(line) as JournalEvent;
        } catch {
          continue; // the half-written line of a crash
        }
        this.apply(event);
      }
    }
  }
}

export { lifeFacts };
