/**
 * Golden output of the batch path, to show that a change to the geocoder, the text normalisation or
 * the chunk processor changes no result: geocodes (answer or refusal, candidates and confidences
 * included), normalised spellings and address readings of every gazetteer place under each form of
 * its district's name, every distinct listing address (and its place text alone), and the string
 * literals of the geocoding and batch tests; then those addresses (plus malformed items and items
 * with homes) through the chunk processor, chunk after chunk as a worker takes them, and once more
 * in reverse chunk order (warm caches must give the cold answers).
 *
 *   node .build/perf/bench/batch/golden.js --out FILE [--root DIR]   # DIR: a compiled tree (default: this one)
 *        [--addresses-from GOLDEN.json]   # the addresses of an earlier recording (the tests' strings change as the tests do)
 *   node .build/perf/bench/batch/golden.js --compare A.json B.json   # deep-equal, section by section
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gazetteerBases, listingAddresses } from './addresses';
import { option } from '../cli';

/* eslint-disable @typescript-eslint/no-require-imports */
function load(root: string) {
  const from = <T>(path: string): T => require(resolve(root, path)) as T;
  return {
    geocodeModule: from<typeof import('../../models/location/geocode')>('models/location/geocode/index.js'),
    vocabulary: from<typeof import('../../models/vocabulary')>('models/vocabulary/index.js'),
    addressRead: from<typeof import('../../models/location/geocode/address-read')>('models/location/geocode/address-read.js'),
    placeParse: from<typeof import('../../models/location/geocode/place-parse')>('models/location/geocode/place-parse.js'),
    services: from<typeof import('../../subgraphs/location/services')>('subgraphs/location/services.js'),
    processor: from<typeof import('../../subgraphs/batch/processor')>('subgraphs/batch/processor.js'),
    location: from<typeof import('../../subgraphs/location')>('subgraphs/location/index.js'),
    locationContext: from<typeof import('../../subgraphs/location/context')>('subgraphs/location/context.js'),
    // A tree compiled before issue 36 has the graph client in subgraphs/common/.
    graphClient: from<typeof import('../../platform/graph-client')>(existsSync(resolve(root, 'platform/graph-client.js')) ? 'platform/graph-client.js' : 'subgraphs/common/graph-client.js'),
    scoring: from<typeof import('../../subgraphs/location/scoring')>('subgraphs/location/scoring.js'),
    paths: from<typeof import('../../models/paths')>('models/paths.js'),
  };
}

/** What a call gave: its value, or the error it threw (name, message and what the error carries). */
function outcome<T>(f: () => T): unknown {
  try {
    return { value: f() };
  } catch (error) {
    if (!(error instanceof Error)) return { thrown: String(error) };
    return { thrown: { name: error.name, message: error.message, ...Object.fromEntries(Object.entries(error)) } };
  }
}

/** Quoted string literals of a test source file that contain a letter: the addresses the tests geocode, among other things. */
function stringLiterals(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const m of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)) {
    const text = (m[1] ?? m[2]).replace(/\\(.)/g, '$1');
    if (/\p{L}/u.test(text) && text.length <= 300) found.add(text);
  }
  return [...found];
}

