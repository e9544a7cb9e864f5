/**
 * The attack bench's server process (./run.ts): the whole service all-in-one, with the shipped
 * plans (the attacks run at the rate a plan allows, so no bench plan here), and the keys of the
 * two organisations: A, the attacker, on each plan, and B, the bank whose valuations are timed.
 * It reports the URL and keys to the parent over IPC, so the load runs in another process and the
 * parent reads this process's RSS.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';

const home = mkdtempSync(join(tmpdir(), 'bench-attacks-'));
process.env.VALUATION_HOME = home;
process.env.APOLLO_TELEMETRY_DISABLED = '1';
process.env.NODE_ENV ??= 'production'; // as the entry points run (platform/production-mode.ts)
// The shipped plans for A, and for B one no sequential client can exhaust (its requests are what is timed).
process.env.PLANS_FILE = join(home, 'plans.json');
const unlimited = { perMinute: 1_000_000_000, perDay: 1_000_000_000 };
writeFileSync(process.env.PLANS_FILE, JSON.stringify({
  ...JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8')),
  'bench-bank': { quota: unlimited, valuations: unlimited, maxBatchItems: 1000, batchItemsPerDay: 1_000_000_000 },
}));

export interface AttackServer {
  gateway: string;
  /** Organisation A's keys by plan (one organisation per plan, so that their allowances stay apart). */
  attacker: Record<'pilot' | 'standard' | 'enterprise', string>;
  /** Organisation B's key (a plan it cannot exhaust). */
  bank: string;
}

async function main(): Promise<void> {
  // Imported after the environment is set: the plans and key store read it at load.
  const { gatewayConfigFromEnv } = await import('../../gateway/config');
  const { startStack } = await import('../../gateway/stack');
  const stack = await startStack({ gateway: { ...gatewayConfigFromEnv(), host: '127.0.0.1', port: 0, redisUrl: process.env.BENCH_REDIS_URL } });
  const run = `${process.pid}`;
  const key = (org: string, plan: string) => stack.gateway.keys.create({ org: `${org}-${run}`, plan }).key;
  const server: AttackServer = {
    gateway: stack.gateway.url,
    attacker: { pilot: key('attacker-pilot', 'pilot'), standard: key('attacker-standard', 'standard'), enterprise: key('attacker-enterprise', 'enterprise') },
    bank: key('bank-b', 'bench-bank'),
  };
  process.send!(server);
  process.on('message', async (message) => {
    if (message === 'stop') {
      await stack.close();
      process.exit(0);
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
