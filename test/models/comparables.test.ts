import { toOnnx } from '../../models/onnx/registry';
import { OnnxModel } from '../../models/runtime/onnx-model';
import { readModelMetadata } from '../../models/runtime/onnx-metadata';
import {
  DISTANCE_EPSILON,
  NearestComparablesRegressor,
  NotFittedError,
  RidgeRegression,
  fromRows,
  makeFriedman1,
  type Matrix,
  type NearestComparablesParams,
} from '../../models/trainers';
import { Random } from '../../models/trainers/random';
import { r2, priced } from '../support/estimator-checks';

function concatRows(...parts: Matrix[]): Matrix {
  const data = new Float64Array(parts.reduce((n, p) => n + p.data.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p.data, at);
    at += p.data.length;
  }
  return { data, rows: data.length / parts[0].cols, cols: parts[0].cols };
}

const train = makeFriedman1({ rows: 1500, cols: 8, missingRate: 0.1, seed: 11 });
const heldOut = makeFriedman1({ rows: 1000, cols: 8, missingRate: 0.1, seed: 12 });

// The conformance checks every estimator passes run in trainers.test.ts; these are the comparables' own.
describe('NearestComparablesRegressor specifics', () => {
  test('kneighbors and export before fit throw NotFittedError', () => {
    expect(() => new NearestComparablesRegressor().kneighbors(heldOut.X)).toThrow(NotFittedError);
    expect(() => toOnnx(new NearestComparablesRegressor(), { featureNames: ['a'] })).toThrow(NotFittedError);
  });

  test('rows with zero weight are never comparables', () => {
    const w = Float64Array.from(train.y, (_, i) => (i % 10 === 0 ? 0 : 1));
    const est = new NearestComparablesRegressor().fit(train.X, train.y, { sampleWeight: w });
    expect(est.kneighbors(heldOut.X).indices.every((i) => i % 10 !== 0)).toBe(true);
  });

  test('rejects invalid hyperparameters', () => {
    const bad: Array<Partial<NearestComparablesParams>> = [
      { k: 0 },
      { k: 2.5 },
      { k: train.X.rows + 1 },
      { weighting: 'gaussian' as NearestComparablesParams['weighting'] },
      { featureWeights: [1, 1] },
      { featureWeights: [1, 1, 1, -1, 1, 1, 1, 1] },
      { featureWeights: [1, 1, 1, NaN, 1, 1, 1, 1] },
    ];
    for (const p of bad) expect(() => new NearestComparablesRegressor(p).fit(train.X, train.y)).toThrow(RangeError);
  });
});

test('getParams() returns a copy: changing it or the array passed in does not change the estimator', () => {
  const weights = [2, 1, 1, 1, 1, 1, 1, 1];
  const est = new NearestComparablesRegressor({ k: 3, featureWeights: weights });
  weights[0] = 100;
  const params = est.getParams();
  expect(params).toEqual({ k: 3, weighting: 'distance', featureWeights: [2, 1, 1, 1, 1, 1, 1, 1] });
  (params.featureWeights as number[])[1] = 50;
  expect(est.getParams().featureWeights).toEqual([2, 1, 1, 1, 1, 1, 1, 1]);
});

