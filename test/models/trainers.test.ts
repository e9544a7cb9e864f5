import {
  HistGradientBoostingRegressor,
  NearestComparablesRegressor,
  NotFittedError,
  RandomForestRegressor,
  RidgeRegression,
  fromRows,
  makeFriedman1,
  matrix,
  type Matrix,
  type Regressor,
  type Tree,
} from '../../models/trainers';
import { leafOf } from '../../models/trainers/tree';
import { r2, sameBytes, typedArrays } from '../support/estimator-checks';

type Estimator = Regressor<object> & { readonly params: object; fitted_: unknown };

function depth(tree: Tree, node = 0): number {
  return tree.feature[node] < 0 ? 0 : 1 + Math.max(depth(tree, tree.left[node]), depth(tree, tree.right[node]));
}

function leafCount(tree: Tree): number {
  return tree.feature.filter((f) => f < 0).length;
}

const train = makeFriedman1({ rows: 1500, cols: 8, missingRate: 0.1, seed: 11 });
const heldOut = makeFriedman1({ rows: 1000, cols: 8, missingRate: 0.1, seed: 12 });

const ESTIMATORS: Array<[string, () => Estimator, number]> = [
  // name, factory, minimum held-out R^2 on Friedman #1 with 10% NaN
  ['HistGradientBoostingRegressor', () => new HistGradientBoostingRegressor({ maxIter: 60 }), 0.7],
  ['RandomForestRegressor', () => new RandomForestRegressor({ nEstimators: 20 }), 0.6],
  ['RidgeRegression', () => new RidgeRegression(), 0.5],
  ['NearestComparablesRegressor (distance weighting)', () => new NearestComparablesRegressor(), 0.6],
  ['NearestComparablesRegressor (uniform weighting)', () => new NearestComparablesRegressor({ weighting: 'uniform', k: 15 }), 0.6],
];

