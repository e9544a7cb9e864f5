import { Root } from 'protobufjs';
import { ONNX_PROTO } from '../../models/onnx/onnx-proto';
import { toOnnx, toOnnxEnsemble, type EnsembleMember } from '../../models/onnx/registry';
import { OnnxModel } from '../../models/runtime/onnx-model';
import { readModelMetadata } from '../../models/runtime/onnx-metadata';
import {
  HistGradientBoostingRegressor,
  NearestComparablesRegressor,
  NotFittedError,
  RandomForestRegressor,
  RidgeRegression,
  makeFriedman1,
  type Matrix,
  type Regressor,
} from '../../models/trainers';
import { priced, withAllMissingRow } from '../support/estimator-checks';

const ModelProto = Root.fromJSON(ONNX_PROTO).lookupType('onnx.ModelProto');

interface DecodedModel {
  opset_import: { domain?: string; version: number }[];
  graph: {
    name: string;
    node: { name?: string; op_type: string; domain?: string; input?: string[]; output: string[] }[];
    initializer?: { name: string }[];
    input: { name: string; type: { tensor_type: { shape: { dim: { dim_value?: number; dim_param?: string }[] } } } }[];
    output: { name: string; type: { tensor_type: { shape: { dim: { dim_value?: number; dim_param?: string }[] } } } }[];
  };
  metadata_props: { key: string; value: string }[];
}

function decode(bytes: Uint8Array): DecodedModel {
  return ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: false }) as DecodedModel;
}

function rowsOf(X: Matrix, from: number, count: number): Matrix {
  return { data: X.data.slice(from * X.cols, (from + count) * X.cols), rows: count, cols: X.cols };
}

const train = priced(3000, 101);
const held = priced(1500, 102);
// held-out rows, then one with every feature missing
const heldX = withAllMissingRow(held.X);
const featureNames = Array.from({ length: train.X.cols }, (_, j) => `f${j}`);

// one of each family, plus a second GBDT fitted like the interval-scale model (small regularised trees on log |residual|)
const gbdt = new HistGradientBoostingRegressor({ maxIter: 150 }).fit(train.X, train.y);
const forest = new RandomForestRegressor({ nEstimators: 30, minSamplesLeaf: 2 }).fit(train.X, train.y);
const hedonic = new RidgeRegression({ alpha: 3 }).fit(train.X, train.y);
const comparables = new NearestComparablesRegressor().fit(train.X, train.y);
const gbdtFit = gbdt.predict(train.X);
const scale = new HistGradientBoostingRegressor({ learningRate: 0.05, maxIter: 150, maxLeafNodes: 8, minSamplesLeaf: 60, l2Regularization: 5, earlyStopping: false }).fit(
  train.X,
  train.y.map((v, i) => Math.log(Math.abs(v - gbdtFit[i]) + 1)),
);
const MEMBERS: readonly (EnsembleMember & { model: Regressor })[] = [
  { name: 'gbdt', model: gbdt },
  { name: 'forest', model: forest },
  { name: 'hedonic', model: hedonic },
  { name: 'comparables', model: comparables },
  { name: 'interval-scale', model: scale },
];
const NAMES = MEMBERS.map((m) => m.name);
const FAMILIES = ['hist_gradient_boosting', 'random_forest', 'ridge', 'nearest_comparables', 'hist_gradient_boosting'];

const ensembleBytes = toOnnxEnsemble(MEMBERS, { featureNames, metadata: { model_version: 'test', target: 'price_usd' } });
/** ensembleBytes decoded (seconds for the forest's trees), once for the tests that only read it. */
let decodedEnsemble: DecodedModel | undefined;
const ensembleModel = () => (decodedEnsemble ??= decode(ensembleBytes));
let ensemble: OnnxModel;
beforeAll(async () => {
  ensemble = await OnnxModel.load(ensembleBytes);
});
afterAll(async () => {
  await ensemble.release();
});

/** Worst |actual - expected| / |expected| of column j of a row-major [rows, width] output. */
function worstRelative(actual: Float32Array, width: number, j: number, expected: Float64Array): number {
  let worst = 0;
  expected.forEach((e, r) => {
    worst = Math.max(worst, Math.abs(actual[r * width + j] - e) / Math.abs(e));
  });
  return worst;
}

