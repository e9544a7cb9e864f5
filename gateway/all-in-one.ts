/** `npm start`: the whole service in one process, on PORT (default 4000). */
import '../platform/production-mode';
import { createFirstStartKey } from './auth/local-key';
import { SUBGRAPHS } from '../subgraphs/registry';
import { gatewayConfigFromEnv } from './config';
import { startStack } from './stack';

async function main(): Promise<void> {
  const config = gatewayConfigFromEnv();
  const stack = await startStack({
    gateway: config,
    // <NAME>_PORT pins a subgraph's loopback port; unset, any free one.
    ports: Object.fromEntries(SUBGRAPHS.map(({ name }) => [name, Number(process.env[`${name.toUpperCase()}_PORT`] ?? 0)])),
  });
  // Before anything is printed: a stop asked for as soon as the service says it listens is a clean one.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stack.close().then(() => process.exit(0)));
  }
  const vehicleModel = stack.vehicleModelVersion ? `, vehicles ${stack.vehicleModelVersion}` : ', no vehicle model';
  console.log(`Valuation service ${stack.modelVersion}${vehicleModel} listening on ${stack.gateway.url}`);
  console.log(`  subgraphs: ${stack.subgraphs.map((s) => `${s.name} on ${s.url}${s.summary ? ` (${s.summary})` : ''}`).join(', ')}; quotas ${config.redisUrl ? 'in Redis' : 'in process (REDIS_URL unset)'}`);
  const records = config.databaseUrl ? 'in PostgreSQL (DATABASE_URL)' : config.redisUrl ? 'in Redis (REDIS_URL; DATABASE_URL unset)' : 'in files under VALUATION_HOME (DATABASE_URL and REDIS_URL unset)';
  console.log(`  valuation records and observations: ${records}`);
  const created = createFirstStartKey(stack.gateway.keys);
  if (created) {
    console.log(`\nA local organisation "${created.record.org}" (plan ${created.record.plan}) was created. Its API key, shown only this once:\n\n  ${created.key}\n`);
    console.log(`Try it:\n  curl -s ${stack.gateway.url}/api/predict/home -H 'Content-Type: application/json' -H 'X-API-Key: ${created.key}' \\\n    -d '{"district":"Chilanzar","mahalla":"Qatortol","area":65,"rooms":3,"floor":4,"total_floors":9,"renovation":"Evro","qurilish_turi":"G\\u0027ishtli","mebel":"ha","sanuzel":"alohida"}'\n`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