describe.each(ESTIMATORS)('%s conformance', (_name, make, minR2) => {
  /**
   * make() fitted on the training rows and its held-out predictions, for the tests that only read
   * them: fitted once for the block (fits are deterministic, as a test here checks with fits of its own).
   */
  let fittedOnce: { est: Estimator; pred: Float64Array } | undefined;
  const plainFit = () => {
    if (!fittedOnce) {
      const est = make().fit(train.X, train.y);
      fittedOnce = { est, pred: est.predict(heldOut.X) };
    }
    return fittedOnce;
  };

  test('the constructor stores hyperparameters only; learned state appears in fitted_ after fit', () => {
    const est = make();
    expect(Object.keys(est).sort()).toEqual(['fitted_', 'params']);
    expect(est.fitted_).toBeUndefined();
    expect(est.fit(train.X, train.y)).toBe(est);
    expect(est.fitted_).toBeDefined();
    expect(Object.keys(est).sort()).toEqual(['fitted_', 'params']);
  });

  test('predict before fit throws NotFittedError', () => {
    expect(() => make().predict(heldOut.X)).toThrow(NotFittedError);
  });

  test('fit and predict leave X, y and sampleWeight untouched and keep no reference to them', () => {
    const X: Matrix = { data: train.X.data.slice(), rows: train.X.rows, cols: train.X.cols };
    const y = train.y.slice();
    const w = Float64Array.from(y, (_, i) => 1 + (i % 3));
    const [x0, y0, w0] = [X.data.slice(), y.slice(), w.slice()];
    const est = make().fit(X, y, { sampleWeight: w });
    est.predict(X);
    expect(sameBytes(X.data, x0) && sameBytes(y, y0) && sameBytes(w, w0)).toBe(true);
    const inputs = new Set<ArrayBufferLike>([X.data.buffer, y.buffer, w.buffer]);
    expect(typedArrays(est.fitted_).filter((a) => inputs.has(a.buffer))).toHaveLength(0);
  });

  test('fits are deterministic, and a copy made from getParams() predicts identically', () => {
    const a = plainFit().pred;
    const b = make().fit(train.X, train.y).predict(heldOut.X);
    const est = make();
    const ctor = est.constructor as new (p: object) => Estimator;
    const c = new ctor(est.getParams()).fit(train.X, train.y).predict(heldOut.X);
    expect(sameBytes(a, b)).toBe(true);
    expect(sameBytes(a, c)).toBe(true);
  });

  test('handles NaN in training and prediction, including an all-NaN row', () => {
    const { est, pred } = plainFit();
    expect(pred.every(Number.isFinite)).toBe(true);
    const allNaN = est.predict({ data: new Float64Array(train.X.cols).fill(NaN), rows: 1, cols: train.X.cols });
    expect(Number.isFinite(allNaN[0])).toBe(true);
  });

  test(`beats the mean predictor on held-out rows (R^2 > ${minR2})`, () => {
    expect(r2(plainFit().pred, heldOut.y)).toBeGreaterThan(minR2);
  });

  test('unit sample weights give the same model as no weights', () => {
    const plain = plainFit().pred;
    const weighted = make()
      .fit(train.X, train.y, { sampleWeight: new Float64Array(train.X.rows).fill(1) })
      .predict(heldOut.X);
    plain.forEach((p, i) => expect(weighted[i]).toBeCloseTo(p, 9));
  });

  test('rows with zero weight do not influence the fit', () => {
    const y = train.y.map((v, i) => (i % 10 === 0 ? 1e6 : v));
    const w = Float64Array.from(y, (_, i) => (i % 10 === 0 ? 0 : 1));
    const pred = make().fit(train.X, y, { sampleWeight: w }).predict(heldOut.X);
    expect(Math.max(...pred)).toBeLessThan(40);
    expect(r2(pred, heldOut.y)).toBeGreaterThan(minR2);
  });

  test('rejects malformed input', () => {
    const est = make();
    expect(() => est.fit(train.X, train.y.subarray(1))).toThrow(RangeError);
    const badY = train.y.slice();
    badY[3] = NaN;
    expect(() => est.fit(train.X, badY)).toThrow(RangeError);
    expect(() => est.fit(train.X, train.y, { sampleWeight: new Float64Array(train.X.rows).fill(-1) })).toThrow(RangeError);
    est.fit(train.X, train.y);
    expect(() => est.predict({ data: new Float64Array(3), rows: 1, cols: 3 })).toThrow(RangeError);
  });
});

test('matrix() accepts row-major data of the stated shape only', () => {
  expect(matrix(new Float64Array(6), 2, 3)).toEqual({ data: new Float64Array(6), rows: 2, cols: 3 });
  expect(() => matrix(new Float64Array(5), 2, 3)).toThrow(RangeError);
});