describe('toOnnxEnsemble', () => {
  test('writes one graph with input [N, F], output [N, M] and the ensemble metadata', () => {
    const model = ensembleModel();
    const dims = (v: DecodedModel['graph']['output'][number]) => v.type.tensor_type.shape.dim.map((d) => d.dim_value ?? d.dim_param);
    expect(model.graph.input.map((i) => i.name)).toEqual(['features']);
    expect(dims(model.graph.input[0])).toEqual(['N', 12]);
    expect(model.graph.output.map((o) => o.name)).toEqual(['prediction']);
    expect(dims(model.graph.output[0])).toEqual(['N', 5]);
    expect(model.graph.name).toBe('ensemble');
    const { producerName, props } = readModelMetadata(ensembleBytes);
    expect(producerName).toBe('tashkent-valuation');
    expect(props).toEqual({
      feature_names: JSON.stringify(featureNames),
      output_names: JSON.stringify(NAMES),
      member_families: JSON.stringify(FAMILIES),
      producer: 'tashkent-valuation',
      model_family: 'ensemble',
      model_version: 'test',
      target: 'price_usd',
    });
  });

  test('scopes every node, intermediate tensor and initializer by member name, all unique, and joins the members by one Concat', () => {
    const { graph } = ensembleModel();
    const nodeNames = graph.node.map((n) => n.name);
    const defined = [...(graph.initializer ?? []).map((t) => t.name), ...graph.node.flatMap((n) => n.output)];
    expect(nodeNames.every((n) => typeof n === 'string' && n.length > 0)).toBe(true);
    expect(new Set(nodeNames).size).toBe(nodeNames.length);
    expect(new Set(defined).size).toBe(defined.length);
    expect(defined).not.toContain('features');
    const inScope = (name: string) => NAMES.some((m) => name.startsWith(`${m}/`));
    expect(defined.filter((t) => t !== 'prediction').every(inScope)).toBe(true);
    expect(nodeNames.filter((n) => n !== 'concat_members').every((n) => inScope(n as string))).toBe(true);
    // e.g. the ridge's Imputer output, the comparables' initializers
    expect(defined).toEqual(expect.arrayContaining(['hedonic/imputed', 'hedonic/coef', 'comparables/comparables_t', 'comparables/mean', 'gbdt/prediction']));
    const last = graph.node[graph.node.length - 1];
    expect(last).toMatchObject({ name: 'concat_members', op_type: 'Concat', input: NAMES.map((m) => `${m}/prediction`), output: ['prediction'] });
    expect(graph.node.filter((n) => n.output.includes('prediction'))).toHaveLength(1);
    // every tensor read is the graph input or defined in the graph
    for (const n of graph.node) for (const i of n.input ?? []) expect(i === 'features' || defined.includes(i)).toBe(true);
  });

  test('imports exactly the opsets its members use (ai.onnx always, for Concat)', async () => {
    const domains = (model: DecodedModel) => model.opset_import.map((o) => [o.domain ?? '', o.version]);
    expect(domains(ensembleModel())).toEqual([['', 17], ['ai.onnx.ml', 3]]);
    const onlyComparables = toOnnxEnsemble([{ name: 'comparables', model: comparables }], { featureNames });
    expect(domains(decode(onlyComparables))).toEqual([['', 17]]);
    const onlyTrees = toOnnxEnsemble([{ name: 'gbdt', model: gbdt }, { name: 'forest', model: forest }], { featureNames });
    expect(domains(decode(onlyTrees))).toEqual([['', 17], ['ai.onnx.ml', 3]]);
    // and both load and run
    const row = Float32Array.from(heldX.data.subarray(0, heldX.cols));
    for (const bytes of [onlyComparables, onlyTrees]) {
      const model = await OnnxModel.load(bytes);
      try {
        expect(await model.run(row, 1)).toHaveLength(model.outputWidth);
      } finally {
        await model.release();
      }
    }
  });

  test('refuses duplicate or unusable member names, no members, mismatched widths, reserved metadata keys and models it cannot export', () => {
    expect(() => toOnnxEnsemble([{ name: 'gbdt', model: gbdt }, { name: 'gbdt', model: forest }], { featureNames })).toThrow(/used twice/);
    expect(() => toOnnxEnsemble([...MEMBERS, { name: 'forest', model: forest }], { featureNames })).toThrow(RangeError);
    expect(() => toOnnxEnsemble([], { featureNames })).toThrow(RangeError);
    for (const name of ['', 'a/b', 'with space', '-x']) expect(() => toOnnxEnsemble([{ name, model: gbdt }], { featureNames })).toThrow(RangeError);
    const six = makeFriedman1({ rows: 200, cols: 6, seed: 1 });
    const sixCols = new RidgeRegression().fit(six.X, six.y);
    expect(() => toOnnxEnsemble([{ name: 'gbdt', model: gbdt }, { name: 'small', model: sixCols }], { featureNames })).toThrow(/small/);
    expect(() => toOnnxEnsemble(MEMBERS, { featureNames: featureNames.slice(1) })).toThrow(RangeError);
    expect(() => toOnnxEnsemble(MEMBERS, { featureNames: [...featureNames.slice(1), 'f1'] })).toThrow(RangeError);
    for (const key of ['output_names', 'member_families', 'model_family', 'producer', 'feature_names']) {
      expect(() => toOnnxEnsemble(MEMBERS, { featureNames, metadata: { [key]: 'x' } })).toThrow(/reserved/);
    }
    expect(() => toOnnxEnsemble([{ name: 'x', model: new Date() }], { featureNames })).toThrow(TypeError);
    expect(() => toOnnxEnsemble([{ name: 'x', model: new HistGradientBoostingRegressor() }], { featureNames })).toThrow(NotFittedError);
  });
});

