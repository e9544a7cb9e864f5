/**
 * Measures the GBDT pipeline end to end on synthetic data: fit time (10,000 x 25, 300 trees, 31 leaves),
 * .onnx size, and onnxruntime latency for 1, 1,000 and 100,000 rows per call.
 * Run: npm run build && node dist/bench/models/onnx-inference.js
 */
import { performance } from 'node:perf_hooks';
import { OnnxModel } from '../../models/runtime/onnx-model';
import { HistGradientBoostingRegressor, makeFriedman1 } from '../../models/trainers';
import { toOnnx } from '../../models/onnx/registry';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeRuns(model: OnnxModel, rows: number, runs: number): Promise<number> {
  const { X } = makeFriedman1({ rows, cols: model.inputWidth, missingRate: 0.1, seed: 9 });
  const features = Float32Array.from(X.data);
  const times: number[] = [];
  for (let k = 0; k < runs + 3; k++) {
    const t0 = performance.now();
    await model.run(features, rows);
    if (k >= 3) times.push(performance.now() - t0);
  }
  return median(times);
}

async function main(): Promise<void> {
  const { X, y } = makeFriedman1({ rows: 10_000, cols: 25, missingRate: 0.1, seed: 1 });
  const fits: number[] = [];
  let est = new HistGradientBoostingRegressor();
  for (let k = 0; k < 3; k++) {
    est = new HistGradientBoostingRegressor({ maxIter: 300, maxLeafNodes: 31, earlyStopping: false });
    const t0 = performance.now();
    est.fit(X, y);
    fits.push(performance.now() - t0);
  }
  console.log(`fit 10,000 x 25, 300 trees: median ${median(fits).toFixed(0)} ms (runs: ${fits.map((t) => t.toFixed(0)).join(', ')})`);

  const t0 = performance.now();
  const bytes = toOnnx(est, { featureNames: Array.from({ length: 25 }, (_, j) => `f${j}`) });
  console.log(`export: ${(performance.now() - t0).toFixed(0)} ms, ${bytes.length} bytes (${(bytes.length / 1024).toFixed(0)} KiB)`);

  const model = await OnnxModel.load(bytes);
  try {
    console.log(`onnxruntime 1 row: median ${((await timeRuns(model, 1, 5000)) * 1000).toFixed(1)} us over 5000 runs`);
    console.log(`onnxruntime 1,000 rows: median ${(await timeRuns(model, 1000, 200)).toFixed(2)} ms over 200 runs`);
    console.log(`onnxruntime 100,000 rows: median ${(await timeRuns(model, 100_000, 10)).toFixed(0)} ms over 10 runs`);
  } finally {
    await model.release();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