async function record(root: string, out: string): Promise<void> {
  const m = load(root);
  const projectRoot = m.paths.PROJECT_ROOT;
  const gazetteer = m.geocodeModule.loadGazetteer();

  // Every place (not only the well-listed ones) under each written form of its district, with and without a house number.
  const bases = gazetteerBases(gazetteer, 0);
  const forms = new Map(gazetteer.districts.map((d) => [d.id, d.names]));
  const placeForms: string[] = [];
  for (const p of gazetteer.places) {
    placeForms.push(p.name);
    for (const name of forms.get(p.district) ?? []) placeForms.push(`${name}, ${p.name}`, `город Ташкент, ${name}, ${p.name}, 7-uy`);
  }
  const listings = listingAddresses(m.paths.DATA_DIR);
  const placeTexts = listings.map((a) => a.split(',').slice(2).join(',').trim()).filter((t) => t !== '');
  const testStrings = ['test/models/geocode.test.ts', 'test/models/vocabulary.test.ts', 'test/gateway/location.test.ts', 'test/gateway/location-http.test.ts', 'test/gateway/location-subgraph.test.ts']
    .concat(['batch-graphql', 'batch-rest', 'batch-progress', 'webhooks'].map((f) => `test/batch/${f}.test.ts`))
    .flatMap((f) => {
      try {
        return stringLiterals(join(projectRoot, f));
      } catch {
        return [];
      }
    });
  const from = option('addresses-from');
  const addresses = from
    ? (JSON.parse(readFileSync(from, 'utf8')) as { addresses: string[] }).addresses
    : [...new Set([...placeForms, ...bases.map((b, i) => `${b}, ${1 + (i % 97)}-uy`), ...listings, ...placeTexts, ...testStrings])];
  if (from) console.error(`${addresses.length} addresses from ${from}`);
  else console.error(`${addresses.length} distinct addresses (${placeForms.length} place forms, ${listings.length} listing addresses, ${placeTexts.length} place texts, ${testStrings.length} test strings)`);

  const { normaliseText, spellingKey, matchDistrict, districtInAddress, matchMahalla } = m.vocabulary;
  const geocodes = addresses.map((a) => outcome(() => m.geocodeModule.geocode(a)));
  const words = addresses.map((a) => {
    const normalised = normaliseText(a);
    return {
      normalised,
      key: spellingKey(normalised),
      district: outcome(() => matchDistrict(a)),
      inAddress: outcome(() => districtInAddress(a)),
      mahalla: outcome(() => matchMahalla(a)),
      reading: outcome(() => m.addressRead.readAddress(a)),
      place: outcome(() => m.placeParse.readPlace(a)),
    };
  });

  // The chunk processor: bench-style items, every address, malformed items, and homes on every 7th item.
  const services = m.services.loadLocationServices();
  const home = { area: 65, rooms: 3, floor: 4, totalFloors: 9 };
  const items: unknown[] = [];
  for (let i = 0; i < 6000; i++) items.push({ address: `${bases[i % bases.length]}, ${1 + (i % 97)}-uy` });
  for (const [i, address] of addresses.entries()) items.push(i % 7 === 3 ? { address, home: { ...home, area: 30 + (i % 90) } } : { address });
  items.push({}, null, 12, { address: '' }, { address: ' ' }, { address: 'x'.repeat(1000) }, { address: 'Yunusobod 8 kvartal', home: { district: 'x' } },
    { address: 'Yunusobod 8 kvartal', home: { colour: 'red' } }, { address: 'Yunusobod 8 kvartal', home: { ...home, furniture: 'ha' } },
    { address: 'Yunusobod 8 kvartal', home: { ...home, furniture: 'maybe' } }, { address: 'Yunusobod 8 kvartal', home: [] },
    { address: 'Yunusobod 8 kvartal', home: { ...home, area: 13 } });
  // The location subgraph answers in process, as in all-in-one mode.
  const locationSchema = await m.location.buildLocationSchema();
  const processChunk = m.processor.createChunkProcessor({
    location: m.graphClient.inProcessGraphClient({ schema: locationSchema, context: () => m.locationContext.createLocationContext(services) }),
    // Echoes the input, and refuses area 13: shows which input each item sent and that errors come back to the right item.
    residential: {
      request: async <T>(_query: string, variables: Record<string, unknown>) =>
        ({
          homeValuations: (variables.inputs as Record<string, unknown>[]).map((input) =>
            input.area === 13 ? { valuation: null, error: { code: 'INVALID_PARAMETER', message: 'unlucky', field: 'area' } } : { valuation: { echo: input }, error: null },
          ),
        }) as T,
    },
  });
  const CHUNK = 1000;
  const chunks: unknown[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) chunks.push(items.slice(i, i + CHUNK));
  const context = (chunkIndex: number) => ({ jobId: 'golden', organisation: 'golden', chunkIndex, firstIndex: chunkIndex * CHUNK, attempt: 1 });
  const processed: unknown[] = [];
  for (const [c, chunk] of chunks.entries()) processed.push(...(await processChunk(chunk, context(c))));
  const again: unknown[][] = new Array(chunks.length);
  for (let c = chunks.length - 1; c >= 0; c--) again[c] = [...(await processChunk(chunks[c], context(c)))];
  const repeatable = isDeepStrictEqual(JSON.parse(JSON.stringify(again.flat())), JSON.parse(JSON.stringify(processed)));
  console.error(`processor: ${items.length} items in ${chunks.length} chunks; a second pass in reverse chunk order gives ${repeatable ? 'the same' : 'DIFFERENT'} results`);

  // Full scores of the geocoded points (what scorePoints gives, before the processor picks from it).
  const points = geocodes.flatMap((g) => ('value' in (g as object) ? [(g as { value: { lat: number; lon: number } }).value] : []));
  const scores = m.scoring.scorePoints(services.index, points.filter((_, i) => i % 5 === 0));

  writeFileSync(out, JSON.stringify({ addresses, geocodes, words, processed, scores, repeatable }));
  console.error(`wrote ${out}`);
}

function compare(a: string, b: string): void {
  const [left, right] = [a, b].map((f) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown[]>);
  let same = true;
  for (const section of Object.keys(left)) {
    const [l, r] = [left[section], right[section]];
    if (isDeepStrictEqual(l, r)) {
      console.log(`${section}: identical${Array.isArray(l) ? ` (${l.length})` : ''}`);
      continue;
    }
    same = false;
    if (!Array.isArray(l) || !Array.isArray(r)) {
      console.log(`${section}: DIFFERS: ${JSON.stringify(l)} vs ${JSON.stringify(r)}`);
      continue;
    }
    const differing = l.map((_, i) => i).filter((i) => !isDeepStrictEqual(l[i], r[i]));
    console.log(`${section}: DIFFERS at ${differing.length} of ${l.length} (lengths ${l.length}, ${r.length})`);
    for (const i of differing.slice(0, 3)) console.log(`  [${i}] ${JSON.stringify(left.addresses?.[i] ?? '')}\n    ${JSON.stringify(l[i]).slice(0, 600)}\n    ${JSON.stringify(r[i]).slice(0, 600)}`);
  }
  console.log(same ? 'SAME' : 'DIFFERENT');
  if (!same) process.exitCode = 1;
}

const compared = process.argv.indexOf('--compare');
if (compared >= 0) compare(process.argv[compared + 1], process.argv[compared + 2]);
else {
  const out = option('out');
  if (!out) throw new Error('--out FILE (or --compare A B)');
  record(option('root') ?? join(__dirname, '..', '..'), out).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
