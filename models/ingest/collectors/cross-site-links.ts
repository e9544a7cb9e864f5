/**
 * The same flat on uybor and olx is one flat: linked, not counted twice. The match is the
 * ingestion's cross-source rule (../dedup.ts `mergeAcrossSources`: same type, district, rooms, floor
 * and floors, area within 2%, price within 5%, nothing contradicting), run over the listings still on
 * the market; the one it keeps is the one counted, the others point to it.
 */
import type { Candidate } from '../candidate';
import { mergeAcrossSources } from '../dedup';
import type { ListingLife } from './listing-life';

interface LifeCandidate extends Candidate {
  life: ListingLife;
}

/** Sets `duplicateOf` on every active home listing; returns how many are linked to another. */
export function linkCrossSiteDuplicates(lives: Iterable<ListingLife>): number {
  const candidates: LifeCandidate[] = [];
  for (const life of lives) {
    life.duplicateOf = null;
    if (life.removed || !life.home) continue;
    candidates.push({ record: life.home, corrections: [], life });
  }
  const { merges } = mergeAcrossSources(candidates);
  for (const merge of merges) merge.dropped.life.duplicateOf = merge.keptIn.life.key;
  return merges.length;
}