describe('OnnxModel with an ensemble file', () => {
  test('reports output width 5 and the member names', () => {
    expect(ensemble.inputWidth).toBe(12);
    expect(ensemble.outputWidth).toBe(5);
    expect(ensemble.outputNames).toEqual(NAMES);
    expect(Object.isFrozen(ensemble.outputNames)).toBe(true);
    expect(ensemble.featureNames).toEqual(featureNames);
    expect(ensemble.metadata.model_family).toBe('ensemble');
  });

  test("column j matches member j's trainer prediction within 1e-4 relative on held-out rows with NaN, in one call", async () => {
    const rowsWithNaN = Array.from({ length: heldX.rows }, (_, r) => r).filter((r) => heldX.data.subarray(r * heldX.cols, (r + 1) * heldX.cols).some(Number.isNaN));
    expect(rowsWithNaN.length).toBeGreaterThan(heldX.rows / 2);
    const out = await ensemble.run(Float32Array.from(heldX.data), heldX.rows);
    expect(out).toHaveLength(heldX.rows * 5);
    const columns = await ensemble.runColumns(Float32Array.from(heldX.data), heldX.rows);
    expect(columns).toHaveLength(5);
    MEMBERS.forEach((m, j) => {
      const expected = m.model.predict(heldX);
      expect(worstRelative(out, 5, j, expected)).toBeLessThan(1e-4);
      expect(columns[j]).toHaveLength(heldX.rows);
      columns[j].forEach((v, r) => expect(v).toBe(out[r * 5 + j]));
      // not trivially constant
      expect(Math.max(...expected) - Math.min(...expected)).toBeGreaterThan(j === 4 ? 0.1 : 1000);
    });
  });

  test('single-row calls (the GEMV path) give every member its own prediction too', async () => {
    for (const r of [0, 1, 17, heldX.rows - 1]) {
      const row = rowsOf(heldX, r, 1);
      const out = await ensemble.run(Float32Array.from(row.data), 1);
      expect(out).toHaveLength(5);
      MEMBERS.forEach((m, j) => {
        const [e] = m.model.predict(row);
        expect(Math.abs(out[j] - e) / Math.abs(e)).toBeLessThan(1e-4);
      });
    }
  });

  test('each member exported alone gives identical numbers to its ensemble column', async () => {
    const features = Float32Array.from(heldX.data);
    const columns = await ensemble.runColumns(features, heldX.rows);
    const one = Float32Array.from(heldX.data.subarray(0, heldX.cols));
    const firstRow = await ensemble.run(one, 1);
    for (const [j, m] of MEMBERS.entries()) {
      const single = await OnnxModel.load(toOnnx(m.model, { featureNames }));
      try {
        expect(single.outputWidth).toBe(1);
        expect(single.outputNames).toEqual([]);
        expect(await single.run(features, heldX.rows)).toEqual(columns[j]);
        expect((await single.run(one, 1))[0]).toBe(firstRow[j]);
      } finally {
        await single.release();
      }
    }
  });

  test('a one-member ensemble has outputWidth 1 and the member name', async () => {
    const model = await OnnxModel.load(toOnnxEnsemble([{ name: 'hedonic', model: hedonic }], { featureNames }));
    try {
      expect(model.outputWidth).toBe(1);
      expect(model.outputNames).toEqual(['hedonic']);
      const [p] = await model.run(Float32Array.from(heldX.data.subarray(0, 12)), 1);
      expect(Math.abs(p - hedonic.predict(rowsOf(heldX, 0, 1))[0]) / p).toBeLessThan(1e-4);
    } finally {
      await model.release();
    }
  });

  test('refuses a file whose output_names does not match its output width', async () => {
    const message = ModelProto.decode(ensembleBytes) as unknown as { metadata_props: { key: string; value: string }[] };
    const entry = message.metadata_props.find((p) => p.key === 'output_names');
    entry!.value = JSON.stringify(NAMES.slice(1));
    await expect(OnnxModel.load(ModelProto.encode(message).finish())).rejects.toThrow(/output_names/);
    entry!.value = JSON.stringify(['a', 'a', 'b', 'c', 'd']);
    await expect(OnnxModel.load(ModelProto.encode(message).finish())).rejects.toThrow(/output_names/);
  });
});
