/** `npm run schema`: writes each subgraph's SDL as the code produces it, composes the supergraph, and writes the OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { composeSupergraph, emittedSdl } from './sdl';
import { OPENAPI_PATH, SUPERGRAPH_PATH } from '../platform/schema-files';
import { emittedOpenApi } from './openapi';
import { SUBGRAPHS } from './subgraphs';

async function main(): Promise<void> {
  for (const subgraph of SUBGRAPHS) {
    writeFileSync(subgraph.sdlPath, await emittedSdl(subgraph));
    console.log(`wrote ${subgraph.sdlPath}`);
  }
  writeFileSync(SUPERGRAPH_PATH, composeSupergraph());
  console.log(`wrote ${SUPERGRAPH_PATH}`);
  writeFileSync(OPENAPI_PATH, await emittedOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
