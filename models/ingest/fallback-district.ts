/**
 * The English uybor file repeats each listing under its real location and under the scraper's
 * fall-back values: one district (Yunusabad) and one street (Hamal Street), in every combination.
 *
 * Detection, from the data: group a file's listings by everything except location; among groups
 * seen in more than one district, a district present in (nearly) all of them is the fall-back.
 * Correction: of each group keep the copy outside the fall-back district, preferring one with a
 * mahalla, and drop the other copies. A listing seen only in the fall-back district is kept there:
 * its streets (Bogishamol, Kashgar, Yurtabad, Kushchinor, …) are in that district in the other scrapes.
 */
import type { DistrictId } from '../vocabulary';
import type { Candidate, Split } from './candidate';
import type { ListingRecord } from './record';

/** Share of conflicting groups a district must appear in to be the fall-back, and the fewest groups to judge from. */
export const FALLBACK_DETECTION = { minShare: 0.9, minConflicts: 3 } as const;

function identityKey(record: ListingRecord): string {
  const { sourceRow: _row, district: _district, mahallaId: _mahalla, lat: _lat, lon: _lon, ...listing } = record;
  return JSON.stringify(listing);
}

function groupByIdentity<T extends Candidate>(candidates: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const candidate of candidates) {
    const key = identityKey(candidate.record);
    const group = groups.get(key);
    if (group) group.push(candidate);
    else groups.set(key, [candidate]);
  }
  return groups;
}

/** The fall-back district of one source's candidates, or null when the file has none. */
export function detectFallbackDistrict(candidates: readonly Candidate[]): DistrictId | null {
  const conflicts = [...groupByIdentity(candidates).values()]
    .map((group) => new Set(group.map((c) => c.record.district)))
    .filter((districts) => districts.size > 1);
  if (conflicts.length < FALLBACK_DETECTION.minConflicts) return null;
  const presence = new Map<DistrictId, number>();
  for (const districts of conflicts) for (const district of districts) presence.set(district, (presence.get(district) ?? 0) + 1);
  const [district, count] = [...presence.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return count / conflicts.length >= FALLBACK_DETECTION.minShare ? district : null;
}

/** Keeps one copy per listing: outside the fall-back district if possible, with a mahalla if possible, else the first row. */
export function dropFallbackCopies<T extends Candidate>(candidates: readonly T[], fallback: DistrictId): Split<T> {
  const split: Split<T> = { kept: [], dropped: [] };
  for (const group of groupByIdentity(candidates).values()) {
    const [best, ...copies] = [...group].sort(
      (a, b) =>
        Number(a.record.district === fallback) - Number(b.record.district === fallback) ||
        Number(a.record.mahallaId === null) - Number(b.record.mahallaId === null) ||
        a.record.sourceRow - b.record.sourceRow,
    );
    split.kept.push(best);
    split.dropped.push(...copies);
  }
  split.kept.sort((a, b) => a.record.sourceRow - b.record.sourceRow);
  return split;
}
