/**
 * The layering rules (issues 17 and 36), checked by `npm run layers` and by test/layering.test.ts in
 * `npm test`; docs/ARCHITECTURE.md, "The rules `npm run layers` enforces", says why. The floors, from
 * the ground: schema/ → models/ → platform/ → subgraphs/ → gateway/ → tools/. A floor imports only
 * from the floors below it, and no module takes part in an import cycle. Type-only imports count
 * (tsPreCompilationDeps: true): a type is a dependency on the module that owns it, even when the
 * compiled code does not load it.
 */
/** Modules that train or export models: serving must never load them. */
const TRAINING = '^models/(trainers/(?!linalg\\.ts$|matrix\\.ts$)|onnx/|ensemble/(cross-fit|publish|weights|promotion)\\.ts$|[^/]+/train(-cli)?\\.ts$|train-cli\\.ts$)';
/** What a serving process starts from: the subgraphs, the gateway and the runtimes they load. */
const SERVING = '^(subgraphs/main\\.ts|subgraphs/batch/worker-main\\.ts|gateway/main\\.ts|gateway/stack\\.ts|models/[^/]+/(runtime|serving)\\.ts)$';

module.exports = {
  forbidden: [
    {
      name: 'schema-imports-nothing',
      comment: 'schema/ holds the pure contracts every floor reads: it imports nothing of the project outside schema/.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^(models|platform|subgraphs|gateway|tools|bench|test)/' },
    },
    {
      name: 'models-import-only-schema',
      comment: 'models/ is the library the service uses: it imports only schema/ (and itself), nothing from the floors above.',
      severity: 'error',
      from: { path: '^models/' },
      to: { path: '^(platform|subgraphs|gateway|tools|bench|test)/' },
    },
    {
      name: 'platform-stays-below-the-service',
      comment: 'platform/ is what every service process shares (serving, listening, Redis, plans, the graph client): it imports schema/ and models/, never a subgraph, the gateway or tools.',
      severity: 'error',
      from: { path: '^platform/' },
      to: { path: '^(subgraphs|gateway|tools|bench|test)/' },
    },
    {
      name: 'subgraphs-talk-through-the-graph',
      comment: 'A subgraph imports no other subgraph (only subgraphs/common), not the gateway and not tools: subgraphs talk through GraphQL (platform/graph-client.ts).',
      severity: 'error',
      from: { path: '^subgraphs/([^/]+)/' },
      to: { path: '^(subgraphs/|gateway/|tools/|bench/|test/)', pathNot: ['^subgraphs/$1/', '^subgraphs/common/'] },
    },
    {
      name: 'subgraph-runners-stay-below-the-gateway',
      comment: 'The files at the root of subgraphs/ (the registry, the one-subgraph runner) import no gateway and no tools.',
      severity: 'error',
      from: { path: '^subgraphs/[^/]+$' },
      to: { path: '^(gateway|tools|bench|test)/' },
    },
    {
      name: 'gateway-imports-no-tools',
      comment: 'The gateway is the top floor of the service: build scripts and CLIs in tools/ may import it, not the other way round.',
      severity: 'error',
      from: { path: '^gateway/' },
      to: { path: '^(tools|bench|test)/' },
    },
    {
      name: 'doors-share-only-operations',
      comment: 'The REST routes (gateway/rest/) and the MCP tools (gateway/mcp/) import nothing of each other, in either direction: what both doors do (persisted operations, body → variables, the snake_case replies and their schemas) lives in gateway/operations/.',
      severity: 'error',
      from: { path: '^gateway/(rest|mcp)/' },
      to: { path: '^gateway/(rest|mcp)/', pathNot: '^gateway/$1/' },
    },
    {
      name: 'operations-stay-below-the-doors',
      comment: 'gateway/operations/ is door-neutral: it imports no door (gateway/rest/, gateway/mcp/), which would tie one door to the other.',
      severity: 'error',
      from: { path: '^gateway/operations/' },
      to: { path: '^gateway/(rest|mcp)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included: two modules that need each other share a type or value that belongs in a module both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-uses-model-surfaces',
      comment:
        'The service reaches a model library through its public surface (models/<kind>/index.ts), or the light contract modules (valuation types and constants, the vehicle vocabulary), never its internals; the model tools (tools/models/: training, card, ingestion and location CLIs) and the model cards (tools/cards/) are the command lines and documents of those libraries and may. models/currency (issue 19: the USD/UZS rate table and the conversion of a valuation) is such a library: the service reaches it through models/currency/index.ts only.',
      severity: 'error',
      from: { path: '^(gateway|subgraphs|platform|tools)/', pathNot: '^tools/(models|cards)/' },
      to: { path: '^models/(residential|vehicle|house|ensemble|currency)/', pathNot: ['^models/(residential|vehicle|house|ensemble)/index\\.ts$', '^models/currency/index\\.ts$', '^models/(residential|vehicle)/valuation\\.ts$', '^models/vehicle/vocabulary/'] },
    },
    {
      name: 'serving-loads-no-trainer',
      comment: 'A serving process never loads a trainer, the ONNX writers or training code, not even through another module.',
      severity: 'error',
      from: { path: SERVING },
      to: { path: TRAINING, reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|test|bench)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
