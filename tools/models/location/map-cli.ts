/**
 * Draws the location index as a map: Tashkent coloured by the composite score, a vega-lite spec
 * rendered to SVG (./map-render.ts).
 *
 *   node dist/tools/models/location/map-cli.js [--out docs/location-map.svg] [--width 720] [--cell 6] [--artifact PATH]
 *
 * --out       default docs/location-map.svg in the project
 * --width     width of the map area in pixels (default 720), rounded to whole cells; the height follows from the city's shape
 * --cell      cell side in pixels, each cell coloured by the score at its centre (default 6)
 * --artifact  default models/artifacts/location/layers.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../../models/paths';
import { DEFAULT_ARTIFACT_PATH, readArtifact } from '../../../models/location/artifact';
import { LocationIndex } from '../../../models/location/index';
import { renderLocationMap } from './map-render';

export const DEFAULT_MAP_PATH = join(PROJECT_ROOT, 'docs', 'location-map.svg');

function integer(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, width: { type: 'string' }, cell: { type: 'string' }, artifact: { type: 'string' } },
  });
  const started = process.hrtime.bigint();
  const artifact = readArtifact(values.artifact ?? DEFAULT_ARTIFACT_PATH);
  const index = LocationIndex.fromArtifact(artifact);
  const { svg, layout, stats, warnings } = await renderLocationMap(index, artifact, { width: integer(values.width, 720, 'width'), cell: integer(values.cell, 6, 'cell') });
  for (const warning of warnings) console.warn(`vega-lite: ${warning}`);
  const out = values.out === undefined ? DEFAULT_MAP_PATH : resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, svg);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const shown = relative(process.cwd(), out);
  console.log(`wrote ${shown.startsWith('..') ? out : shown}: map area ${layout.width}×${layout.height} px in ${layout.cell}-px cells, ${Buffer.byteLength(svg)} bytes, in ${ms.toFixed(0)} ms`);
  console.log(`${stats.scored} of ${stats.cells} cells scored (composite ${stats.min.toFixed(1)}–${stats.max.toFixed(1)}), ${stats.outside} outside the city`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  },
);