describe('neighbours', () => {
  test.each(['uniform', 'distance'] as const)('k=1 on the training rows returns their own targets (%s)', (weighting) => {
    const est = new NearestComparablesRegressor({ k: 1, weighting }).fit(train.X, train.y);
    const pred = est.predict(train.X);
    pred.forEach((p, i) => expect(p).toBeCloseTo(train.y[i], 12));
    const { indices, distances } = est.kneighbors(train.X);
    expect(Array.from(indices)).toEqual(Array.from({ length: train.X.rows }, (_, i) => i));
    expect(distances.every((d) => d === 0)).toBe(true);
  });

  test('in-sample predictions are optimistic: with distance weighting each row is all but its own prediction', () => {
    const est = new NearestComparablesRegressor().fit(train.X, train.y);
    expect(r2(est.predict(train.X), train.y)).toBeGreaterThan(0.9999);
    expect(r2(est.predict(heldOut.X), heldOut.y)).toBeLessThan(0.9);
  });

  test('kneighbors: k training rows per query, nearest first, with their Euclidean distances in standardised units', () => {
    const X = fromRows([[0], [1], [3], [6], [10]]);
    const y = Float64Array.from([0, 10, 30, 60, 100]);
    const est = new NearestComparablesRegressor({ k: 3 }).fit(X, y);
    const sd = Math.sqrt([0, 1, 3, 6, 10].reduce((s, v) => s + (v - 4) ** 2, 0) / 5);
    const { k, indices, distances } = est.kneighbors(fromRows([[2.9], [7]]));
    expect(k).toBe(3);
    expect(Array.from(indices)).toEqual([2, 1, 0, 3, 4, 2]);
    [0.1, 1.9, 2.9, 1, 3, 4].forEach((d, r) => expect(distances[r]).toBeCloseTo(d / sd, 5));
  });

  test('ties go to the lower training row, as in onnxruntime TopK', () => {
    // rows 1, 2 and 4 are the same point with different targets; row 0 and 3 are further away
    const X = fromRows([[0, 0], [1, 1], [1, 1], [2, 2], [1, 1]]);
    const y = Float64Array.from([0, 10, 20, 30, 40]);
    const one = new NearestComparablesRegressor({ k: 1, weighting: 'uniform' }).fit(X, y);
    expect(one.predict(fromRows([[1, 1]]))[0]).toBe(10);
    const two = new NearestComparablesRegressor({ k: 2, weighting: 'uniform' }).fit(X, y);
    expect(Array.from(two.kneighbors(fromRows([[1, 1]])).indices)).toEqual([1, 2]);
    expect(two.predict(fromRows([[1, 1]]))[0]).toBe(15);
    // equidistant from rows 0 and 3 (and nothing nearer when rows 1, 2, 4 are given weight 0)
    const sparse = new NearestComparablesRegressor({ k: 1, weighting: 'uniform' }).fit(X, y, { sampleWeight: Float64Array.from([1, 0, 0, 1, 0]) });
    expect(Array.from(sparse.kneighbors(fromRows([[1, 1]])).indices)).toEqual([0]);
  });

  test('a missing value is imputed with the training mean of its feature', () => {
    const est = new NearestComparablesRegressor({ k: 5 }).fit(train.X, train.y);
    const mean = est.fitted_!.mean;
    const row = Array.from(train.X.data.subarray(0, train.X.cols));
    row[2] = NaN;
    const filled = row.map((v, j) => (Number.isNaN(v) ? mean[j] : v));
    expect(est.predict(fromRows([row]))[0]).toBe(est.predict(fromRows([filled]))[0]);
  });
});

describe('weighting', () => {
  const X = fromRows([[0], [1], [3], [6], [10]]);
  const y = Float64Array.from([0, 10, 30, 60, 100]);

  test("'uniform' averages the k targets; 'distance' weighs each by 1 / (distance + epsilon)", () => {
    const query = fromRows([[0.25]]);
    const uniform = new NearestComparablesRegressor({ k: 2, weighting: 'uniform' }).fit(X, y);
    expect(uniform.predict(query)[0]).toBeCloseTo(5, 9);
    const distance = new NearestComparablesRegressor({ k: 2, weighting: 'distance' }).fit(X, y);
    // distances 0.25 and 0.75 (in sd units; the ratio is what counts): weights 3 : 1
    expect(distance.predict(query)[0]).toBeCloseTo(2.5, 4);
    expect(DISTANCE_EPSILON).toBeLessThan(1e-5);
  });

  test("'distance' lets an exact match all but decide the prediction; 'uniform' does not", () => {
    const query = fromRows([[3]]);
    expect(new NearestComparablesRegressor({ k: 3, weighting: 'distance' }).fit(X, y).predict(query)[0]).toBeCloseTo(30, 3);
    // x = 0 and x = 6 are both 3 away: the tie goes to the lower row
    expect(new NearestComparablesRegressor({ k: 3, weighting: 'uniform' }).fit(X, y).predict(query)[0]).toBeCloseTo((30 + 10 + 0) / 3, 9);
  });

  test('sample weights multiply a comparable’s vote', () => {
    const w = Float64Array.from([3, 1, 1, 1, 1]);
    const est = new NearestComparablesRegressor({ k: 2, weighting: 'uniform' }).fit(X, y, { sampleWeight: w });
    expect(est.predict(fromRows([[0.25]]))[0]).toBeCloseTo((3 * 0 + 1 * 10) / 4, 9);
  });
});

