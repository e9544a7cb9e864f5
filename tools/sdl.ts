/** Emitting subgraph SDL and composing the supergraph: shared by the build scripts and the drift test. */
import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { SUBGRAPHS, type SubgraphDefinition } from './subgraphs';

const GENERATED_HEADER = (what: string, how: string) =>
  `# GENERATED FILE, DO NOT EDIT: ${what}.\n# Rebuild with \`${how}\`.\n\n`;

export async function emittedSdl(subgraph: SubgraphDefinition): Promise<string> {
  return GENERATED_HEADER(`SDL of the ${subgraph.name} subgraph`, 'npm run schema') + printSubgraphSchema(await subgraph.build());
}

/** Composes the checked-in subgraph SDL files into the supergraph SDL; throws with every composition error. */
export function composeSupergraph(): string {
  const result = composeServices(
    SUBGRAPHS.map((s) => ({
      name: s.name,
      // All-in-one mode and standalone deployments override these URLs at run time.
      url: `http://127.0.0.1/${s.name}/graphql`,
      typeDefs: parse(readFileSync(s.sdlPath, 'utf8')),
    })),
  );
  if (result.errors) throw new Error(`supergraph composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  return GENERATED_HEADER('supergraph composed from schema/*.graphql by @apollo/composition', 'npm run build') + result.supergraphSdl;
}
