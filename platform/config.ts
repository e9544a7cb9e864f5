/** Configuration every subgraph service takes, read from `<NAME>_HOST`, `<NAME>_PORT`, INTERNAL_TOKEN, INTROSPECTION. */
export interface SubgraphConfig {
  /** @default '127.0.0.1' */
  host: string;
  /** 0 picks a free port; the default is per subgraph (residential 4001, location 4002). */
  port: number;
  /** Shared secret the gateway sends; requests without it get 401. */
  internalToken: string;
  /** @default false */
  introspection: boolean;
}

export function subgraphConfigFromEnv(name: string, defaultPort: number, env: NodeJS.ProcessEnv = process.env): Omit<SubgraphConfig, 'internalToken'> & { internalToken?: string } {
  const prefix = name.toUpperCase();
  return {
    host: env[`${prefix}_HOST`] ?? '127.0.0.1',
    port: env[`${prefix}_PORT`] ? Number(env[`${prefix}_PORT`]) : defaultPort,
    internalToken: env.INTERNAL_TOKEN,
    introspection: env.INTROSPECTION === 'true',
  };
}
