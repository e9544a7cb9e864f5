/**
 * A fitted binary regression tree as parallel arrays indexed by node id (root = 0, ids 0..n-1).
 * Shared by every tree model and by the ONNX tree encoding.
 */
export interface Tree {
  /** Split feature, or -1 for a leaf. */
  readonly feature: Int32Array;
  /** Rows go left iff fround(x) <= threshold: float32 so onnxruntime's float comparison agrees. */
  readonly threshold: Float32Array;
  /** 1 if NaN goes left. */
  readonly missingGoLeft: Uint8Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Output of a leaf (0 on split nodes). */
  readonly value: Float64Array;
}

/** Id of the leaf that row values x[offset .. offset + nFeatures) fall into. */
export function leafOf(tree: Tree, x: Float64Array, offset: number): number {
  const { feature, threshold, missingGoLeft, left, right } = tree;
  let node = 0;
  for (let f = feature[0]; f >= 0; f = feature[node]) {
    const v = x[offset + f];
    const goLeft = v !== v ? missingGoLeft[node] === 1 : Math.fround(v) <= threshold[node];
    node = goLeft ? left[node] : right[node];
  }
  return node;
}

/** Growable node list, frozen into a Tree once growing is done. */
export class TreeBuilder {
  private readonly feature: number[] = [];
  private readonly threshold: number[] = [];
  private readonly missingGoLeft: number[] = [];
  private readonly left: number[] = [];
  private readonly right: number[] = [];
  private readonly value: number[] = [];

  /** Adds a node as a leaf and returns its id. */
  addLeaf(value: number): number {
    this.feature.push(-1);
    this.threshold.push(0);
    this.missingGoLeft.push(0);
    this.left.push(-1);
    this.right.push(-1);
    this.value.push(value);
    return this.value.length - 1;
  }

  /** Turns leaf `node` into a split whose children are new leaves; returns [leftId, rightId]. */
  split(node: number, feature: number, threshold: number, missingGoLeft: boolean): [number, number] {
    const l = this.addLeaf(0);
    const r = this.addLeaf(0);
    this.feature[node] = feature;
    this.threshold[node] = threshold;
    this.missingGoLeft[node] = missingGoLeft ? 1 : 0;
    this.left[node] = l;
    this.right[node] = r;
    this.value[node] = 0;
    return [l, r];
  }

  setValue(node: number, value: number): void {
    this.value[node] = value;
  }

  build(): Tree {
    return {
      feature: Int32Array.from(this.feature),
      threshold: Float32Array.from(this.threshold),
      missingGoLeft: Uint8Array.from(this.missingGoLeft),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      value: Float64Array.from(this.value),
    };
  }
}
