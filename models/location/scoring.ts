/** The arithmetic of the index: distance decay, ranked credit, subindex and composite scores (parameters in ./parameters.ts). */
import { LOCATION_PARAMETERS, SUBINDEXES, type NearestComponent, type SubindexId } from './parameters';

/**
 * 1 up to `dFull` metres, 0 from `dZero` on, and between them half a cosine wave: flat at both ends,
 * so credit does not drop sharply just past the full-credit distance, and is 0.5 halfway.
 */
export function decay(metres: number, dFull: number, dZero: number): number {
  if (metres <= dFull) return 1;
  if (metres >= dZero) return 0;
  return 0.5 * (1 + Math.cos((Math.PI * (metres - dFull)) / (dZero - dFull)));
}

/** Σ rankWeights[k] × decay(k-th nearest distance), for distances sorted nearest first. */
export function rankedCredit(sortedMetres: readonly number[], component: Pick<NearestComponent, 'rankWeights' | 'dFull' | 'dZero'>): number {
  let credit = 0;
  const count = Math.min(sortedMetres.length, component.rankWeights.length);
  for (let k = 0; k < count; k++) credit += component.rankWeights[k] * decay(sortedMetres[k], component.dFull, component.dZero);
  return credit;
}

/** Scores are reported to one decimal: finer digits would claim a precision the layers do not have. */
export const roundScore = (score: number): number => Math.round(score * 10) / 10;

/** 100 × min(1, credit / saturation). */
export const subindexScore = (credit: number, saturation: number): number => roundScore(100 * Math.min(1, credit / saturation));

export interface CompositeWeights {
  /** The composite weights renormalised over the subindexes that have data (0 for the others). */
  weights: Readonly<Record<SubindexId, number>>;
  missing: readonly SubindexId[];
  renormalised: boolean;
}

/** The composite weights of ./parameters.ts, renormalised to sum to 1 over the subindexes that have data. */
export function compositeWeights(available: ReadonlySet<SubindexId>): CompositeWeights {
  const total = SUBINDEXES.filter((id) => available.has(id)).reduce((sum, id) => sum + LOCATION_PARAMETERS[id].compositeWeight, 0);
  const weights = Object.fromEntries(SUBINDEXES.map((id) => [id, available.has(id) ? LOCATION_PARAMETERS[id].compositeWeight / total : 0])) as Record<SubindexId, number>;
  const missing = SUBINDEXES.filter((id) => !available.has(id));
  return { weights, missing, renormalised: missing.length > 0 };
}

/** The weighted mean of the subindex scores that exist; null when none does. */
export function compositeScore(scores: Readonly<Record<SubindexId, number | null>>, weights: Readonly<Record<SubindexId, number>>): number | null {
  let sum = 0;
  let weight = 0;
  for (const id of SUBINDEXES) {
    const score = scores[id];
    if (score === null) continue;
    sum += weights[id] * score;
    weight += weights[id];
  }
  return weight === 0 ? null : roundScore(sum / weight);
}
