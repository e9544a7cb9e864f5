import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Root } from 'protobufjs';
import { ONNX_PROTO } from '../../models/onnx/onnx-proto';
import { toOnnx } from '../../models/onnx/registry';
import { OnnxModel } from '../../models/runtime/onnx-model';
import { readModelMetadata } from '../../models/runtime/onnx-metadata';
import {
  HistGradientBoostingRegressor,
  NotFittedError,
  RandomForestRegressor,
  RidgeRegression,
  fromRows,
  makeFriedman1,
  type Matrix,
  type Regressor,
} from '../../models/trainers';
import { priced, withAllMissingRow } from '../support/estimator-checks';


const { X, y } = makeFriedman1({ rows: 500, cols: 6, missingRate: 0.1, seed: 7 });
const featureNames = ['area_m2', 'rooms', 'floor', 'floors_total', 'year_built', 'distance_km'];
const gbdt = new HistGradientBoostingRegressor({ maxIter: 20 }).fit(X, y);

describe('toOnnx', () => {
  test('writes feature names, producer, family and extra metadata_props', () => {
    const bytes = toOnnx(gbdt, { featureNames, metadata: { target: 'price_usd' } });
    const { producerName, props } = readModelMetadata(bytes);
    expect(producerName).toBe('tashkent-valuation');
    expect(props).toEqual({
      feature_names: JSON.stringify(featureNames),
      producer: 'tashkent-valuation',
      model_family: 'hist_gradient_boosting',
      target: 'price_usd',
    });
  });

  test('refuses unfitted models, unknown models, wrong feature names and reserved metadata keys', () => {
    expect(() => toOnnx(new RidgeRegression(), { featureNames })).toThrow(NotFittedError);
    expect(() => toOnnx(new Date(), { featureNames })).toThrow(TypeError);
    expect(() => toOnnx(gbdt, { featureNames: featureNames.slice(1) })).toThrow(RangeError);
    expect(() => toOnnx(gbdt, { featureNames: [...featureNames.slice(1), 'rooms'] })).toThrow(RangeError);
    expect(() => toOnnx(gbdt, { featureNames, metadata: { producer: 'someone else' } })).toThrow(RangeError);
  });
});

describe('OnnxModel', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'onnx-model-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('loads from a path and exposes width, feature names and metadata', async () => {
    const path = join(dir, 'gbdt.onnx');
    writeFileSync(path, toOnnx(gbdt, { featureNames, metadata: { snapshot: '2025-06' } }));
    const model = await OnnxModel.load(path);
    try {
      expect(model.inputWidth).toBe(6);
      expect(model.featureNames).toEqual(featureNames);
      expect(model.producerName).toBe('tashkent-valuation');
      expect(model.metadata.snapshot).toBe('2025-06');
      expect(model.metadata.model_family).toBe('hist_gradient_boosting');
      const row = fromRows([[0.5, 0.2, null, 0.9, 0.1, 0.3]]);
      const [p] = await model.run(Float32Array.from(row.data), 1);
      expect(p).toBeCloseTo(gbdt.predict(row)[0], 3);
    } finally {
      await model.release();
    }
  });

  test('checks the shape of what it is asked to run', async () => {
    const model = await OnnxModel.load(toOnnx(gbdt, { featureNames }));
    try {
      await expect(model.run(new Float32Array(5), 1)).rejects.toThrow(RangeError);
      await expect(model.run(new Float32Array(0), 0)).rejects.toThrow(RangeError);
      await expect(model.run(new Float32Array(12), 2)).resolves.toHaveLength(2);
    } finally {
      await model.release();
    }
  });

  test('rejects a model that does not follow the contract', async () => {
    // a valid ONNX model whose input is named 'x' instead of 'features'
    const ModelProto = Root.fromJSON(ONNX_PROTO).lookupType('onnx.ModelProto');
    const tensor = (name: string) => ({
      name,
      type: { tensor_type: { elem_type: 1, shape: { dim: [{ dim_param: 'N' }, { dim_value: 1 }] } } },
    });
    const bytes = ModelProto.encode(
      ModelProto.fromObject({
        ir_version: 8,
        opset_import: [{ domain: '', version: 17 }],
        graph: {
          name: 'identity',
          node: [{ op_type: 'Identity', input: ['x'], output: ['prediction'] }],
          input: [tensor('x')],
          output: [tensor('prediction')],
        },
      }),
    ).finish();
    await expect(OnnxModel.load(bytes)).rejects.toThrow(/features/);
  });
});


