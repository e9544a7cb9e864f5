/**
 * Session calls asked for together go as one (models/runtime/coalesced-runs.ts, issue 34 item 1):
 * each caller gets exactly its own rows, a failing joined call fails only the bad run, and the real
 * ONNX model answers the same joined as alone.
 */
import { toOnnx } from '../../models/onnx/registry';
import { CoalescedRuns, type RunRows } from '../../models/runtime/coalesced-runs';
import { OnnxModel } from '../../models/runtime/onnx-model';
import { HistGradientBoostingRegressor, makeFriedman1 } from '../../models/trainers';

/** A model of 2 inputs and 2 outputs per row: [a + b, a × b]; rows with a NaN fail the whole call. */
function fakeSession(): { run: RunRows; calls: number[] } {
  const calls: number[] = [];
  const run: RunRows = async (features, rows) => {
    calls.push(rows);
    if (features.some(Number.isNaN)) throw new Error('NaN in the input');
    const out = new Float32Array(rows * 2);
    for (let r = 0; r < rows; r++) {
      out[r * 2] = features[r * 2] + features[r * 2 + 1];
      out[r * 2 + 1] = features[r * 2] * features[r * 2 + 1];
    }
    return out;
  };
  return { run, calls };
}

test('runs asked for in one turn go as one call, and each caller gets its own rows', async () => {
  const session = fakeSession();
  const runs = new CoalescedRuns(session.run, 2, 2);
  const answers = await Promise.all([runs.run(Float32Array.of(1, 2), 1), runs.run(Float32Array.of(3, 4, 5, 6), 2), runs.run(Float32Array.of(7, 8), 1)]);
  expect(session.calls).toEqual([4]);
  expect(answers.map((a) => [...a])).toEqual([[3, 2], [7, 12, 11, 30], [15, 56]]);
});

test('runs asked for while a call is under way wait for it, then go together', async () => {
  const session = fakeSession();
  const runs = new CoalescedRuns(session.run, 2, 2);
  const first = runs.run(Float32Array.of(1, 1), 1);
  await new Promise((resolve) => setImmediate(resolve)); // the first call is now in flight
  const later = [runs.run(Float32Array.of(2, 2), 1), runs.run(Float32Array.of(3, 3), 1)];
  await Promise.all([first, ...later]);
  expect(session.calls).toEqual([1, 2]);
});

test('a joined call that fails is run again run by run: only the bad caller fails', async () => {
  const session = fakeSession();
  const runs = new CoalescedRuns(session.run, 2, 2);
  const settled = await Promise.allSettled([runs.run(Float32Array.of(1, 2), 1), runs.run(Float32Array.of(Number.NaN, 2), 1), runs.run(Float32Array.of(2, 2), 1)]);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect([...(settled[2] as PromiseFulfilledResult<Float32Array>).value]).toEqual([4, 4]);
  expect(session.calls).toEqual([3, 1, 1, 1]);
});

test('no call joins more than maxRows rows; a larger run goes alone, whole', async () => {
  const session = fakeSession();
  const runs = new CoalescedRuns(session.run, 2, 2, 3);
  await Promise.all([runs.run(new Float32Array(4), 2), runs.run(new Float32Array(4), 2), runs.run(new Float32Array(10), 5)]);
  expect(session.calls).toEqual([2, 2, 5]);
});

test('the ONNX model answers concurrent runs, joined, as it answers each alone', async () => {
  const { X, y } = makeFriedman1({ rows: 400, cols: 5, missingRate: 0.1, seed: 3 });
  const model = await OnnxModel.load(toOnnx(new HistGradientBoostingRegressor({ maxIter: 30 }).fit(X, y), { featureNames: ['a', 'b', 'c', 'd', 'e'] }));
  try {
    const rows = Array.from({ length: 20 }, (_, i) => Float32Array.from(X.data.slice(i * 5 * (1 + (i % 3)), (i * 5 * (1 + (i % 3))) + 5 * (1 + (i % 3)))));
    const alone: Float32Array[] = [];
    for (const [i, features] of rows.entries()) alone.push(await model.run(features, 1 + (i % 3)));
    const together = await Promise.all(rows.map((features, i) => model.run(features, 1 + (i % 3))));
    expect(together.map((t) => [...t])).toEqual(alone.map((a) => [...a]));
  } finally {
    await model.release();
  }
});
