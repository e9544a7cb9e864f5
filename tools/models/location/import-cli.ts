/**
 * Builds the location artifact (models/artifacts/location/layers.json).
 *
 *   node dist/tools/models/location/import-cli.js                 the shipped artifact: data/geo layers + listings
 *   node dist/tools/models/location/import-cli.js FILE... [opts]  the same plus FILEs, each a layer named after its file
 *   node dist/tools/models/location/import-cli.js --check         exit 1 if the committed artifact differs from a rebuild
 *
 * FILE: GeoJSON, Overpass JSON ({ elements: [...] }, `out center` for ways), a point CSV, or an OpenStreetMap
 * extract (.osm.pbf: nodes and ways classified by the tag table, relations not read; two streaming passes,
 * see ./osm-pbf.ts). Options apply to every FILE:
 *   --coverage city|partial        default partial: an import claims completeness only when told
 *   --complete-in DISTRICT,...     a partial layer complete inside these districts
 *   --licence TEXT                 default: what the file states (OSM exports: ODbL), else 'not stated'
 *   --note TEXT
 *   --category CATEGORY            every feature is this (a CSV without a Category column)
 *   --keep CATEGORY,...            classify only into these categories
 *   --out PATH                     default models/artifacts/location/layers.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../../models/paths';
import { DISTRICT_IDS, type DistrictId } from '../../../models/vocabulary';
import { DEFAULT_ARTIFACT_PATH, serialiseArtifact } from '../../../models/location/artifact';
import { buildShippedArtifact } from '../../../models/location/build';
import type { LayerCoverage, LayerSpec } from '../../../models/location/catalogue';
import { CATEGORIES, type Category } from '../../../models/location/categories';
import { UnsupportedLayerFormatError } from '../../../models/location/layers';
import { isOsmPbf, readOsmPbf } from '../../../models/location/osm-pbf';

class UsageError extends Error {}

function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`unknown ${what} "${value}": one of ${allowed.join(', ')}`);
  return value as T;
}

const list = (text: string | undefined): string[] => (text === undefined ? [] : text.split(',').map((s) => s.trim()).filter(Boolean));

/** bus_stops.geojson → bus_stops; tashkent.osm.json → tashkent. */
const layerId = (file: string): string => basename(file).replace(/\..*$/, '');

function importedLayers(files: readonly string[], values: Record<string, string | boolean | undefined>): LayerSpec[] {
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  const coverage = oneOf<LayerCoverage>(text('coverage') ?? 'partial', ['city', 'partial'], 'coverage');
  const completeIn = list(text('complete-in')).map((d) => oneOf<DistrictId>(d, DISTRICT_IDS, 'district'));
  const keep = list(text('keep')).map((c) => oneOf<Category>(c, CATEGORIES, 'category'));
  const category = text('category');
  const ids = files.map(layerId);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new UsageError(`two files would both be layer "${repeated}": rename one`);
  return files.map((file, i): LayerSpec => ({
    id: ids[i],
    file,
    coverage,
    note: text('note') ?? `imported from ${basename(file)}`,
    ...(text('licence') === undefined ? {} : { licence: text('licence') }),
    ...(completeIn.length === 0 ? {} : { completeIn }),
    ...(keep.length === 0 ? {} : { keep }),
    ...(category === undefined ? {} : { category: oneOf<Category>(category, CATEGORIES, 'category') }),
  }));
}

/**
 * OSM PBF files stream, so they are read here, before the (synchronous) build, which takes each one
 * as its spec's `preloaded` layer. One at a time: a city extract is tens of MB. The note says that
 * relations were not read, and how many of them the tag table would have classified.
 */
async function readPbfLayers(specs: readonly LayerSpec[]): Promise<LayerSpec[]> {
  const read: LayerSpec[] = [];
  for (const spec of specs) {
    if (!isOsmPbf(spec.file)) {
      read.push(spec);
      continue;
    }
    // Relative paths from the project root, as the build reads them.
    const layer = await readOsmPbf(isAbsolute(spec.file) ? spec.file : join(PROJECT_ROOT, spec.file), spec);
    const { nodes, ways, relations } = layer.read;
    console.log(`${basename(spec.file)}: read ${nodes} nodes, ${ways} ways, ${relations} relations; `
      + `${layer.wayNodes} way nodes located; ${layer.relationsNotRead} classified relations not read`);
    const relationNote = `OSM PBF: nodes and ways only, relations not read (${layer.relationsNotRead} would have been features)`;
    read.push({ ...spec, note: `${spec.note}; ${relationNote}`, preloaded: layer });
  }
  return read;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      coverage: { type: 'string' }, 'complete-in': { type: 'string' }, licence: { type: 'string' }, note: { type: 'string' },
      category: { type: 'string' }, keep: { type: 'string' }, out: { type: 'string' }, check: { type: 'boolean' },
    },
  });
  const out = values.out ?? DEFAULT_ARTIFACT_PATH;
  const artifact = buildShippedArtifact(await readPbfLayers(importedLayers(positionals, values)));
  const json = serialiseArtifact(artifact);

  if (values.check) {
    const committed = readFileSync(out, 'utf8');
    console.log(committed === json ? `${out} is up to date` : `${out} differs from a rebuild: run the import again and commit it`);
    return committed === json ? 0 : 1;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, json);
  for (const layer of artifact.layers) {
    const kept = Object.entries(layer.points).map(([category, n]) => `${category} ${n}`).join(', ') || 'nothing scored';
    console.log(`${layer.id}: ${layer.features} features → ${kept}; ${layer.skipped} skipped, ${layer.duplicates} duplicates; ${layer.coverage}`);
  }
  const listings = Object.values(artifact.listings.records).reduce((sum, n) => sum + (n ?? 0), 0);
  console.log(`listings: ${listings} at ${artifact.listings.points.length} points; districts: ${artifact.districts.districts.length}`);
  console.log(`wrote ${out} (${(Buffer.byteLength(json) / 1024).toFixed(0)} KiB)`);
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  if (!(error instanceof UsageError || error instanceof UnsupportedLayerFormatError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
});
