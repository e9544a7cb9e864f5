/**
 * Lookups over a gazetteer file: places by key (exact, another name, the name's start, a typo,
 * the larger place holding it), quarters by number within a district, mahalla centres and districts by id.
 */
import { editDistance, type DistrictId } from '../../vocabulary';
import type { MatchKind } from './confidence';
import { massifKey, nameKey } from './place-key';
import type { PlaceMention } from './place-parse';
import type { GazetteerDistrict, GazetteerFile, GazetteerMahalla, GazetteerPlace } from './types';

export interface PlaceHit {
  place: GazetteerPlace;
  match: MatchKind;
}

export interface GazetteerIndex {
  /** Places, in every district, that the mention can name; empty when none. */
  placesFor(mention: PlaceMention): PlaceHit[];
  /** The district's quarters with this number, whatever their massif. */
  quartersNumbered(district: DistrictId, number: string): GazetteerPlace[];
  /** Listings of the whole massif a quarter belongs to, in its district. */
  massifListings(quarter: GazetteerPlace): number;
  /** Places whose name is a few letters from the mention's, closest and most listed first: "did you mean". */
  placesNear(mention: PlaceMention): GazetteerPlace[];
  mahalla(id: string): GazetteerMahalla | undefined;
  district(id: DistrictId): GazetteerDistrict;
}

/**
 * Keys are spelling-folded (./place-key.ts), which already brings a name's spellings together and
 * unrelated short names close ("Парус" and "Карасу" fold one letter apart): a typo is allowed only
 * in keys this long, and only one.
 */
const MIN_TYPO_KEY_LENGTH = 7;
/** Suggestions may be this share of the key's letters away (at least one letter). */
const SUGGESTION_EDIT_SHARE = 0.25;
// "20d", "9a", "g9a": a lettered quarter; its digits name the numbered quarter it was split from.
const LETTERED = /^\D?(\d+)\D+$|^\D(\d+)$/;

const lookupId = (key: string, side: string | undefined, number: string | undefined) => `${key}|${side ?? ''}|${number ?? ''}`;

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

export function createGazetteerIndex(gazetteer: Pick<GazetteerFile, 'districts' | 'places' | 'mahallas'>): GazetteerIndex {
  const byId = new Map<string, { place: GazetteerPlace; alias: boolean }[]>();
  const quarters = new Map<string, GazetteerPlace[]>();
  const massifs = new Map<string, GazetteerPlace>();
  const keys = new Set<string>();
  for (const place of gazetteer.places) {
    pushTo(byId, lookupId(place.key, place.side, place.number), { place, alias: false });
    for (const alias of place.aliases ?? []) pushTo(byId, lookupId(alias, place.side, place.number), { place, alias: true });
    keys.add(place.key);
    if (place.kind === 'quarter' && place.number !== undefined) pushTo(quarters, `${place.district}|${place.number}`, place);
    if (place.kind === 'quarter' && place.number === undefined) massifs.set(`${place.district}|${place.key}`, place);
  }
  const mahallas = new Map(gazetteer.mahallas.map((m) => [m.id, m]));
  const districts = new Map(gazetteer.districts.map((d) => [d.id, d]));

  /** The one key a typo away, or null (none, or several equally close). */
  function correctedKey(key: string): string | null {
    if (key.length < MIN_TYPO_KEY_LENGTH) return null;
    const close = [...keys].filter((k) => k.length >= MIN_TYPO_KEY_LENGTH && editDistance(key, k, 1) <= 1);
    return close.length === 1 ? close[0] : null;
  }

  // A bare name can be either; a street word or a quarter number says which, unless nothing of that kind has the name.
  const find = (mention: PlaceMention, key: string, match: MatchKind, anyKind = false): PlaceHit[] =>
    (byId.get(lookupId(key, mention.side, mention.number)) ?? [])
      .filter(({ place }) => anyKind || mention.kind === 'named' || place.kind === mention.kind)
      .map(({ place, alias }) => ({ place, match: alias && match === 'exact' ? 'alias' : match }));

  /** The place holding one the gazetteer lacks: a side street's street, a lettered quarter's numbered one, a quarter's massif. */
  function largerPlace(mention: PlaceMention, key: string): PlaceHit[] {
    if (mention.side !== undefined) return find({ ...mention, side: undefined, number: '' }, key, 'within');
    if (mention.kind !== 'quarter' || mention.number === '') return [];
    const digits = LETTERED.exec(mention.number);
    const numbered = digits === null ? [] : find({ ...mention, number: digits[1] ?? digits[2] }, key, 'within');
    return numbered.length > 0 ? numbered : find({ ...mention, number: '' }, key, 'massif');
  }

  return {
    placesFor(mention) {
      if (mention.key === '') return [];
      const exact = find(mention, mention.key, 'exact');
      if (exact.length > 0) return exact;
      for (const alternate of mention.alternates) {
        const hits = find(mention, alternate, 'alias');
        if (hits.length > 0) return hits;
      }
      const keyOf = mention.kind === 'street' ? nameKey : massifKey;
      for (let n = mention.words.length - 1; n >= 1; n--) {
        const hits = find(mention, keyOf(mention.words.slice(0, n)), 'shortened');
        if (hits.length > 0) return hits;
      }
      const corrected = correctedKey(mention.key);
      const typo = corrected === null ? [] : find(mention, corrected, 'typo');
      if (typo.length > 0) return typo;
      const key = keys.has(mention.key) ? mention.key : (corrected ?? mention.key);
      const larger = largerPlace(mention, key);
      // "массив Чимбай" where the listings only ever wrote "Чимбой", taken for a street: the same place.
      return larger.length > 0 ? larger : find(mention, key, 'alias', true);
    },
    quartersNumbered: (district, number) => quarters.get(`${district}|${number}`) ?? [],
    massifListings: (quarter) => massifs.get(`${quarter.district}|${quarter.key}`)?.listings ?? quarter.listings,
    placesNear(mention) {
      if (mention.key === '') return [];
      const maxEdits = Math.max(1, Math.floor(mention.key.length * SUGGESTION_EDIT_SHARE));
      return gazetteer.places
        .map((place) => ({ place, edits: editDistance(mention.key, place.key, maxEdits) }))
        .filter(({ edits }) => edits <= maxEdits)
        .sort((a, b) => a.edits - b.edits || b.place.listings - a.place.listings)
        .map(({ place }) => place);
    },
    mahalla: (id) => mahallas.get(id),
    district(id) {
      const district = districts.get(id);
      if (district === undefined) throw new Error(`gazetteer: no district ${id}`);
      return district;
    },
  };
}
