import { MISSING_BIN, type BinnedData } from './binning';
import type { Random } from './random';
import { TreeBuilder, type Tree } from './tree';

export interface GrowerParams {
  /** Best-first growth stops at this many leaves; null grows until the other limits stop it. */
  readonly maxLeafNodes: number | null;
  /** Edges from the root to the deepest leaf; null for no limit. */
  readonly maxDepth: number | null;
  readonly minSamplesLeaf: number;
  readonly l2Regularization: number;
  /** Features drawn at random for each node's split search; data.cols searches all of them in order. */
  readonly maxFeatures: number;
  /**
   * Per feature: +1 the prediction may only rise with it, -1 only fall, 0 free (scikit-learn's
   * monotonic_cst). Missing values are not ordered: a NaN row may go to either side.
   */
  readonly monotonic?: readonly number[] | null;
}

/** A leaf and the slice [start, end) of the caller's index array holding its rows. */
export interface GrownLeaf {
  readonly node: number;
  readonly start: number;
  readonly end: number;
}

export interface GrownTree {
  /** Leaf values are the Newton steps -G / (H + l2); callers rescale or replace them. */
  readonly tree: Tree;
  readonly leaves: readonly GrownLeaf[];
}

/** Per feature: 256 bins (bin 255 = missing) of [sum gradient, sum hessian, count]. */
const HIST_STRIDE = 256 * 3;
/** Below this many rows a node's split is found by sorting its rows' bins, cheaper than a 256-bin histogram. */
const SMALL_NODE = 128;

interface Node {
  readonly id: number;
  readonly start: number;
  readonly end: number;
  readonly depth: number;
  readonly sumG: number;
  readonly sumH: number;
  hist: Float64Array | null;
  // best split found so far; gain 0 means none
  gain: number;
  feature: number;
  bin: number;
  missingGoLeft: boolean;
  leftG: number;
  leftH: number;
  // bounds on the values of leaves below this node (monotonic constraints); ±Infinity when free
  readonly lower: number;
  readonly upper: number;
}

/**
 * Grows regression trees on binned data from per-row gradients and hessians (LightGBM / scikit-learn
 * HistGradientBoosting style). Gradient boosting and random forests both use it: a forest passes
 * g = -w(y - mean), h = w, l2 = 0, which makes the gain the weighted squared-error reduction.
 */
export class TreeGrower {
  private readonly pool: Float64Array[] = [];
  private readonly keys = new Int32Array(SMALL_NODE);
  private readonly spill: Uint32Array;
  private readonly featureOrder: Int32Array;
  // inputs of the tree being grown
  private g: Float64Array = new Float64Array(0);
  private h: Float64Array = new Float64Array(0);
  private idx: Uint32Array = new Uint32Array(0);
  // totals of the node being searched
  private nodeCount = 0;
  private parentScore = 0;
  /** The constraint per feature, or null when no feature is constrained (the plain, faster path). */
  private readonly monotonic: Int8Array | null;

  constructor(
    private readonly data: BinnedData,
    private readonly params: GrowerParams,
  ) {
    this.spill = new Uint32Array(data.rows);
    this.featureOrder = Int32Array.from({ length: data.cols }, (_, f) => f);
    const cst = params.monotonic;
    if (cst && cst.length !== data.cols) throw new RangeError(`monotonic has ${cst.length} entries for ${data.cols} features`);
    this.monotonic = cst && cst.some((c) => c !== 0) ? Int8Array.from(cst, (c) => Math.sign(c)) : null;
  }

