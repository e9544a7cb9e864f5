/**
 * Confidence of a geocode, 0–1: how many listings stand behind the element's centre, how tightly
 * they cluster, and how exactly the address named it. Three factors, multiplied.
 */

/** How the address's text reached the element. */
export type MatchKind =
  | 'exact' // the same key
  | 'alias' // another name of it (in parentheses in the listings), or a vocabulary alias of a mahalla
  | 'shortened' // the address's name with its trailing words dropped ("Кунаева Габус" → Кунаева)
  | 'typo' // one letter off a long name
  | 'inferred' // a quarter number without its massif, the quarter of that number the district's listings name
  | 'within' // a place the gazetteer lacks, placed at the one holding it: "3-й проезд Навбахор" at Навбахор, "20Д" at quarter 20
  | 'massif'; // a quarter the gazetteer lacks, placed at the centre of its massif

const MATCH_WEIGHT: Readonly<Record<MatchKind, number>> = {
  exact: 1,
  alias: 0.9,
  shortened: 0.8,
  typo: 0.75,
  inferred: 0.8,
  within: 0.7,
  massif: 0.6,
};

/** Listings at which the support factor reaches one half: a single listing's spelling is half as sure as many agreeing. */
const HALF_SUPPORT_LISTINGS = 1;
/**
 * Spread at which the tightness factor reaches one half. The spread of a place written one way is
 * zero (the source geocoder gave each spelling one point), so the caller passes a floor: the
 * uncertainty an element of that precision has however tight its listings are.
 */
const HALF_TIGHTNESS_M = 1000;

export function confidenceOf(listings: number, spreadM: number, spreadFloorM: number, match: MatchKind): number {
  const support = listings / (listings + HALF_SUPPORT_LISTINGS);
  const tightness = HALF_TIGHTNESS_M / (HALF_TIGHTNESS_M + Math.max(spreadM, spreadFloorM));
  return Math.round(support * tightness * MATCH_WEIGHT[match] * 100) / 100;
}
