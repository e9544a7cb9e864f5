/** The residential subgraph as a service: `start(config)` (all-in-one mode and ./main.ts use it). */
import type { ResidentialRuntime } from '../../models/residential/valuation';
import { serveSubgraph, type RunningService } from '../common/serve';
import { createResidentialContext, type ResidentialContext } from './context';
import { instrumentRuntime } from './instrument';
import { buildResidentialSchema } from './schema';

export { buildResidentialSchema } from './schema';

export interface ResidentialConfig {
  /** @default '127.0.0.1' */
  host: string;
  /** @default 4001 (0 picks a free port) */
  port: number;
  /** Shared secret the gateway sends; requests without it get 401. */
  internalToken: string;
  /** @default false */
  introspection: boolean;
}

export function residentialConfigFromEnv(env: NodeJS.ProcessEnv = process.env): Omit<ResidentialConfig, 'internalToken'> & { internalToken?: string } {
  return {
    host: env.RESIDENTIAL_HOST ?? '127.0.0.1',
    port: env.RESIDENTIAL_PORT ? Number(env.RESIDENTIAL_PORT) : 4001,
    internalToken: env.INTERNAL_TOKEN,
    introspection: env.INTROSPECTION === 'true',
  };
}

export async function start(config: ResidentialConfig, runtime: ResidentialRuntime): Promise<RunningService> {
  const schema = await buildResidentialSchema();
  const instrumented = instrumentRuntime(runtime);
  return serveSubgraph<ResidentialContext>({
    name: 'residential',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    // Fresh DataLoaders and model snapshot per request: they must not outlive it.
    context: () => createResidentialContext(instrumented),
  });
}
