/** Build step: composes the checked-in subgraph SDL into schema/supergraph.graphql (the gateway's static supergraph). */
import { writeFileSync } from 'node:fs';
import { composeSupergraph } from './sdl';
import { SUPERGRAPH_PATH } from '../platform/schema-files';

try {
  writeFileSync(SUPERGRAPH_PATH, composeSupergraph());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
