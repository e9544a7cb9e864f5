/**
 * `npm run collect -- --from-dir DIR`: pages saved by any means (a bank fetching through its own
 * proxy, a browser's "save as") go into the same store as a crawl's. Each file is recognised by its
 * content: a uybor answer (`{"total","results"}`), an olx answer (`{"data":[…]}`, flats unless the
 * offer's category is a house category), or an avtoelon search page (`listing.items.push`). Files
 * are read in name order; what cannot be recognised is reported, not guessed.
 *
 * The files are sightings of `day`. Only with `complete` are they taken as the whole of that day's
 * run of each site found, so that listings missing from them count as missed (else a partial save
 * would remove what it did not include).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  adaptOlxOffer, adaptUyborListing, isSkipped, OLX_DEFAULT_CATEGORIES, parseAvtoelonSearchPage,
  type Collected, type CollectedListing, type CollectSite, type HomeAdaptContext, type OlxAnswer, type UyborAnswer, type VehicleAdaptContext,
} from '../../models/ingest/collectors';
import type { LifecycleStore, RunCompletion } from './lifecycle-store';

export interface DirectoryIngest {
  files: number;
  unrecognised: string[];
  listings: Record<CollectSite, number>;
  skipped: number;
  completions: RunCompletion[];
}

export function readSavedPage(text: string, home: HomeAdaptContext, vehicles: VehicleAdaptContext): Collected[] | null {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    const answer = JSON.parse(trimmed) as Partial<UyborAnswer & OlxAnswer>;
    if (Array.isArray(answer.results)) return answer.results.map((listing) => adaptUyborListing(listing, home));
    if (Array.isArray(answer.data)) {
      return answer.data.map((offer) => {
        const category = OLX_DEFAULT_CATEGORIES.find((c) => c.categoryId === offer.category?.id);
        return adaptOlxOffer(offer, category?.propertyType ?? 'apartment', home);
      });
    }
    return null;
  }
  if (text.includes('listing.items.push')) return parseAvtoelonSearchPage(text, 0, vehicles).listings;
  return null;
}

export function ingestDirectory(
  directory: string,
  store: LifecycleStore,
  context: { home: HomeAdaptContext; vehicles: VehicleAdaptContext; runId: string; complete: boolean },
): DirectoryIngest {
  const day = context.home.seenOn;
  const report: DirectoryIngest = { files: 0, unrecognised: [], listings: { uybor: 0, olx: 0, avtoelon: 0 }, skipped: 0, completions: [] };
  const names = readdirSync(directory).filter((name) => /\.(json|html?)$/i.test(name)).sort();
  for (const name of names) {
    report.files++;
    const collected = readSavedPage(readFileSync(join(directory, name), 'utf8'), context.home, context.vehicles);
    if (collected === null) {
      report.unrecognised.push(name);
      continue;
    }
    const listings = collected.filter((l): l is CollectedListing => !isSkipped(l));
    report.skipped += collected.length - listings.length;
    for (const listing of listings) report.listings[listing.site]++;
    store.recordSightings(context.runId, day, listings);
  }
  if (context.complete) {
    for (const site of Object.keys(report.listings) as CollectSite[]) {
      if (report.listings[site] > 0) report.completions.push(store.completeRun(site, context.runId, day));
    }
  }
  return report;
}