describe('HistGradientBoostingRegressor', () => {
  const clean = makeFriedman1({ rows: 4000, cols: 10, seed: 21 });
  const held = makeFriedman1({ rows: 2000, cols: 10, seed: 22 });

  test('learns a nonlinear function far better than the mean and than a linear model', () => {
    const gbdt = r2(new HistGradientBoostingRegressor({ maxIter: 200 }).fit(clean.X, clean.y).predict(held.X), held.y);
    const ridge = r2(new RidgeRegression().fit(clean.X, clean.y).predict(held.X), held.y);
    // noise variance 1 against var(y) ~ 24 caps R^2 near 0.96
    expect(gbdt).toBeGreaterThan(0.92);
    expect(gbdt - ridge).toBeGreaterThan(0.15);
  });

  test.each([0.9, 0.1])('quantile loss with alpha=%p leaves that share of training targets at or below the prediction', (alpha) => {
    const share = (est: HistGradientBoostingRegressor, X: Matrix, y: Float64Array) => {
      const pred = est.predict(X);
      return y.filter((v, i) => v <= pred[i]).length / y.length;
    };
    const defaults = new HistGradientBoostingRegressor({ loss: 'quantile', alpha }).fit(clean.X, clean.y);
    expect(Math.abs(share(defaults, clean.X, clean.y) - alpha)).toBeLessThan(0.02);
    // default-sized leaves overfit the quantile out of sample; smaller trees keep held-out coverage close
    const small = new HistGradientBoostingRegressor({ loss: 'quantile', alpha, maxLeafNodes: 8, minSamplesLeaf: 50 }).fit(clean.X, clean.y);
    expect(Math.abs(share(small, clean.X, clean.y) - alpha)).toBeLessThan(0.02);
    expect(Math.abs(share(small, held.X, held.y) - alpha)).toBeLessThan(0.05);
  });

  test('the quantile baseline is the alpha-quantile of y (numpy linear interpolation)', () => {
    const y = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const X = fromRows(Array.from(y, () => [0]));
    const est = new HistGradientBoostingRegressor({ loss: 'quantile', alpha: 0.9, maxIter: 1 }).fit(X, y);
    expect(est.fitted_!.baseline).toBeCloseTo(9.1, 12);
  });

  test('learns where NaN goes: missing values that mean "expensive" are sent to the expensive side', () => {
    // y = 10 when x0 is missing, else x0 in [0, 1)
    const rows = Array.from({ length: 400 }, (_, i) => [i % 4 === 0 ? null : (i % 97) / 97]);
    const X = fromRows(rows);
    const y = Float64Array.from(rows, (r) => (r[0] === null ? 10 : r[0]));
    const est = new HistGradientBoostingRegressor({ maxIter: 50 }).fit(X, y);
    const [nan, low] = est.predict(fromRows([[null], [0.1]]));
    expect(nan).toBeCloseTo(10, 1);
    expect(low).toBeLessThan(1);
  });

  test.each([
    [80, true],
    [20, false],
  ])('a feature with no NaN in training sends NaN to the child with more rows (%p of 100 rows left)', (nLeft, goesLeft) => {
    const X = fromRows(Array.from({ length: 100 }, (_, i) => [i < nLeft ? 0 : 1]));
    const y = Float64Array.from({ length: 100 }, (_, i) => (i < nLeft ? 0 : 10));
    const est = new HistGradientBoostingRegressor({ maxIter: 1, learningRate: 1, maxLeafNodes: 2, minSamplesLeaf: 1 }).fit(X, y);
    const tree = est.fitted_!.trees[0];
    expect(tree.missingGoLeft[0]).toBe(goesLeft ? 1 : 0);
    expect(est.predict(fromRows([[null]]))[0]).toBeCloseTo(goesLeft ? 0 : 10, 9);
  });

  test('tree shape limits: maxLeafNodes (best-first), maxDepth (depth-limited), minSamplesLeaf', () => {
    const bestFirst = new HistGradientBoostingRegressor({ maxIter: 20, maxLeafNodes: 7, minSamplesLeaf: 50 }).fit(clean.X, clean.y);
    const depthLimited = new HistGradientBoostingRegressor({ maxIter: 20, maxLeafNodes: null, maxDepth: 3 }).fit(clean.X, clean.y);
    const trees = (e: HistGradientBoostingRegressor) => e.fitted_!.trees;
    expect(trees(bestFirst).every((t) => leafCount(t) <= 7)).toBe(true);
    expect(trees(bestFirst).some((t) => leafCount(t) === 7)).toBe(true);
    expect(trees(depthLimited).every((t) => depth(t) <= 3)).toBe(true);
    expect(trees(depthLimited).some((t) => leafCount(t) === 8)).toBe(true);
    for (const tree of trees(bestFirst)) {
      const rowsPerLeaf = new Map<number, number>();
      for (let r = 0; r < clean.X.rows; r++) {
        const leaf = leafOf(tree, clean.X.data, r * clean.X.cols);
        rowsPerLeaf.set(leaf, (rowsPerLeaf.get(leaf) ?? 0) + 1);
      }
      expect(Math.min(...rowsPerLeaf.values())).toBeGreaterThanOrEqual(50);
    }
  });

  test('l2Regularization shrinks leaf values', () => {
    const leafMass = (l2: number) => {
      const est = new HistGradientBoostingRegressor({ maxIter: 5, l2Regularization: l2 }).fit(clean.X, clean.y);
      return est.fitted_!.trees.reduce((s, t) => s + t.value.reduce((a, v) => a + Math.abs(v), 0), 0);
    };
    expect(leafMass(5000)).toBeLessThan(0.8 * leafMass(0));
  });

  test('early stopping on a seeded validation split stops when the validation loss stalls', () => {
    const noise = makeFriedman1({ rows: 2000, cols: 5, seed: 31 });
    const pureNoise = Float64Array.from(noise.y, (_, i) => Math.sin(i * 12.9898) * 43758.5453 % 1);
    const fit = (seed: number) =>
      new HistGradientBoostingRegressor({ maxIter: 500, earlyStopping: true, randomState: seed }).fit(noise.X, pureNoise);
    const est = fit(3);
    const state = est.fitted_!;
    expect(state.trees.length).toBeLessThan(100);
    expect(state.validationScore).toHaveLength(state.trees.length + 1);
    expect(state.trainScore).toHaveLength(state.trees.length + 1);
    expect(sameBytes(fit(3).predict(noise.X), est.predict(noise.X))).toBe(true);
    expect(sameBytes(fit(4).predict(noise.X), est.predict(noise.X))).toBe(false);
    // 'auto' only turns it on above 10,000 rows
    expect(new HistGradientBoostingRegressor({ maxIter: 5 }).fit(noise.X, pureNoise).fitted_!.validationScore).toBeNull();
  });

  test('rejects invalid hyperparameters at fit', () => {
    expect(() => new HistGradientBoostingRegressor({ learningRate: 0 }).fit(clean.X, clean.y)).toThrow(RangeError);
    expect(() => new HistGradientBoostingRegressor({ maxBins: 256 }).fit(clean.X, clean.y)).toThrow(RangeError);
    expect(() => new HistGradientBoostingRegressor({ loss: 'quantile', alpha: 1 }).fit(clean.X, clean.y)).toThrow(RangeError);
  });
});

