/**
 * The generated parts of docs/LOCATION_INDEX.md: the parameter table, the composite weights, the layer
 * coverage and the scores of a few well-known places, rendered from the code and the artifact so the
 * document cannot drift from what the index does (a test compares them).
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths';
import { DISTRICT_NAMES } from '../vocabulary';
import type { LayersArtifact } from './artifact';
import { CITY_CENTRE, LOCATION_PARAMETERS, SUBINDEXES, type ComponentParameters } from './parameters';
import type { LocationIndex } from './index';
import type { SubindexScore } from './types';

export const LOCATION_DOC_PATH = join(PROJECT_ROOT, 'docs', 'LOCATION_INDEX.md');

/** Well-known places for the example table: the centre, a metro neighbourhood, the bazaar, outskirts. */
export const REFERENCE_PLACES: readonly { name: string; lat: number; lon: number }[] = [
  { name: CITY_CENTRE.name, lat: CITY_CENTRE.lat, lon: CITY_CENTRE.lon },
  { name: 'Mirabad, cafe cluster near Oybek metro', lat: 41.302, lon: 69.27 },
  { name: 'Chorsu bazaar', lat: 41.3278521, lon: 69.2251963 },
  { name: 'Chilonzor metro', lat: 41.274359, lon: 69.2049735 },
  { name: 'Yunusobod metro', lat: 41.3668411, lon: 69.2923003 },
  { name: 'Bektemir, district centre', lat: 41.2545, lon: 69.374 },
  { name: 'Sergeli, southern edge', lat: 41.2, lon: 69.26 },
];

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
const table = (header: readonly string[], rows: readonly (readonly (string | number)[])[]): string =>
  [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');

function componentFeature(component: ComponentParameters): string {
  switch (component.kind) {
    case 'centre': return `distance to ${CITY_CENTRE.name}`;
    case 'listings': return 'geocoded listings (count)';
    case 'nearest': return component.category;
  }
}

function componentWeights(component: ComponentParameters): string {
  switch (component.kind) {
    case 'centre': return String(component.weight);
    case 'listings': return `${component.perListing} per listing`;
    case 'nearest': return component.rankWeights.join(' / ');
  }
}

export function parameterTable(): string {
  const rows = SUBINDEXES.flatMap((id) => LOCATION_PARAMETERS[id].components.map((c) => [
    id, componentFeature(c), c.dFull, c.dZero, componentWeights(c), c.required ? 'yes' : 'no', c.why,
  ]));
  return table(['subindex', 'feature', 'd_full m', 'd_zero m', 'weights (1st / 2nd / …)', 'required', 'why'], rows);
}

export function subindexTable(): string {
  const rows = SUBINDEXES.map((id) => {
    const { compositeWeight, saturation, why } = LOCATION_PARAMETERS[id];
    return [id, compositeWeight.toFixed(2), saturation, why];
  });
  return table(['subindex', 'composite weight', 'saturation', 'why'], rows);
}

export function coverageTable(artifact: LayersArtifact): string {
  const rows = artifact.layers.map((layer) => [
    layer.id,
    `\`${layer.file}\``,
    layer.features,
    Object.entries(layer.points).map(([category, n]) => `${category} ${n}`).join(', '),
    layer.completeIn === undefined ? layer.coverage : `${layer.coverage} (complete in ${layer.completeIn.map((d) => DISTRICT_NAMES[d]).join(', ')})`,
    layer.licence,
    layer.note,
  ]);
  const listings = artifact.listings;
  const records = Object.values(listings.records).reduce((sum, n) => sum + (n ?? 0), 0);
  rows.push(['listings', `ingestListings() (${listings.snapshot})`, records, `${listings.points.length} distinct points`, listings.coverage, listings.licence, listings.note]);
  return table(['layer', 'source', 'features', 'points kept', 'coverage', 'licence', 'note'], rows);
}

/** A score with its coverage: 83.3 (complete), 25.0* (partial data), — (no data). */
function shown(subindex: SubindexScore): string {
  if (subindex.score === null) return '—';
  return `${subindex.score.toFixed(1)}${subindex.complete ? '' : '*'}`;
}

export function referenceScoresTable(index: LocationIndex): string {
  const rows = REFERENCE_PLACES.map((place) => {
    const result = index.score(place.lat, place.lon);
    const composite = result.composite.score === null ? '—' : `${result.composite.score.toFixed(1)}${result.composite.complete ? '' : '*'}`;
    return [place.name, `${place.lat}, ${place.lon}`, result.district, composite, ...SUBINDEXES.map((id) => shown(result.subindexes[id]))];
  });
  return table(['place', 'lat, lon', 'district', 'composite', ...SUBINDEXES], rows);
}

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` for each section. */
export function fillGeneratedSections(document: string, sections: Readonly<Record<string, string>>): string {
  return Object.entries(sections).reduce((doc, [name, content]) => {
    const start = `<!-- generated:${name} -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = doc.indexOf(start);
    const to = doc.indexOf(end);
    if (from < 0 || to < from) throw new Error(`the document has no ${start} … ${end} section`);
    return `${doc.slice(0, from + start.length)}\n${content}\n${doc.slice(to)}`;
  }, document);
}

export function generatedSections(index: LocationIndex, artifact: LayersArtifact): Record<string, string> {
  return {
    subindexes: subindexTable(),
    parameters: parameterTable(),
    coverage: coverageTable(artifact),
    examples: referenceScoresTable(index),
  };
}
