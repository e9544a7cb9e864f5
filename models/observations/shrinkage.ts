/**
 * Empirical-Bayes market factors in a group hierarchy (normal-normal model), generic over the
 * hierarchy (./groups.ts).
 *
 * Model. An observation i in lowest-level group g has log residual y_i = θ_g + ε_i, ε_i ~ N(0, σ²);
 * its recency weight w_i ranks it against the others in its group's mean, and says nothing of its
 * precision: a group of n equally old observations is n observations' worth of evidence however old
 * they are (the weights' scale cancels). A group's factor is its parent's plus
 * a deviation, θ_g = θ_parent(g) + u_g, u_g ~ N(0, τ²_ℓ) at level ℓ; the top group's factor is
 * θ_top ~ N(0, τ²_0), τ_0 = ROOT_PRIOR_SD (a prior, not estimated: there is one top group).
 *
 * Estimation, with ȳ_g = Σ w_i y_i / Σ w_i the weighted mean of every observation below g and
 * n_g = (Σ w_i)² / Σ w_i² its effective count (Kish's: what n equally weighted observations the
 * weighted mean is worth; n when the weights are equal, whatever their size):
 * 1. σ² is the pooled within-group variance at the lowest level, Σ w_i (y_i − ȳ_g(i))² / Σ w_i
 *    × N/(N − G) (N observations, G lowest groups); without repeated groups, the variance around
 *    the top mean; with one observation, DEFAULT_SIGMA. (A robust fit inflates it: ./robust.ts.)
 * 2. From the lowest level up, the variance of a group's mean around its own factor,
 *    V_g = σ² Σ w_i² / (Σ w_i)² = σ²/n_g at the lowest level and
 *    V_g = Σ_children (W_c/W_g)² (τ²_child level + V_c) above (W = Σ w, the mean's composition);
 *    and τ²_ℓ by DerSimonian–Laird over the children of every parent at once (strata):
 *    Q = Σ_parents Σ_c W_c (ȳ_c − ȳ^W_parent)², W_c = 1/V_c, df = Σ_parents (k − 1),
 *    C = Σ_parents (ΣW − ΣW²/ΣW), τ²_ℓ = max((Q − df)/C, floor²), floor = BETWEEN_GROUP_SD_FLOOR
 *    (also τ²_ℓ = floor² when no parent has two children: nothing to estimate it from).
 * 3. From the top down, each group's factor is shrunk toward its parent's estimate by its
 *    shrinkage weight B_g = τ²_ℓ / (τ²_ℓ + V_g): θ̂_g = B_g ȳ_g + (1 − B_g) θ̂_parent (the top group
 *    toward 0). B lies in [0, 1] and grows with the group's effective count.
 * A group without observations has no entry; its best estimate is its nearest observed ancestor's.
 */
import { groupKeys } from './groups';

/**
 * The prior sd of an organisation's overall factor around no adjustment (log scale): 0.15, a
 * level 16% off the listing market is one sd (sale prices under asking, appraisals above). With 30
 * fresh observations of σ = 0.2 the top group keeps 94% of its own mean.
 */
export const ROOT_PRIOR_SD = 0.15;
/**
 * The floor of each level's between-group sd (log scale): 0.1. Method-of-moments estimates of τ²
 * on a dozen districts of heavy-tailed residuals are often near 0, which would pin every group to
 * its parent however many observations it has. With the floor a group keeps n / (n + σ²/0.01) of
 * its own mean (σ = 0.3: 10% at n = 1, 53% at n = 10). Chosen by 5-fold cross-validation inside
 * the benchmark's observation sets alone (bench/observations `--cv-only`, never the 70% reported),
 * the other settings at their defaults, among 0.005, 0.02 (the first default), 0.05, 0.1 and 0.2:
 * median APE 11.7, 11.6, 11.2, 10.8, 11.0% on the flats (20 splits); 8.3% for each on the
 * Chevrolets (5 splits), whose model-level τ is estimated near 0.09 anyway.
 */
export const BETWEEN_GROUP_SD_FLOOR = 0.1;
/** σ when the data cannot estimate it (a single observation): 0.2, set a priori (the base models' median absolute log errors are 0.1–0.17, their sds about 0.3). */
export const DEFAULT_SIGMA = 0.2;

export interface ShrinkageItem {
  /** The item's path in the hierarchy, top first; every item has the same depth. */
  groups: readonly string[];
  /** The value pooled: a log residual. */
  value: number;
  /** Its recency weight (./weights.ts), relative: only ratios between items matter; items weighing 0 are left out. */
  weight: number;
}

export interface GroupFactor {
  key: string;
  /** 0 = the top level. */
  level: number;
  parent: string | null;
  observations: number;
  /** Kish's effective count of the group's weights, (Σw)²/Σw²: `observations` when they weigh alike. */
  effectiveN: number;
  /** Weighted mean of every value below the group. */
  mean: number;
  /** Sampling variance of `mean` around the group's own factor. */
  variance: number;
  /** B: the share of the group's own mean in its factor, the rest its parent's. */
  shrinkageWeight: number;
  /** The shrunk log factor θ̂. */
  factor: number;
}

