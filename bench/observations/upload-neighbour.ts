/**
 * Issue 33, finding 2: what one bank's large observation upload does to another bank's valuations.
 * The real gateway and subgraphs in this process (test/support/stack.ts); an enterprise key uploads
 * `--rows` NDJSON observations in one POST /api/observations while a key of another
 * organisation values one flat after another, as it did alone just before (the baseline).
 *
 *   npm run build && APOLLO_TELEMETRY_DISABLED=1 node dist/bench/observations/upload-neighbour.js [--rows 100000] [--baseline 200]
 *
 * Prints the neighbour's median, p99 and max in ms, alone and during the upload, the upload's
 * time, and the process's RSS before and after (with the observations now kept, per observation).
 */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { startTestStack } from '../../test/support/stack';
import { option } from '../cli';

const ROWS = Number(option('rows', '100000'));
const BASELINE = Number(option('baseline', '200'));

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `n ${sorted.length}, median ${at(0.5).toFixed(1)}, p99 ${at(0.99).toFixed(1)}, max ${sorted[sorted.length - 1].toFixed(1)}`;
}

async function main(): Promise<void> {
  const stack = await startTestStack({ checkResponses: false });
  const uploader = stack.newKey('enterprise');
  const neighbour = stack.newKey('enterprise'); // its 6,000 requests a minute outlast the upload
  const value = async () => {
    const start = performance.now();
    const response = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': neighbour });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`valuation: HTTP ${response.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < 20; i++) await value(); // warm-up
  const alone: number[] = [];
  for (let i = 0; i < BASELINE; i++) alone.push(await value());

  const today = new Date().toISOString().slice(0, 10);
  const lines = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ kind: 'home', district: 'Chilanzar', area: 40 + (i % 80), rooms: 1 + (i % 4), floor: 1 + (i % 9), total_floors: 9, market: 'resale', price_usd: 45_000 + (i % 80) * 900, observed_at: today, reference: `b-${i}` })).join('\n');
  const rssBefore = process.memoryUsage().rss;
  let uploading = true;
  const started = performance.now();
  const upload = stack.fetch('/api/observations', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': uploader }, body: lines })
    .then(async (response) => {
      const body = (await response.json()) as { accepted?: number; rejected_count?: number; error?: { code: string } };
      return { status: response.status, body, seconds: (performance.now() - started) / 1000 };
    })
    .finally(() => (uploading = false));
  const during: number[] = [];
  while (uploading) during.push(await value());
  const uploaded = await upload;
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;

  console.log(`rows ${ROWS.toLocaleString('en')}: HTTP ${uploaded.status}, accepted ${uploaded.body.accepted ?? uploaded.body.error?.code}, rejected ${uploaded.body.rejected_count ?? '-'}, ${uploaded.seconds.toFixed(1)} s`);
  console.log(`neighbour alone (ms):          ${summary(alone)}`);
  console.log(`neighbour during upload (ms):  ${summary(during)}`);
  console.log(`RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB → ${(rssAfter / 2 ** 20).toFixed(0)} MB: ${((rssAfter - rssBefore) / ROWS).toFixed(0)} bytes per observation kept (the file store holds each in memory)`);
  await stack.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
