/**
 * Ensemble members and their consensus weights, learned on out-of-fold predictions, never on rows
 * a member was fitted on.
 */
import type { Regressor } from '../trainers';

/** One member of an ensemble: a named, independently trained algorithm. */
export interface MemberSpec {
  name: string;
  algorithm: string;
  hyperparameters: Record<string, unknown>;
  create(): Regressor;
}

/**
 * Consensus weights: the point of the simplex (step 0.05) whose weighted out-of-fold log
 * predictions have the least squared error. A grid, not a solver: a handful of members,
 * deterministic, and a weight can be exactly 0 for a member that adds nothing.
 */
export function learnWeights(oof: readonly Float64Array[], y: Float64Array, rowWeights?: ArrayLike<number>, step = 0.05): number[] {
  const m = oof.length;
  if (m === 1) return [1];
  let best: number[] = new Array(m).fill(1 / m);
  let bestError = Infinity;
  const units = Math.round(1 / step);
  const visit = (prefix: number[], left: number) => {
    if (prefix.length === m - 1) {
      const weights = [...prefix, left].map((u) => u / units);
      let error = 0;
      for (let i = 0; i < y.length; i++) {
        let p = 0;
        for (let j = 0; j < m; j++) p += weights[j] * oof[j][i];
        error += (rowWeights ? rowWeights[i] : 1) * (p - y[i]) ** 2;
      }
      if (error < bestError - 1e-12) {
        bestError = error;
        best = weights;
      }
      return;
    }
    for (let u = 0; u <= left; u++) visit([...prefix, u], left - u);
  };
  visit([], units);
  return best;
}
