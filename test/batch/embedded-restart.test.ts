/**
 * `npm start` without Redis keeps batch jobs under VALUATION_HOME (issue 35, item 3): a job
 * submitted, completed, and read again after the service is stopped and started on the same home
 * has its status and results; the start-up line says where jobs are kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until, waitFor } from '../support/wait';

const ALL_IN_ONE = join(__dirname, '..', '..', 'gateway', 'all-in-one.js');
const KEY = /tvk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}/;

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'embedded-restart-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Starts the service on a free port with `home`; resolves once it listens, with its URL and what it printed. */
async function start(): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', VALUATION_HOME: home, APOLLO_TELEMETRY_DISABLED: '1' };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [ALL_IN_ONE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await waitFor(() => / listening on http:\/\//.test(stdout) || child.exitCode !== null, 45_000);
  const url = stdout.match(/listening on (http:\/\/[^\s]+)/)![1];
  return { child, url, stdout: () => stdout };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('a batch job and its results are still there after a restart on the same home', async () => {
  const first = await start();
  // The local key is printed once the service listens, on its first start only.
  await waitFor(() => KEY.test(first.stdout()), 10_000);
  const key = first.stdout().match(KEY)![0];
  expect(first.stdout()).toContain(`jobs in ${join(home, 'batch', 'jobs.ndjson')}`);
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const submitted = await fetch(`${first.url}/api/batch`, { method: 'POST', headers, body: JSON.stringify({ items: [{ address: 'Chilonzor tumani, Qatortol MFY', reference: 'LOAN-1' }, { address: 'qwzx blorf', reference: 'LOAN-2' }] }) });
  expect(submitted.status).toBe(202);
  const { id } = (await submitted.json()) as { id: string };
  const job = await until(async () => (await (await fetch(`${first.url}/api/batch/${id}`, { headers })).json()) as { status: string }, (j) => j.status === 'completed', 30_000);
  const results = await (await fetch(`${first.url}/api/batch/${id}/results`, { headers })).text();
  await stop(first.child);

  const second = await start();
  try {
    const again = (await (await fetch(`${second.url}/api/batch/${id}`, { headers })).json()) as Record<string, unknown>;
    expect(again).toEqual(job);
    expect(await (await fetch(`${second.url}/api/batch/${id}/results`, { headers })).text()).toBe(results);
    expect(results).toContain('"reference":"LOAN-2"');
  } finally {
    await stop(second.child);
  }
});
