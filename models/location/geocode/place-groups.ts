/**
 * Gazetteer places from the listings' evidence: one place per district, kind, key, side street and
 * number, centred on its listings' points. A numbered quarter's points also make up its massif.
 */
import { DISTRICT_IDS, type DistrictId } from '../../vocabulary';
import { dominantOf } from './dominance';
import { robustCentre, type LatLon } from './geo';
import { OUTLIER_DISTANCE_M } from './outliers';
import type { PlaceEvidence } from './place-evidence';
import type { GazetteerPlace } from './types';

/** One place being assembled: every spelling and point the listings give it. */
interface PlaceGroup {
  district: DistrictId;
  kind: GazetteerPlace['kind'];
  key: string;
  side?: GazetteerPlace['side'];
  number: string;
  spellings: Map<string, number>;
  /** The name's words, for a massif known only by its numbered quarters ("Феруза-1", "Феруза-2" → Feruza). */
  words: string[];
  aliases: Set<string>;
  points: LatLon[];
}

/** Code-point order: the artifact must not depend on the machine's locale. */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const capitalised = (words: readonly string[]) => words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
const groupId = (district: DistrictId, kind: string, key: string, side: string | undefined, number: string) =>
  `${district}|${kind}|${key}|${side ?? ''}|${number}`;

function mostUsed(spellings: Map<string, number>): string {
  return [...spellings].sort(([a, na], [b, nb]) => nb - na || byCodePoint(a, b))[0][0];
}

class PlaceGroups {
  private readonly groups = new Map<string, PlaceGroup>();

  /** The evidence counts for its place and, for a numbered quarter, for the whole massif too. */
  add(kind: PlaceGroup['kind'], evidence: PlaceEvidence, key = evidence.mention.key): void {
    const { district, mention, text, point } = evidence;
    const group = this.groupFor(district, kind, key, mention.side, mention.number, mention.words);
    group.spellings.set(text, (group.spellings.get(text) ?? 0) + 1);
    for (const alias of mention.alternates) group.aliases.add(alias);
    group.points.push(point);
    if (kind === 'quarter' && mention.number !== '') this.groupFor(district, kind, key, undefined, '', mention.words).points.push(point);
  }

  /** Points of the whole massif `key` in the district. */
  massifSize(district: DistrictId, key: string): number {
    return this.groups.get(groupId(district, 'quarter', key, undefined, ''))?.points.length ?? 0;
  }

  numberedQuarters(): PlaceGroup[] {
    return [...this.groups.values()].filter((g) => g.kind === 'quarter' && g.number !== '');
  }

  all(): PlaceGroup[] {
    return [...this.groups.values()];
  }

  private groupFor(district: DistrictId, kind: PlaceGroup['kind'], key: string, side: PlaceGroup['side'], number: string, words: string[]): PlaceGroup {
    const id = groupId(district, kind, key, side, number);
    let group = this.groups.get(id);
    if (group === undefined) {
      group = { district, kind, key, side, number, spellings: new Map(), words, aliases: new Set(), points: [] };
      this.groups.set(id, group);
    }
    return group;
  }
}

/**
 * "24" in Chilanzar district is quarter 24 of the district's dominant massif (Chilanzar, not Ц):
 * the massif whose quarters the district's listings name far more often, or the only one.
 */
function attributeBareNumbers(groups: PlaceGroups, bareNumbers: readonly PlaceEvidence[]): void {
  const quarters = groups.numberedQuarters();
  const provisional = new Map(quarters.map((g) => [g, robustCentre(g.points, OUTLIER_DISTANCE_M.quarter)]));
  for (const evidence of bareNumbers) {
    const rivals = quarters.filter((g) => g.district === evidence.district && g.number === evidence.mention.number).flatMap((group) => {
      const centre = provisional.get(group);
      return centre == null ? [] : [{ group, lat: centre.lat, lon: centre.lon, listings: groups.massifSize(group.district, group.key) }];
    });
    const leader = dominantOf(rivals);
    if (leader !== null) groups.add('quarter', evidence, leader.group.key);
  }
}

function placeOf(group: PlaceGroup): GazetteerPlace | null {
  const isMassif = group.kind === 'quarter' && group.number === '';
  const centre = robustCentre(group.points, OUTLIER_DISTANCE_M[isMassif ? 'massif' : group.kind]);
  if (centre === null) return null;
  const aliases = [...group.aliases].filter((alias) => alias !== group.key).sort(byCodePoint);
  return {
    district: group.district,
    kind: group.kind,
    key: group.key,
    ...(group.side !== undefined && { side: group.side }),
    ...(group.number !== '' && { number: group.number }),
    name: group.spellings.size > 0 ? mostUsed(group.spellings) : capitalised(group.words),
    ...(aliases.length > 0 && { aliases }),
    lat: centre.lat,
    lon: centre.lon,
    listings: centre.points,
    spreadM: centre.spreadM,
  };
}

/** The places, sorted by district, kind, key, side street and number. */
export function placesFrom(evidence: readonly PlaceEvidence[], bareNumbers: readonly PlaceEvidence[]): GazetteerPlace[] {
  const groups = new PlaceGroups();
  const written = new Map<string, { street: number; quarter: number }>();
  for (const place of evidence) {
    const { kind, key } = place.mention;
    if (kind === 'named') continue;
    groups.add(kind, place);
    const counts = written.get(key) ?? { street: 0, quarter: 0 };
    counts[kind]++;
    written.set(key, counts);
  }
  // A name written bare is a massif if the listings write it as one more often than as a street
  // ("Госпитальный" / "Массив Госпитальный"; but "Нукус" / "ул. Нукусская"), else a street.
  for (const place of evidence.filter((e) => e.mention.kind === 'named')) {
    const counts = written.get(place.mention.key);
    groups.add(counts !== undefined && counts.quarter > counts.street ? 'quarter' : 'street', place);
  }
  attributeBareNumbers(groups, bareNumbers);

  const order = (d: DistrictId) => DISTRICT_IDS.indexOf(d);
  return groups.all()
    .map(placeOf)
    .filter((place): place is GazetteerPlace => place !== null)
    .sort((a, b) => order(a.district) - order(b.district) || byCodePoint(a.kind, b.kind) || byCodePoint(a.key, b.key)
      || byCodePoint(a.side ?? '', b.side ?? '') || byCodePoint(a.number ?? '', b.number ?? ''));
}
