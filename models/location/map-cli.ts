/**
 * Draws the location index as a map: Tashkent coloured by the composite score (./map-render.ts).
 *
 *   node dist/models/location/map-cli.js [--out docs/location-map.png] [--width 900] [--cell 3] [--artifact PATH]
 *
 * --out       default docs/location-map.png in the project
 * --width     image width in pixels (default 900); the height follows from the city's shape
 * --cell      cell side in pixels, each cell coloured by the score at its centre (default 3)
 * --artifact  default models/artifacts/location/layers.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../paths';
import { DEFAULT_ARTIFACT_PATH, readArtifact } from './artifact';
import { LocationIndex } from './index';
import { renderLocationMap } from './map-render';

export const DEFAULT_MAP_PATH = join(PROJECT_ROOT, 'docs', 'location-map.png');

function integer(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return value;
}

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, width: { type: 'string' }, cell: { type: 'string' }, artifact: { type: 'string' } },
  });
  const started = process.hrtime.bigint();
  const artifact = readArtifact(values.artifact ?? DEFAULT_ARTIFACT_PATH);
  const index = LocationIndex.fromArtifact(artifact);
  const { png, layout, stats } = renderLocationMap(index, artifact, { width: integer(values.width, 900, 'width'), cell: integer(values.cell, 3, 'cell') });
  const out = values.out === undefined ? DEFAULT_MAP_PATH : resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, png);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const shown = relative(process.cwd(), out);
  console.log(`wrote ${shown.startsWith('..') ? out : shown}: ${layout.width}×${layout.height} px, ${png.length} bytes, in ${ms.toFixed(0)} ms`);
  console.log(`${stats.scored} of ${stats.cells} cells scored (composite ${stats.min.toFixed(1)}–${stats.max.toFixed(1)}), ${stats.outside} outside the city`);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
}