describe('RandomForestRegressor', () => {
  const data = makeFriedman1({ rows: 3000, cols: 10, seed: 41 });
  const held = makeFriedman1({ rows: 1000, cols: 10, seed: 42 });

  test('averages bagged trees into a good nonlinear fit whose predictions stay within the target range', () => {
    const pred = new RandomForestRegressor({ nEstimators: 50 }).fit(data.X, data.y).predict(held.X);
    expect(r2(pred, held.y)).toBeGreaterThan(0.85);
    const [lo, hi] = [Math.min(...data.y), Math.max(...data.y)];
    expect(pred.every((p) => p >= lo && p <= hi)).toBe(true);
  });

  test('the seed drives bootstrap and feature sampling', () => {
    const fit = (randomState: number) => new RandomForestRegressor({ nEstimators: 5, maxFeatures: 'sqrt', randomState }).fit(data.X, data.y).predict(held.X);
    expect(sameBytes(fit(1), fit(1))).toBe(true);
    expect(sameBytes(fit(1), fit(2))).toBe(false);
  });

  test('one tree without bootstrap and with unlimited depth memorises distinct rows', () => {
    const est = new RandomForestRegressor({ nEstimators: 1, bootstrap: false }).fit(data.X, data.y);
    expect(r2(est.predict(data.X), data.y)).toBeGreaterThan(0.999);
  });

  test('maxDepth and minSamplesLeaf bound the trees', () => {
    const est = new RandomForestRegressor({ nEstimators: 5, maxDepth: 4, minSamplesLeaf: 30 }).fit(data.X, data.y);
    const trees = est.fitted_!.trees;
    expect(trees.every((t) => depth(t) <= 4)).toBe(true);
    expect(trees.every((t) => leafCount(t) <= 16)).toBe(true);
  });
});

