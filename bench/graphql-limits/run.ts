/**
 * How long the gateway spends on a client's document before it runs: the shape check of
 * gateway/graph/document-limits.ts on hostile documents (each must be refused well under 100 ms),
 * and GraphQL's full validation on the worst documents the check still lets through.
 *
 *   npm run build && node dist/bench/graphql-limits/run.js [--runs 21]
 *
 * Prints the median and the slowest of `runs` timings per document, in milliseconds.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { getIntrospectionQuery, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { checkDocument, DEFAULT_DOCUMENT_LIMITS } from '../../gateway/graph/document-limits';
import { SUPERGRAPH_PATH } from '../../platform/schema-files';
import { fragmentBomb } from '../../test/support/hostile-documents';
import { option } from '../cli';

const runs = Number(option('runs', '21'));

const HOSTILE: [string, string][] = [
  ['fragment bomb, 26 levels (1 KB)', fragmentBomb(26)],
  ['fragment bomb, 60 levels', fragmentBomb(60)],
  ['10,000 __typename aliases', `{ ${Array.from({ length: 10_000 }, (_, i) => `t${i}: __typename`).join(' ')} }`],
  ['4,999 tokens of one field', `{ ${'__typename '.repeat(4_997)} }`],
  ['1,200 × residentialModel { version }', `{ ${'residentialModel { version } '.repeat(1_200)} }`],
  ['nested duplicates, 5 per level', nestedDuplicates(5)],
  ['200 directives', `{ __typename ${'@include(if: true) '.repeat(200)} }`],
];

/** Documents at the limits that pass the check: GraphQL's own validation must stay cheap on them. */
const ACCEPTED: [string, string][] = [
  ['the standard introspection query', getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true })],
  ['30 duplicate fields (the limit)', `{ ${'residentialModel { districts { district metrics { n mape } } } '.repeat(31)} }`],
  ['50 aliases × 19 fields: 1,000 fields (the limit)', `{ ${Array.from({ length: 50 }, (_, i) => `m${i}: residentialModel { version trainedAt metrics { n mape r2 } districts { district accuracyClass metrics { n mape r2 } } featureImportance { feature importance } } `).join('')} }`],
  ['nested duplicates, 3 per level', nestedDuplicates(3)],
  ['50 aliases of homeValuation (the limit)', `query($i: HomeValuationInput!) { ${Array.from({ length: 50 }, (_, i) => `v${i}: homeValuation(input: $i) { estimate interval { low high } }`).join(' ')} }`],
];

/** `m` residentialModel, each with `m` districts, each with `m` metrics: every level repeats a response name `m` times. */
function nestedDuplicates(m: number): string {
  const repeat = (text: string) => Array.from({ length: m }, () => text).join(' ');
  return `{ ${repeat(`residentialModel { ${repeat(`districts { ${repeat('metrics { n }')} }`)} }`)} }`;
}

function time(fn: () => unknown): { median: number; max: number } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], max: samples[samples.length - 1] };
}

async function main(): Promise<void> {
  const gateway = new ApolloGateway({ supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8') });
  const { schema } = (await gateway.load()) as { schema: GraphQLSchema };
  console.log(`limits: ${JSON.stringify(DEFAULT_DOCUMENT_LIMITS)}; ${runs} runs each\n`);
  console.log('| hostile document | bytes | refused as | check median ms | check max ms |\n|---|---:|---|---:|---:|');
  for (const [name, source] of HOSTILE) {
    const errors = checkDocument(schema, source);
    const t = time(() => checkDocument(schema, source));
    console.log(`| ${name} | ${source.length} | ${errors[0]?.extensions.code ?? 'ACCEPTED (!)'} | ${t.median.toFixed(2)} | ${t.max.toFixed(2)} |`);
  }
  console.log('\n| accepted document | bytes | check median ms | GraphQL validation median ms | validation max ms |\n|---|---:|---:|---:|---:|');
  for (const [name, source] of ACCEPTED) {
    const errors = checkDocument(schema, source);
    if (errors.length) throw new Error(`${name} was refused: ${errors[0].message}`);
    const document = parse(source);
    const check = time(() => checkDocument(schema, source));
    const validation = time(() => validate(schema, document, specifiedRules));
    console.log(`| ${name} | ${source.length} | ${check.median.toFixed(2)} | ${validation.median.toFixed(2)} | ${validation.max.toFixed(2)} |`);
  }
  await gateway.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
