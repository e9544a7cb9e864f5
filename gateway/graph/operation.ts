/**
 * What a door hands the graph to run: the graph (./apollo.ts) executes it, the executor
 * (./executor.ts) runs it as a caller. Apart from both, which each need it.
 */

/** A GraphQL operation; `owner` names the subgraph owning every field, when one does. */
export interface Operation {
  query: string;
  owner?: string;
}