describe('RidgeRegression', () => {
  const rows = Array.from({ length: 200 }, (_, i) => [i % 17, (i * 7) % 23, 5]);
  const X = fromRows(rows);
  const y = Float64Array.from(rows, ([a, b]) => 3 * a - 2 * b + 7);

  test('recovers an exact linear relation with a tiny penalty; a constant column gets coefficient 0', () => {
    const state = new RidgeRegression({ alpha: 1e-9 }).fit(X, y).fitted_!;
    expect(state.coef[0]).toBeCloseTo(3, 6);
    expect(state.coef[1]).toBeCloseTo(-2, 6);
    expect(state.coef[2]).toBe(0);
    expect(state.intercept).toBeCloseTo(7, 5);
  });

  test('alpha shrinks the coefficients', () => {
    const norm = (alpha: number) => {
      const { coef } = new RidgeRegression({ alpha }).fit(X, y).fitted_!;
      return Math.hypot(...coef);
    };
    expect(norm(1000)).toBeLessThan(0.5 * norm(0.001));
  });

  test('an integer sample weight equals repeating the row', () => {
    const noisy = Float64Array.from(y, (v, i) => v + ((i * 37) % 11) - 5);
    const w = Float64Array.from(noisy, (_, i) => (i % 5 === 0 ? 3 : 1));
    const repeated = rows.flatMap((r, i) => Array<number[]>(w[i]).fill(r));
    const repeatedY = Float64Array.from(rows.flatMap((_, i) => Array<number>(w[i]).fill(noisy[i])));
    const a = new RidgeRegression({ alpha: 2 }).fit(X, noisy, { sampleWeight: w }).predict(X);
    const b = new RidgeRegression({ alpha: 2 }).fit(fromRows(repeated), repeatedY).predict(X);
    a.forEach((p, i) => expect(p).toBeCloseTo(b[i], 8));
  });

  test('a missing value is replaced by the training mean of its feature', () => {
    const est = new RidgeRegression().fit(train.X, train.y);
    const { mean } = est.fitted_!;
    const row = Array.from(train.X.data.subarray(0, train.X.cols));
    row[2] = NaN;
    const filled = row.map((v, j) => (Number.isNaN(v) ? mean[j] : v));
    expect(est.predict(fromRows([row]))[0]).toBeCloseTo(est.predict(fromRows([filled]))[0], 10);
  });
});

describe('monotonic constraints (monotonicCst)', () => {
  // y rises with x0 overall but dips in the middle, and noise on x1: a free model follows the dip.
  const n = 2000;
  const rng = mulberry(11);
  const X = matrix(new Float64Array(n * 2), n, 2);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x0 = rng() * 10;
    const x1 = rng();
    X.data[i * 2] = x0;
    X.data[i * 2 + 1] = x1;
    y[i] = x0 - 3 * Math.exp(-((x0 - 5) ** 2)) + x1 + 0.1 * (rng() - 0.5);
  }
  const grid = matrix(Float64Array.from({ length: 200 }, (_, k) => (k % 2 === 0 ? (k / 2) * 0.1 : 0.5)), 100, 2);
  const drops = (p: Float64Array) => p.slice(1).filter((v, k) => v < p[k] - 1e-12).length;
  const models = [
    ['gradient boosting', (cst: number[] | null) => new HistGradientBoostingRegressor({ maxIter: 60, minSamplesLeaf: 10, monotonicCst: cst, earlyStopping: false })],
    ['random forest', (cst: number[] | null) => new RandomForestRegressor({ nEstimators: 20, minSamplesLeaf: 5, monotonicCst: cst, randomState: 3 })],
  ] as const;

  it.each(models)('%s: never falls along a +1 feature, while the free model follows the dip', (_name, make) => {
    expect(drops(make(null).fit(X, y).predict(grid))).toBeGreaterThan(0);
    expect(drops(make([1, 0]).fit(X, y).predict(grid))).toBe(0);
  });

  it.each(models)('%s: -1 makes it never rise', (_name, make) => {
    const p = make([-1, 0]).fit(X, y.map((v) => -v)).predict(grid);
    expect(p.slice(1).filter((v, k) => v > p[k] + 1e-12).length).toBe(0);
  });

  it('refuses a constraint the quantile loss would undo', () => {
    expect(() => new HistGradientBoostingRegressor({ loss: 'quantile', monotonicCst: [1, 0] }).fit(X, y)).toThrow(/squared_error/);
  });
});

function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
