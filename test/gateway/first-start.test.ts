/**
 * `npm start` (dist/gateway/all-in-one.js) in a child process: the local key is created and printed
 * on the very first start only (no key file yet), never on a later start, and not when the key file
 * exists beforehand without a local organisation (made by the keys CLI for a bank).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStore } from '../../gateway/auth/key-store';
import { waitFor } from '../support/wait';

const ALL_IN_ONE = join(__dirname, '..', '..', 'gateway', 'all-in-one.js');
const KEY = /tvk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}/;

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'first-start-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Starts the service on a free port with `home` as VALUATION_HOME, stops it once it listens, and returns all it printed. */
async function startAndStop(): Promise<{ stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', VALUATION_HOME: home, APOLLO_TELEMETRY_DISABLED: '1' };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [ALL_IN_ONE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitFor(() => / listening on http:\/\//.test(stdout) || child.exitCode !== null, 45_000);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0); // a clean stop: everything it printed has been read
  expect(stdout).toMatch(/ listening on http:\/\//);
  return { stdout, stderr };
}

test('the first start prints the local key once; the second start prints no key', async () => {
  const first = await startAndStop();
  const printed = first.stdout.match(KEY)?.[0];
  expect(printed).toBeDefined();
  const keys = new KeyStore({ file: join(home, 'keys.json') });
  expect(keys.verify(printed!)).toMatchObject({ org: 'local', plan: 'development' });
  const file = readFileSync(keys.file, 'utf8');

  const second = await startAndStop();
  expect(second.stdout + second.stderr).not.toMatch(KEY);
  expect(second.stdout).not.toMatch(/API key/);
  expect(readFileSync(keys.file, 'utf8')).toBe(file); // no key created either
});

test('a key file made beforehand for a bank: no local key is created or printed', async () => {
  const keys = new KeyStore({ file: join(home, 'keys.json') });
  keys.create({ org: 'hamkorbank', plan: 'standard' });
  const file = readFileSync(keys.file, 'utf8');

  const { stdout, stderr } = await startAndStop();
  expect(stdout + stderr).not.toMatch(KEY);
  expect(readFileSync(keys.file, 'utf8')).toBe(file);
});

test('a port already taken is named by the variable that sets it, and the process exits 1 (issue 35)', async () => {
  const { createServer } = await import('node:net');
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', VALUATION_HOME: home, APOLLO_TELEMETRY_DISABLED: '1' };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, [ALL_IN_ONE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use (EADDRINUSE)`);
    expect(stderr).toContain('set PORT to a free port');
  } finally {
    taken.close();
  }
});