describe('featureWeights', () => {
  // x0 and x1 on the same scale; A is near the query in x0, B in x1
  const X = fromRows([
    [0, 4], // A
    [4, 0], // B
    [8, 8],
    [-8, -8],
    [8, -8],
  ]);
  const y = Float64Array.from([100, 200, 300, 400, 500]);
  const query = fromRows([[0.2, 0.5]]);

  test('the nearest comparable changes with the weights', () => {
    const pick = (featureWeights: number[] | null) => new NearestComparablesRegressor({ k: 1, weighting: 'uniform', featureWeights }).fit(X, y).predict(query)[0];
    expect(pick([5, 1])).toBe(100);
    expect(pick([1, 5])).toBe(200);
    expect(pick([1, 0])).toBe(100);
    expect(pick([0, 1])).toBe(200);
  });

  test('down-weighting irrelevant features finds better comparables', () => {
    // y depends on x0 and x1 only; x2..x5 are noise with the same spread
    const rng = new Random(5);
    const sample = (rows: number) => {
      const data = Array.from({ length: rows }, () => Array.from({ length: 6 }, () => rng.next()));
      return { X: fromRows(data), y: Float64Array.from(data, (r) => Math.sin(6 * r[0]) + 2 * r[1] * r[1]) };
    };
    const fit = sample(2000);
    const test = sample(500);
    const score = (featureWeights: number[] | null) => r2(new NearestComparablesRegressor({ featureWeights }).fit(fit.X, fit.y).predict(test.X), test.y);
    const equal = score(null);
    const focused = score([1, 1, 0.1, 0.1, 0.1, 0.1]);
    // ~0.92 with equal weights, ~0.996 focused: the unexplained variance falls about twentyfold
    expect(focused).toBeGreaterThan(0.98);
    expect(1 - focused).toBeLessThan((1 - equal) / 5);
  });
});

test('on a nonlinear location surface comparables beat both the mean predictor and a linear model', () => {
  // price per m² peaks in two "centres" of a 2-D map; area and floor add a little
  const rng = new Random(9);
  const sample = (rows: number) => {
    const data = Array.from({ length: rows }, () => [rng.next() * 10, rng.next() * 10, 30 + rng.next() * 90, 1 + Math.floor(rng.next() * 16)]);
    const y = Float64Array.from(data, ([lat, lon, area, floor]) => {
      const centre = Math.exp(-((lat - 3) ** 2 + (lon - 3) ** 2) / 4) + 0.6 * Math.exp(-((lat - 7) ** 2 + (lon - 8) ** 2) / 3);
      return 7 + centre - 0.002 * area + 0.01 * Math.min(floor, 9) + 0.05 * (rng.next() - 0.5);
    });
    return { X: fromRows(data), y };
  };
  const fit = sample(3000);
  const test = sample(1000);
  const knn = r2(new NearestComparablesRegressor({ featureWeights: [1, 1, 0.3, 0.3] }).fit(fit.X, fit.y).predict(test.X), test.y);
  const ridge = r2(new RidgeRegression().fit(fit.X, fit.y).predict(test.X), test.y);
  expect(knn).toBeGreaterThan(0.9);
  expect(knn - ridge).toBeGreaterThan(0.3);
});

