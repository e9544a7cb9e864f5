// Hive Gateway's configuration for bench/peers/run.ts (plain JavaScript: the root tsconfig compiles
// every .ts file under bench/, and this file must not import the peer packages into the service's
// build). The runner passes it with `-c`; `--hive-router-runtime` on the command line switches to the
// Hive Router runtime (the Rust query planner from @graphql-hive/router-runtime), this file stays.
//
// BENCH_SUBGRAPH_HEADERS (JSON object): the headers the service's gateway sends every subgraph call
// (internal token, organisation, plan, request id; gateway/graph/subgraph-data-source.ts), so that
// the subgraphs do the same work for both gateways (valuations recorded for the organisation).

const subgraphHeaders = JSON.parse(process.env.BENCH_SUBGRAPH_HEADERS ?? '{}');

export const gatewayConfig = {
  // Each client request is its own subgraph call, as in the service's gateway (which deduplicates
  // nothing): Hive's default deduplication would merge the benchmark's identical concurrent requests.
  transportEntries: {
    '*.http': { options: { deduplicateInflightRequests: false } },
  },
  propagateHeaders: {
    fromClientToSubgraphs: () => subgraphHeaders,
  },
  // No landing page or GraphiQL work on the measured path (it serves POST only anyway).
  graphiql: false,
  landingPage: false,
};