  /** Grows one tree on the rows listed in `indices`, which is reordered so each leaf's rows are contiguous. */
  grow(gradients: Float64Array, hessians: Float64Array, indices: Uint32Array, rng: Random): GrownTree {
    this.g = gradients;
    this.h = hessians;
    this.idx = indices;
    const { maxLeafNodes } = this.params;
    const builder = new TreeBuilder();
    const leaves: GrownLeaf[] = [];
    const open: Node[] = [];

    let sumG = 0;
    let sumH = 0;
    for (let k = 0; k < indices.length; k++) {
      sumG += gradients[indices[k]];
      sumH += hessians[indices[k]];
    }
    const root = this.node(builder.addLeaf(0), 0, indices.length, 0, sumG, sumH, -Infinity, Infinity);
    if (this.splittable(root)) {
      if (root.end - root.start > SMALL_NODE) root.hist = this.histogram(root);
      this.findSplit(root, rng);
    }
    if (root.gain > 0) open.push(root);
    else this.finishLeaf(root, builder, leaves);

    let nLeaves = 1;
    while (open.length > 0 && (maxLeafNodes === null || nLeaves < maxLeafNodes)) {
      // best-first when leaves are capped; otherwise order does not change the tree, so take the cheapest pop
      let pick = open.length - 1;
      if (maxLeafNodes !== null) for (let k = 0; k < open.length; k++) if (open[k].gain > open[pick].gain) pick = k;
      const node = open[pick];
      open[pick] = open[open.length - 1];
      open.pop();

      const threshold = node.bin < this.data.nBins[node.feature] - 1 ? this.data.thresholds[node.feature][node.bin] : Infinity;
      const [leftId, rightId] = builder.split(node.id, node.feature, threshold, node.missingGoLeft);
      const mid = this.partition(node);
      const [leftBounds, rightBounds] = this.childBounds(node);
      const left = this.node(leftId, node.start, mid, node.depth + 1, node.leftG, node.leftH, ...leftBounds);
      const right = this.node(rightId, mid, node.end, node.depth + 1, node.sumG - node.leftG, node.sumH - node.leftH, ...rightBounds);
      nLeaves++;
      const capped = maxLeafNodes !== null && nLeaves >= maxLeafNodes;
      this.childHistograms(node, left, right, capped);
      for (const child of [left, right]) {
        if (!capped && this.splittable(child)) this.findSplit(child, rng);
        if (child.gain > 0) open.push(child);
        else this.finishLeaf(child, builder, leaves);
      }
    }
    for (const node of open) this.finishLeaf(node, builder, leaves);
    return { tree: builder.build(), leaves };
  }

  private node(id: number, start: number, end: number, depth: number, sumG: number, sumH: number, lower: number, upper: number): Node {
    return { id, start, end, depth, sumG, sumH, hist: null, gain: 0, feature: -1, bin: 0, missingGoLeft: false, leftG: 0, leftH: 0, lower, upper };
  }

  /** A node's Newton value within its bounds. */
  private value(g: number, h: number, node: Node): number {
    const denom = h + this.params.l2Regularization;
    const v = denom > 0 ? -g / denom : 0;
    return v < node.lower ? node.lower : v > node.upper ? node.upper : v;
  }

  /**
   * Children's bounds after a split (LightGBM's basic method, as scikit-learn does it): across a
   * constrained feature the children meet at the midpoint of their values, so every leaf on the
   * low side stays at or below every leaf on the high side; otherwise both inherit the node's.
   */
  private childBounds(node: Node): [[number, number], [number, number]] {
    const inherit: [number, number] = [node.lower, node.upper];
    const c = this.monotonic?.[node.feature] ?? 0;
    if (c === 0) return [inherit, inherit];
    const mid = (this.value(node.leftG, node.leftH, node) + this.value(node.sumG - node.leftG, node.sumH - node.leftH, node)) / 2;
    return c > 0 ? [[node.lower, mid], [mid, node.upper]] : [[mid, node.upper], [node.lower, mid]];
  }

  private splittable(node: Node): boolean {
    const { maxDepth, minSamplesLeaf } = this.params;
    return (maxDepth === null || node.depth < maxDepth) && node.end - node.start >= Math.max(2, 2 * minSamplesLeaf);
  }

  private finishLeaf(node: Node, builder: TreeBuilder, leaves: GrownLeaf[]): void {
    if (node.hist) this.pool.push(node.hist);
    node.hist = null;
    const denom = node.sumH + this.params.l2Regularization;
    builder.setValue(node.id, this.monotonic ? this.value(node.sumG, node.sumH, node) : denom > 0 ? -node.sumG / denom : 0);
    leaves.push({ node: node.id, start: node.start, end: node.end });
  }