export interface LevelVariance {
  /** τ: the between-group sd used at this level (level 0: the prior ROOT_PRIOR_SD). */
  tau: number;
  /** DerSimonian–Laird's estimate before the floor (null at level 0, or when no parent had two children). */
  estimate: number | null;
  /** Parents with two or more children that the estimate stood on. */
  strata: number;
}

export interface ShrinkageTable {
  depth: number;
  /** Within-group sd of one observation of weight 1. */
  sigma: number;
  levels: LevelVariance[];
  groups: Record<string, GroupFactor>;
}

export interface ShrinkageOptions {
  rootPriorSd?: number;
  betweenGroupSdFloor?: number;
  /**
   * σ² as estimated is multiplied by this: a robust fit's values are winsorised, and a winsorised
   * mean varies more than their spread says (./robust.ts). @default 1
   */
  varianceInflation?: number;
}

/** B = τ² / (τ² + V): in [0, 1], 1 when the group's own mean is exact (V = 0). */
export function shrinkageWeight(tau2: number, variance: number): number {
  if (tau2 < 0 || variance < 0) throw new Error('variances are never negative');
  return tau2 + variance > 0 ? tau2 / (tau2 + variance) : 1;
}

/** One group's mean and its sampling variance, for the method of moments. */
export interface GroupMean {
  mean: number;
  variance: number;
}

/**
 * DerSimonian–Laird's method-of-moments estimate of the between-group variance τ², stratified: the
 * groups of each stratum (the children of one parent) are compared with their own stratum's
 * inverse-variance mean, and Q, its degrees of freedom and C are summed over the strata. Strata of
 * one group say nothing and are skipped. Not floored: it is 0 when Q ≤ df, null without a stratum
 * of two or more.
 */
export function derSimonianLaird(strata: readonly (readonly GroupMean[])[]): { tau2: number | null; q: number; df: number; strata: number } {
  let q = 0;
  let df = 0;
  let c = 0;
  let used = 0;
  for (const groups of strata) {
    if (groups.length < 2) continue;
    const w = groups.map((g) => 1 / Math.max(g.variance, 1e-12));
    const sw = w.reduce((s, x) => s + x, 0);
    const sw2 = w.reduce((s, x) => s + x * x, 0);
    const centre = groups.reduce((s, g, i) => s + w[i] * g.mean, 0) / sw;
    q += groups.reduce((s, g, i) => s + w[i] * (g.mean - centre) ** 2, 0);
    df += groups.length - 1;
    c += sw - sw2 / sw;
    used++;
  }
  return { tau2: used === 0 ? null : c > 0 ? Math.max(0, (q - df) / c) : 0, q, df, strata: used };
}

interface Node {
  key: string;
  level: number;
  parent: string | null;
  /** Index of the parent node (-1 at the top). */
  parentIndex: number;
  children: number[];
  observations: number;
  sumW: number;
  sumW2: number;
}

/**
 * The part of a fit that depends on the items' paths and weights only, not on their values: the
 * groups, their counts and weight sums, and each item's group at each level. Built once, it serves
 * every refit on new values (the robust fit's iterations, ./robust.ts).
 */
export interface ShrinkageStructure {
  depth: number;
  /** The items kept (positive, finite weight and a finite value when built), in their order. */
  used: ShrinkageItem[];
  /** In order of first appearance. */
  nodes: Node[];
  /** Node indices by level, in order of first appearance. */
  byLevel: number[][];
  /** The node of used item i at level l: itemNodes[i · depth + l]. */
  itemNodes: Int32Array;
  weights: Float64Array;
}

export function shrinkageStructure(items: readonly ShrinkageItem[]): ShrinkageStructure {
  const used = items.filter((item) => item.weight > 0 && Number.isFinite(item.weight) && Number.isFinite(item.value));
  const depth = used.length ? used[0].groups.length : 0;
  if (used.some((item) => item.groups.length !== depth || depth === 0)) throw new Error('every item needs a path of the same, non-zero depth');
  const index = new Map<string, number>();
  const nodes: Node[] = [];
  const byLevel: number[][] = Array.from({ length: depth }, () => []);
  const itemNodes = new Int32Array(used.length * depth);
  used.forEach((item, i) => {
    const keys = groupKeys(item.groups);
    for (let level = 0; level < depth; level++) {
      const key = keys[level];
      let at = index.get(key);
      if (at === undefined) {
        at = nodes.length;
        const parentIndex = level === 0 ? -1 : itemNodes[i * depth + level - 1];
        nodes.push({ key, level, parent: level === 0 ? null : keys[level - 1], parentIndex, children: [], observations: 0, sumW: 0, sumW2: 0 });
        index.set(key, at);
        byLevel[level].push(at);
        if (parentIndex >= 0) nodes[parentIndex].children.push(at);
      }
      itemNodes[i * depth + level] = at;
      const node = nodes[at];
      node.observations++;
      node.sumW += item.weight;
      node.sumW2 += item.weight * item.weight;
    }
  });
  return { depth, used, nodes, byLevel, itemNodes, weights: Float64Array.from(used, (item) => item.weight) };
}

