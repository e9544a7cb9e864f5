/**
 * The layering rules (issue 17), checked by `npm run layers` and by test/layering.test.ts in
 * `npm test`. Type-only imports vanish at compile time and are not counted
 * (tsPreCompilationDeps: false): the rules are about what a running process loads.
 */
/** Modules that train or export models: serving must never load them. */
const TRAINING = '^models/(trainers/(?!linalg\\.ts$|matrix\\.ts$)|onnx/|ensemble/(cross-fit|publish|weights|promotion)\\.ts$|[^/]+/train(-cli)?\\.ts$|train-cli\\.ts$)';
/** What a serving process starts from: the subgraphs, the gateway and the runtimes they load. */
const SERVING = '^(subgraphs/main\\.ts|subgraphs/batch/worker-main\\.ts|gateway/main\\.ts|gateway/stack\\.ts|models/[^/]+/(runtime|serving)\\.ts)$';

module.exports = {
  forbidden: [
    {
      name: 'models-stay-below-the-service',
      comment: 'models/ is the library the service uses: it imports nothing from gateway/ or subgraphs/.',
      severity: 'error',
      from: { path: '^models/' },
      to: { path: '^(gateway|subgraphs)/' },
    },
    {
      name: 'subgraphs-talk-through-the-graph',
      comment: 'A subgraph imports no other subgraph (only subgraphs/common) and not the gateway: they talk through GraphQL.',
      severity: 'error',
      from: { path: '^subgraphs/([^/]+)/' },
      to: { path: '^(subgraphs/|gateway/)', pathNot: ['^subgraphs/$1/', '^subgraphs/common/'] },
    },
    {
      name: 'service-uses-model-surfaces',
      comment:
        'The service reaches a model library through its public surface (models/<kind>/index.ts), or the light contract modules schema/ builds on (valuation types and constants, the vehicle vocabulary), never its internals. models/currency (issue 19: the USD/UZS rate table and the conversion of a valuation) is such a library: the service and schema/ reach it through models/currency/index.ts only.',
      severity: 'error',
      from: { path: '^(gateway|subgraphs|schema)/' },
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
    exclude: { path: '^(dist|node_modules|test|bench|dashboard)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: false,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
