/** `npm start`: the whole service in one process, on PORT (default 4000). */
import '../subgraphs/common/production-mode';
import { createFirstStartKey } from './auth/local-key';
import { gatewayConfigFromEnv } from './config';
import { startStack } from './stack';

const port = (variable: string) => (process.env[variable] ? Number(process.env[variable]) : 0);

async function main(): Promise<void> {
  const config = gatewayConfigFromEnv();
  const stack = await startStack({
    gateway: config,
    residentialPort: port('RESIDENTIAL_PORT'),
    locationPort: port('LOCATION_PORT'),
    vehiclePort: port('VEHICLE_PORT'),
  });
  // Before anything is printed: a stop asked for as soon as the service says it listens is a clean one.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stack.close().then(() => process.exit(0)));
  }
  const vehicleModel = stack.vehicleModelVersion ? `, vehicles ${stack.vehicleModelVersion}` : ', no vehicle model';
  console.log(`Valuation service ${stack.modelVersion}${vehicleModel} listening on ${stack.gateway.url}`);
  console.log(`  subgraphs: residential on ${stack.residential.url}, location on ${stack.location.url}, vehicle on ${stack.vehicle.url}; quotas ${config.redisUrl ? 'in Redis' : 'in process (REDIS_URL unset)'}`);
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