const train = priced(3000, 101);
const held = priced(1500, 102);
// held-out rows also include one with every feature missing
const heldX = withAllMissingRow(held.X);
const parityNames = Array.from({ length: train.X.cols }, (_, j) => `f${j}`);

const FAMILIES: Array<[string, () => Regressor]> = [
  ['HistGradientBoostingRegressor (squared error, 300 trees)', () => new HistGradientBoostingRegressor({ maxIter: 300 })],
  ['HistGradientBoostingRegressor (quantile 0.9)', () => new HistGradientBoostingRegressor({ loss: 'quantile', alpha: 0.9 })],
  ['HistGradientBoostingRegressor (depth-limited)', () => new HistGradientBoostingRegressor({ maxLeafNodes: null, maxDepth: 5 })],
  ['RandomForestRegressor', () => new RandomForestRegressor({ nEstimators: 30, minSamplesLeaf: 2 })],
  ['RandomForestRegressor (sqrt features)', () => new RandomForestRegressor({ nEstimators: 30, maxFeatures: 'sqrt' })],
  ['RidgeRegression', () => new RidgeRegression({ alpha: 3 })],
];

describe.each(FAMILIES)('ONNX parity: %s', (_name, make) => {
  test("onnxruntime's predictions match the trainer's within 1e-4 relative on held-out rows with NaN", async () => {
    const est = make().fit(train.X, train.y);
    const model = await OnnxModel.load(toOnnx(est, { featureNames: parityNames }));
    try {
      const expected = est.predict(heldX);
      const actual = await model.run(Float32Array.from(heldX.data), heldX.rows);
      expect(actual).toHaveLength(heldX.rows);
      const rowsWithNaN = Array.from({ length: heldX.rows }, (_, r) => r).filter((r) =>
        heldX.data.subarray(r * heldX.cols, (r + 1) * heldX.cols).some(Number.isNaN),
      );
      expect(rowsWithNaN.length).toBeGreaterThan(heldX.rows / 2);
      let worst = 0;
      expected.forEach((e, r) => {
        worst = Math.max(worst, Math.abs(actual[r] - e) / Math.abs(e));
      });
      expect(worst).toBeLessThan(1e-4);
      // and the model is not trivially constant
      expect(Math.max(...expected) - Math.min(...expected)).toBeGreaterThan(1000);
    } finally {
      await model.release();
    }
  });
});

/** The next float32 above v (v finite). */
function nextFloat32Up(v: number): number {
  const f = new Float32Array([v]);
  const bits = new Int32Array(f.buffer);
  if (v === 0) bits[0] = 1;
  else bits[0] += v > 0 ? 1 : -1;
  return f[0];
}

test('ONNX parity holds for values exactly at, just above and (in float64) just beside every split threshold', async () => {
  const est = new HistGradientBoostingRegressor({ maxIter: 50 }).fit(train.X, train.y);
  const cols = train.X.cols;
  const base = held.X.data.subarray(0, cols);
  const rows: number[] = [];
  for (const tree of est.fitted_!.trees) {
    tree.feature.forEach((f, node) => {
      const t = tree.threshold[node];
      if (f < 0 || !Number.isFinite(t)) return;
      // x == t goes left; the next float32 goes right; t + 1e-12 is a float64 that rounds to t in float32
      for (const v of [t, nextFloat32Up(t), t + 1e-12]) {
        const row = Array.from(base);
        row[f] = v;
        rows.push(...row);
      }
    });
  }
  const X: Matrix = { data: Float64Array.from(rows), rows: rows.length / cols, cols };
  const model = await OnnxModel.load(toOnnx(est, { featureNames: parityNames }));
  try {
    const expected = est.predict(X);
    const actual = await model.run(Float32Array.from(X.data), X.rows);
    expect(X.rows).toBeGreaterThan(1000);
    expected.forEach((e, r) => expect(Math.abs(actual[r] - e) / Math.abs(e)).toBeLessThan(1e-4));
  } finally {
    await model.release();
  }
});