/** Fits the factors of every group the items fall in. */
export function fitShrinkage(items: readonly ShrinkageItem[], options: ShrinkageOptions = {}): ShrinkageTable {
  const structure = shrinkageStructure(items);
  return fitStructure(structure, Float64Array.from(structure.used, (item) => item.value), options).table;
}

/**
 * The fit on `values` (one per used item of the structure), with each node's factor by index: what
 * the robust fit reads an item's factor from without looking its path up again.
 */
export function fitStructure(structure: ShrinkageStructure, values: Float64Array, options: ShrinkageOptions = {}): { table: ShrinkageTable; nodeFactors: Float64Array } {
  const { depth, nodes, byLevel, itemNodes, weights } = structure;
  const rootPriorSd = options.rootPriorSd ?? ROOT_PRIOR_SD;
  const floor2 = (options.betweenGroupSdFloor ?? BETWEEN_GROUP_SD_FLOOR) ** 2;
  if (structure.used.length === 0) return { table: { depth: 0, sigma: DEFAULT_SIGMA, levels: [], groups: {} }, nodeFactors: new Float64Array(0) };

  const sumWY = new Float64Array(nodes.length);
  for (let i = 0; i < weights.length; i++) {
    const wy = weights[i] * values[i];
    for (let level = 0; level < depth; level++) sumWY[itemNodes[i * depth + level]] += wy;
  }
  const means = Float64Array.from(nodes, (node, at) => sumWY[at] / node.sumW);
  const effectiveN = (node: Node) => (node.sumW * node.sumW) / node.sumW2;
  const variances = new Float64Array(nodes.length);

  const sigma2 = withinVariance(structure, values, means) * (options.varianceInflation ?? 1);
  const levels: LevelVariance[] = new Array(depth);
  levels[0] = { tau: rootPriorSd, estimate: null, strata: 0 };
  const tau2 = new Array<number>(depth).fill(floor2);
  tau2[0] = rootPriorSd ** 2;
  // Bottom up: the lowest groups' variances, each level's τ² from them, then the parents' variances.
  for (const at of byLevel[depth - 1]) variances[at] = sigma2 / effectiveN(nodes[at]);
  for (let level = depth - 1; level >= 1; level--) {
    const parents = byLevel[level - 1];
    const dl = derSimonianLaird(parents.map((p) => nodes[p].children.map((c) => ({ mean: means[c], variance: variances[c] }))));
    tau2[level] = dl.tau2 === null ? floor2 : Math.max(dl.tau2, floor2);
    levels[level] = { tau: Math.sqrt(tau2[level]), estimate: dl.tau2 === null ? null : Math.sqrt(dl.tau2), strata: dl.strata };
    for (const p of parents) {
      const parent = nodes[p];
      variances[p] = parent.children.reduce((s, c) => s + (nodes[c].sumW / parent.sumW) ** 2 * (tau2[level] + variances[c]), 0);
    }
  }
  // Top down: each factor shrunk toward its parent's (the top toward no adjustment).
  const groups: Record<string, GroupFactor> = {};
  const nodeFactors = new Float64Array(nodes.length);
  for (let level = 0; level < depth; level++) {
    for (const at of byLevel[level]) {
      const node = nodes[at];
      const b = shrinkageWeight(tau2[level], variances[at]);
      const towards = node.parentIndex < 0 ? 0 : nodeFactors[node.parentIndex];
      nodeFactors[at] = b * means[at] + (1 - b) * towards;
      groups[node.key] = {
        key: node.key, level, parent: node.parent, observations: node.observations, effectiveN: effectiveN(node),
        mean: means[at], variance: variances[at], shrinkageWeight: b, factor: nodeFactors[at],
      };
    }
  }
  return { table: { depth, sigma: Math.sqrt(sigma2), levels, groups }, nodeFactors };
}

/** σ² of one observation (step 1 of the module's doc comment): a weighted variance, so the weights' scale cancels. */
function withinVariance({ depth, byLevel, itemNodes, weights }: ShrinkageStructure, values: Float64Array, means: Float64Array): number {
  const n = weights.length;
  if (n < 2) return DEFAULT_SIGMA ** 2;
  const lowest = byLevel[depth - 1].length;
  const [level, correction] = n > lowest ? [depth - 1, n / (n - lowest)] : [0, n / (n - 1)];
  let ss = 0;
  let sw = 0;
  for (let i = 0; i < n; i++) {
    ss += weights[i] * (values[i] - means[itemNodes[i * depth + level]]) ** 2;
    sw += weights[i];
  }
  return (ss / sw) * correction;
}

/** The factor that applies to a path: its own group's, else its nearest ancestor with observations; null when none has any. */
export function factorFor(table: ShrinkageTable, groups: readonly string[]): GroupFactor | null {
  const keys = groupKeys(groups);
  for (let level = Math.min(groups.length, table.depth) - 1; level >= 0; level--) {
    const found = table.groups[keys[level]];
    if (found) return found;
  }
  return null;
}

