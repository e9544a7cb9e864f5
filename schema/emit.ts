/** `npm run schema`: writes each subgraph's SDL as the code produces it, then composes the supergraph. */
import { writeFileSync } from 'node:fs';
import { composeSupergraph, emittedSdl } from './sdl';
import { SUBGRAPHS, SUPERGRAPH_PATH } from './subgraphs';

async function main(): Promise<void> {
  for (const subgraph of SUBGRAPHS) {
    writeFileSync(subgraph.sdlPath, await emittedSdl(subgraph));
    console.log(`wrote ${subgraph.sdlPath}`);
  }
  writeFileSync(SUPERGRAPH_PATH, composeSupergraph());
  console.log(`wrote ${SUPERGRAPH_PATH}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
