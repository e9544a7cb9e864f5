/**
 * One ensemble session call against five single-model calls, and the file sizes: the five members
 * of test/models/onnx-ensemble.test.ts (GBDT, forest, ridge, nearest comparables and an
 * interval-scale GBDT, fitted on 3,000 priced Friedman #1 rows with 12 features) exported as one
 * graph with an [N, 5] output and as five single files, each called on 1 and on 1,000 rows.
 * Variants run round-robin so drift and GC affect all alike; the first 20 rounds warm up.
 * Run: npm run build && node dist/bench/models/onnx-ensemble.js
 */
import { performance } from 'node:perf_hooks';
import { toOnnx, toOnnxEnsemble, type EnsembleMember } from '../../models/onnx/registry';
import { OnnxModel } from '../../models/runtime/onnx-model';
import {
  HistGradientBoostingRegressor,
  NearestComparablesRegressor,
  RandomForestRegressor,
  RidgeRegression,
  makeFriedman1,
  type Regressor,
} from '../../models/trainers';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Price-like targets (USD) on Friedman #1 with 10% missing, as the test fits them. */
function priced(rows: number, seed: number) {
  const data = makeFriedman1({ rows, cols: 12, missingRate: 0.1, seed });
  return { X: data.X, y: data.y.map((v) => 40_000 + 2_500 * v) };
}

function members(): (EnsembleMember & { model: Regressor })[] {
  const train = priced(3000, 101);
  const gbdt = new HistGradientBoostingRegressor({ maxIter: 150 }).fit(train.X, train.y);
  const gbdtFit = gbdt.predict(train.X);
  const scale = new HistGradientBoostingRegressor({ learningRate: 0.05, maxIter: 150, maxLeafNodes: 8, minSamplesLeaf: 60, l2Regularization: 5, earlyStopping: false }).fit(
    train.X,
    train.y.map((v, i) => Math.log(Math.abs(v - gbdtFit[i]) + 1)),
  );
  return [
    { name: 'gbdt', model: gbdt },
    { name: 'forest', model: new RandomForestRegressor({ nEstimators: 30, minSamplesLeaf: 2 }).fit(train.X, train.y) },
    { name: 'hedonic', model: new RidgeRegression({ alpha: 3 }).fit(train.X, train.y) },
    { name: 'comparables', model: new NearestComparablesRegressor().fit(train.X, train.y) },
    { name: 'interval-scale', model: scale },
  ];
}

async function main(): Promise<void> {
  const fitted = members();
  const featureNames = Array.from({ length: 12 }, (_, j) => `f${j}`);
  const ensembleBytes = toOnnxEnsemble(fitted, { featureNames, metadata: { model_version: 'bench', target: 'price_usd' } });
  const singlesBytes = fitted.map((m) => toOnnx(m.model, { featureNames }));
  const ensemble = await OnnxModel.load(ensembleBytes);
  const singles = await Promise.all(singlesBytes.map((b) => OnnxModel.load(b)));
  try {
    for (const [rows, runs] of [
      [1, 2000],
      [1000, 200],
    ] as const) {
      const { X } = makeFriedman1({ rows, cols: 12, missingRate: 0.1, seed: 9 });
      const features = Float32Array.from(X.data);
      const variants: Record<string, () => Promise<unknown>> = {
        'ensemble, 1 call': () => ensemble.run(features, rows),
        '5 singles, sequential': async () => {
          for (const s of singles) await s.run(features, rows);
        },
        '5 singles, Promise.all (as serving did)': () => Promise.all(singles.map((s) => s.run(features, rows))),
      };
      const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
      for (let k = 0; k < runs + 20; k++) {
        for (const [name, run] of Object.entries(variants)) {
          const t0 = performance.now();
          await run();
          if (k >= 20) times[name].push((performance.now() - t0) * 1000);
        }
      }
      const base = median(times['ensemble, 1 call']);
      for (const [name, t] of Object.entries(times)) {
        const m = median(t);
        console.log(`${String(rows).padStart(5)} rows | ${name.padEnd(40)} | median ${m.toFixed(1).padStart(9)} us over ${runs} runs | ${(m / base).toFixed(2)}x the ensemble`);
      }
    }
  } finally {
    await Promise.all([ensemble, ...singles].map((m) => m.release()));
  }
  const sum = singlesBytes.reduce((n, b) => n + b.length, 0);
  console.log(`file size: ensemble ${ensembleBytes.length} bytes; five single files ${singlesBytes.map((b) => b.length).join(' + ')} = ${sum} bytes (ensemble - sum = ${ensembleBytes.length - sum})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