  private histogram(node: Node): Float64Array {
    const hist = this.pool.pop() ?? new Float64Array(this.data.cols * HIST_STRIDE);
    hist.fill(0);
    const { bins, cols } = this.data;
    const { g, h, idx } = this;
    for (let k = node.start; k < node.end; k++) {
      const i = idx[k];
      const gi = g[i];
      const hi = h[i];
      const row = i * cols;
      for (let f = 0, base = 0; f < cols; f++, base += HIST_STRIDE) {
        const o = base + bins[row + f] * 3;
        hist[o] += gi;
        hist[o + 1] += hi;
        hist[o + 2] += 1;
      }
    }
    return hist;
  }

  /**
   * Subtraction trick: build the smaller child's histogram from its rows and get the larger one as
   * parent minus smaller, in the parent's buffer. Only children that will be searched get one.
   */
  private childHistograms(parent: Node, left: Node, right: Node, capped: boolean): void {
    const parentHist = parent.hist;
    parent.hist = null;
    if (!parentHist) return;
    const [small, large] = left.end - left.start <= right.end - right.start ? [left, right] : [right, left];
    // a searched small child implies a searched large one: same depth, more rows
    const needs = (n: Node) => !capped && this.splittable(n) && n.end - n.start > SMALL_NODE;
    if (!needs(large)) {
      this.pool.push(parentHist);
      return;
    }
    const smallHist = this.histogram(small);
    for (let j = 0; j < parentHist.length; j++) parentHist[j] -= smallHist[j];
    large.hist = parentHist;
    if (needs(small)) small.hist = smallHist;
    else this.pool.push(smallHist);
  }

  private findSplit(node: Node, rng: Random): void {
    const { cols } = this.data;
    const order = this.featureOrder;
    const k = Math.min(this.params.maxFeatures, cols);
    if (k < cols) {
      for (let j = 0; j < k; j++) {
        const r = j + rng.int(cols - j);
        const t = order[j];
        order[j] = order[r];
        order[r] = t;
      }
    }
    this.nodeCount = node.end - node.start;
    this.parentScore = this.monotonic ? this.boundedScore(node.sumG, node.sumH, node) : (node.sumG * node.sumG) / (node.sumH + this.params.l2Regularization);
    for (let j = 0; j < k; j++) {
      if (node.hist) this.scanHistogram(node, order[j]);
      else this.scanSorted(node, order[j]);
    }
  }

  private scanHistogram(node: Node, f: number): void {
    const hist = node.hist as Float64Array;
    const base = f * HIST_STRIDE;
    const m = base + MISSING_BIN * 3;
    const mG = hist[m];
    const mH = hist[m + 1];
    const mN = hist[m + 2];
    const nb = this.data.nBins[f];
    let gl = 0;
    let hl = 0;
    let nl = 0;
    for (let b = 0, o = base; b < nb; b++, o += 3) {
      gl += hist[o];
      hl += hist[o + 1];
      nl += hist[o + 2];
      if (this.nodeCount - nl < this.params.minSamplesLeaf) break;
      this.consider(node, f, b, gl, hl, nl, mG, mH, mN);
    }
  }

  /** Same candidates as scanHistogram, found by sorting the node's rows by bin. */
  private scanSorted(node: Node, f: number): void {
    const { bins, cols } = this.data;
    const { g, h, idx } = this;
    const n = node.end - node.start;
    const keys = this.keys.subarray(0, n);
    for (let k = 0; k < n; k++) keys[k] = (bins[idx[node.start + k] * cols + f] << 16) | k;
    keys.sort();
    let end = n;
    let mG = 0;
    let mH = 0;
    let mN = 0;
    while (end > 0 && keys[end - 1] >>> 16 === MISSING_BIN) {
      const i = idx[node.start + (keys[--end] & 0xffff)];
      mG += g[i];
      mH += h[i];
      mN++;
    }
    let gl = 0;
    let hl = 0;
    let nl = 0;
    for (let p = 0; p < end; p++) {
      const i = idx[node.start + (keys[p] & 0xffff)];
      gl += g[i];
      hl += h[i];
      nl++;
      const b = keys[p] >>> 16;
      if (p + 1 < end && keys[p + 1] >>> 16 === b) continue;
      if (n - nl < this.params.minSamplesLeaf) break;
      this.consider(node, f, b, gl, hl, nl, mG, mH, mN);
    }
  }

