/** The checked-in SDL and supergraph must be what the code produces (run `npm run schema` after changing a subgraph). */
import { readFileSync } from 'node:fs';
import { composeSupergraph, emittedSdl } from '../../tools/sdl';
import { OPENAPI_PATH, SUPERGRAPH_PATH } from '../../platform/schema-files';
import { SUBGRAPHS } from '../../tools/subgraphs';
import { emittedOpenApi } from '../../tools/openapi';

describe.each(SUBGRAPHS.map((s) => [s.name, s] as const))('%s subgraph', (_name, subgraph) => {
  it('checked-in SDL equals the SDL the code emits', async () => {
    expect(readFileSync(subgraph.sdlPath, 'utf8')).toBe(await emittedSdl(subgraph));
  });
});

it('the checked-in supergraph is the composition of the checked-in SDL', () => {
  expect(readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(composeSupergraph());
});

it('the checked-in OpenAPI document is what the route modules describe', async () => {
  expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(await emittedOpenApi());
});
