/**
 * Runs one subgraph alone, e.g. behind a load balancer: `node dist/subgraphs/main.js <name>`
 * (residential, location, vehicle, batch) with INTERNAL_TOKEN, `<NAME>_PORT` and `<NAME>_HOST`, and
 * the URL of each subgraph it calls in `<NAME>_URL` (batch calls location, residential and vehicle).
 */
import '../platform/production-mode';
import { subgraphConfigFromEnv } from '../platform/config';
import { httpGraphClient } from '../platform/graph-client';
import { subgraphEntry, urlVariable } from './registry';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) throw new Error('usage: node dist/subgraphs/main.js <subgraph name>');
  const entry = subgraphEntry(name);
  const config = subgraphConfigFromEnv(entry.name, entry.port);
  const internalToken = config.internalToken;
  if (!internalToken) throw new Error('INTERNAL_TOKEN must be set: the gateway sends it with every call');
  const subgraph = await entry.load();
  const peers = Object.fromEntries(
    (subgraph.calls ?? []).map((peer) => {
      const url = process.env[urlVariable(peer)];
      if (!url) throw new Error(`${urlVariable(peer)} must be set: ${name} calls the ${peer} subgraph (e.g. http://127.0.0.1:${subgraphEntry(peer).port}/graphql)`);
      return [peer, httpGraphClient({ url, internalToken })];
    }),
  );
  const service = await subgraph.start({
    config: { ...config, internalToken },
    env: process.env,
    mode: 'alone',
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    redisTimeoutMs: process.env.REDIS_TIMEOUT_MS ? Number(process.env.REDIS_TIMEOUT_MS) : undefined,
    peers,
    overrides: {},
    log: (message) => console.error(`[${name}] ${message}`),
  });
  console.log(`${name} subgraph${service.summary ? ` (${service.summary})` : ''} listening on ${service.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void service.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
