/**
 * Organisation B of the attack bench (./run.ts), on a worker thread of its own so that the attacks'
 * client work (building 50 MB bodies) never delays its timings: sequential POST /api/predict/home,
 * one after another, each kept as (status, milliseconds). The parent takes what was measured since
 * its last take ('take' → the samples).
 */
import { parentPort, workerData } from 'node:worker_threads';

export interface BankSample {
  status: number;
  ms: number;
}

const { url, key, body } = workerData as { url: string; key: string; body: string };
let samples: BankSample[] = [];
let running = true;

parentPort!.on('message', (message: string) => {
  if (message === 'take') {
    parentPort!.postMessage(samples);
    samples = [];
  } else if (message === 'stop') {
    running = false;
  }
});

async function loop(): Promise<void> {
  while (running) {
    const started = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${url}/api/predict/home`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body, signal: AbortSignal.timeout(120_000) });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0; // no answer (reset, timeout)
    }
    samples.push({ status, ms: performance.now() - started });
  }
  process.exit(0);
}

void loop();