  /**
   * The loss reduction of a leaf holding (g, h) at its value clipped to the node's bounds:
   * -(2gv + (h+l2)v²), which is g²/(h+l2) when the bounds do not bind.
   */
  private boundedScore(g: number, h: number, node: Node): number {
    const v = this.value(g, h, node);
    return -(2 * g * v + (h + this.params.l2Regularization) * v * v);
  }

  /** The gain of a split under monotonic constraints, or -Infinity when it breaks the feature's direction. */
  private constrainedGain(node: Node, f: number, gl: number, hl: number): number {
    const gr = node.sumG - gl;
    const hr = node.sumH - hl;
    const c = this.monotonic![f];
    if (c !== 0 && c * (this.value(gr, hr, node) - this.value(gl, hl, node)) < 0) return -Infinity;
    return this.boundedScore(gl, hl, node) + this.boundedScore(gr, hr, node) - this.parentScore;
  }

  /** Scores "bins <= b go left" with NaN rows sent right, then left; keeps the best on the node. */
  private consider(node: Node, f: number, b: number, gl: number, hl: number, nl: number, mG: number, mH: number, mN: number): void {
    const { minSamplesLeaf } = this.params;
    const n = this.nodeCount;
    if (nl >= minSamplesLeaf && n - nl >= minSamplesLeaf && hl > 0 && node.sumH - hl > 0) {
      const gain = this.splitGain(node, f, gl, hl);
      // a feature that had no NaN in training sends NaN to the side with more rows
      if (gain > node.gain) this.record(node, gain, f, b, this.data.hasMissing[f] === 1 ? false : nl > n - nl, gl, hl);
    }
    if (mN > 0) {
      const gl2 = gl + mG;
      const hl2 = hl + mH;
      const nl2 = nl + mN;
      if (nl2 >= minSamplesLeaf && n - nl2 >= minSamplesLeaf && hl2 > 0 && node.sumH - hl2 > 0) {
        const gain = this.splitGain(node, f, gl2, hl2);
        if (gain > node.gain) this.record(node, gain, f, b, true, gl2, hl2);
      }
    }
  }

  /** The loss reduction of sending (gl, hl) left and the rest right; -Infinity for a split against a monotonic constraint. */
  private splitGain(node: Node, f: number, gl: number, hl: number): number {
    if (this.monotonic) return this.constrainedGain(node, f, gl, hl);
    const l2 = this.params.l2Regularization;
    const gr = node.sumG - gl;
    const hr = node.sumH - hl;
    return (gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - this.parentScore;
  }

  private record(node: Node, gain: number, f: number, b: number, missingGoLeft: boolean, leftG: number, leftH: number): void {
    node.gain = gain;
    node.feature = f;
    node.bin = b;
    node.missingGoLeft = missingGoLeft;
    node.leftG = leftG;
    node.leftH = leftH;
  }

  /** Stable in-place partition of the node's rows; returns where the right child starts. */
  private partition(node: Node): number {
    const { bins, cols } = this.data;
    const { idx, spill } = this;
    const { feature: f, bin: b, missingGoLeft } = node;
    let write = node.start;
    let spilled = 0;
    for (let k = node.start; k < node.end; k++) {
      const i = idx[k];
      const bin = bins[i * cols + f];
      if (bin === MISSING_BIN ? missingGoLeft : bin <= b) idx[write++] = i;
      else spill[spilled++] = i;
    }
    idx.set(spill.subarray(0, spilled), write);
    return write;
  }
}
