/**
 * The subgraphs of the supergraph, one line each: the all-in-one start (gateway/stack.ts), the
 * standalone start (subgraphs/main.ts), the split gateway's URL variables, schema composition and
 * the tests all read this list. Adding a subgraph is one folder exporting `subgraph` (a
 * SubgraphModule, made by defineSubgraph in subgraphs/common/subgraph-factory.ts) and one line here. Each is loaded only when asked for, so a process that needs
 * one subgraph (or only the names) loads no other.
 */
import type { SubgraphModule } from '../platform/subgraph-module';

export interface SubgraphEntry {
  name: string;
  /** Its port when it runs alone (`<NAME>_PORT` overrides it); the gateway finds it at `<NAME>_URL`. */
  port: number;
  load(): Promise<SubgraphModule>;
}

/** In start order: a subgraph comes after those it calls. */
export const SUBGRAPHS = [
  { name: 'residential', port: 4001, load: async () => (await import('./residential')).subgraph },
  { name: 'location', port: 4002, load: async () => (await import('./location')).subgraph },
  { name: 'vehicle', port: 4003, load: async () => (await import('./vehicle')).subgraph },
  { name: 'batch', port: 4004, load: async () => (await import('./batch')).subgraph },
  { name: 'observations', port: 4005, load: async () => (await import('./observations')).subgraph },
  { name: 'valuations', port: 4006, load: async () => (await import('./valuations')).subgraph },
] as const satisfies readonly SubgraphEntry[];

export type SubgraphName = (typeof SUBGRAPHS)[number]['name'];

/** The variable holding a subgraph's URL where it runs apart from the gateway, e.g. BATCH_URL. */
export function urlVariable(name: string): string {
  return `${name.toUpperCase()}_URL`;
}

export function subgraphEntry(name: string): SubgraphEntry {
  const entry = SUBGRAPHS.find((s) => s.name === name);
  if (!entry) throw new Error(`no subgraph ${name} (${SUBGRAPHS.map((s) => s.name).join(', ')})`);
  return entry;
}