/** Listing-like features: few distinct values, so many comparables are exactly tied or at equal distances. */
function discrete(rows: number, seed: number): { X: Matrix; y: Float64Array } {
  const rng = new Random(seed);
  const levels = [5, 4, 7, 2, 3];
  const step = [1, 0.3, 10, 1, 2];
  const data = new Float64Array(rows * levels.length);
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < levels.length; j++) data[i * levels.length + j] = rng.next() < 0.1 ? NaN : Math.floor(rng.next() * levels[j]) * step[j];
    y[i] = 50_000 + 20_000 * rng.next();
  }
  return { X: { data, rows, cols: levels.length }, y };
}

const parityTrain = priced(3000, 101);
const parityHeld = priced(1500, 102);
// held-out rows, then 50 exact copies of training rows (distance 0, ties with nothing else), then a row with every feature missing
const parityX = concatRows(
  parityHeld.X,
  { data: parityTrain.X.data.slice(0, 50 * parityTrain.X.cols), rows: 50, cols: parityTrain.X.cols },
  { data: new Float64Array(parityTrain.X.cols).fill(NaN), rows: 1, cols: parityTrain.X.cols },
);
const tiedTrain = discrete(3000, 201);
const tiedHeld = discrete(1000, 202);

const PARITY: Array<[string, Partial<NearestComparablesParams>, { X: Matrix; y: Float64Array }, Matrix, Float64Array | null]> = [
  ['distance weighting', {}, parityTrain, parityX, null],
  ['uniform weighting', { weighting: 'uniform' }, parityTrain, parityX, null],
  ['k=1', { k: 1, weighting: 'uniform' }, parityTrain, parityX, null],
  [
    'feature and sample weights',
    { k: 7, featureWeights: [3, 3, 1, 1, 1, 0.5, 0.5, 0, 0, 0.2, 0, 0] },
    parityTrain,
    parityX,
    Float64Array.from(parityTrain.y, (_, i) => (i % 7 === 0 ? 0 : 1 + (i % 3))),
  ],
  ['discrete features with ties (uniform)', { weighting: 'uniform', featureWeights: [1, 2, 0.7, 1.5, 1] }, tiedTrain, tiedHeld.X, null],
  ['discrete features with ties (distance)', { featureWeights: [1, 2, 0.7, 1.5, 1] }, tiedTrain, tiedHeld.X, null],
];

describe.each(PARITY)('ONNX parity: NearestComparablesRegressor, %s', (_name, params, data, X, sampleWeight) => {
  test("onnxruntime's predictions match the trainer's within 1e-4 relative on held-out rows with NaN", async () => {
    const est = new NearestComparablesRegressor(params).fit(data.X, data.y, sampleWeight ? { sampleWeight } : undefined);
    const names = Array.from({ length: X.cols }, (_, j) => `f${j}`);
    const bytes = toOnnx(est, { featureNames: names });
    expect(readModelMetadata(bytes).props.model_family).toBe('nearest_comparables');
    const model = await OnnxModel.load(bytes);
    try {
      const expected = est.predict(X);
      const actual = await model.run(Float32Array.from(X.data), X.rows);
      expect(actual).toHaveLength(X.rows);
      const rowsWithNaN = Array.from({ length: X.rows }, (_, r) => r).filter((r) => X.data.subarray(r * X.cols, (r + 1) * X.cols).some(Number.isNaN));
      expect(rowsWithNaN.length).toBeGreaterThan(X.rows / 3);
      let worst = 0;
      expected.forEach((e, r) => {
        worst = Math.max(worst, Math.abs(actual[r] - e) / Math.abs(e));
      });
      // float32 targets and sums account for ~1e-7; a different neighbour would cost ~1e-2
      expect(worst).toBeLessThan(1e-4);
      expect(Math.max(...expected) - Math.min(...expected)).toBeGreaterThan(1000);
      // single-row requests take the GEMV path in onnxruntime: same answers
      for (const r of [0, 1, X.rows - 1]) {
        const [one] = await model.run(Float32Array.from(X.data.subarray(r * X.cols, (r + 1) * X.cols)), 1);
        expect(Math.abs(one - expected[r]) / Math.abs(expected[r])).toBeLessThan(1e-4);
      }
    } finally {
      await model.release();
    }
  });
});
