/**
 * Location index speed: one score in microseconds, 10,000 in well under a second. Measured in a
 * child Node process: Jest's sandbox runs trigonometry 10–20× slower than Node itself, which would
 * measure the sandbox rather than what serving sees.
 */
import { execFileSync } from 'node:child_process';

const INDEX_MODULE = require.resolve('../../models/location');

/** Fixed-seed points over the city's bounding box, kept when a district holds them; then a warm-up and a timed batch. */
const BENCHMARK = `
const { LocationIndex } = require(${JSON.stringify(INDEX_MODULE)});
let start = performance.now();
const index = LocationIndex.load();
const loadMs = performance.now() - start;
let seed = 1;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const points = [];
while (points.length < 10000) {
  const point = { lat: 41.17 + random() * 0.23, lon: 69.12 + random() * 0.36 };
  if (index.districtOf(point.lat, point.lon) !== null) points.push(point);
}
index.scoreMany(points.slice(0, 1000));
start = performance.now();
const scores = index.scoreMany(points);
const batchMs = performance.now() - start;
start = performance.now();
for (let i = 0; i < 1000; i++) index.score(points[i].lat, points[i].lon);
const singleMicros = ((performance.now() - start) * 1000) / 1000; // µs per call over 1,000 calls
console.log(JSON.stringify({ loadMs, batchMs, singleMicros, scored: scores.length }));
`;

test('loading takes milliseconds, one score microseconds, 10,000 scores well under a second', () => {
  const { loadMs, batchMs, singleMicros, scored } = JSON.parse(execFileSync(process.execPath, ['-e', BENCHMARK], { encoding: 'utf8' }));
  console.log(`load ${loadMs.toFixed(1)} ms; score ${singleMicros.toFixed(1)} µs each; scoreMany(10,000) ${batchMs.toFixed(0)} ms`);
  expect(scored).toBe(10_000);
  expect(loadMs).toBeLessThan(1_000);
  expect(singleMicros).toBeLessThan(100); // ~15 µs on a laptop core
  expect(batchMs).toBeLessThan(1_000); // ~130–180 ms; loose for busy runners
});
