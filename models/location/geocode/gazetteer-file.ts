/** The committed gazetteer artifact: where it lives, what it was built from, how it is written and read. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR, DATA_DIR, PROJECT_ROOT } from '../../paths';
import { DISTRICTS_FILE } from '../districts';
import type { CoNamedAddresses } from './co-named';
import type { GeocodedFile } from './geocoded-listings';
import type { GazetteerFile } from './types';

export const GAZETTEER_PATH = join(ARTIFACTS_DIR, 'location', 'gazetteer.json');
/** The vocabulary's mahalla gazetteer: its ids are the mahallas listed here. */
const MAHALLAS_FILE = 'models/vocabulary/mahallas.json';

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

export function gazetteerSources(geocoded: GeocodedFile, coNamed: CoNamedAddresses): GazetteerFile['sources'] {
  return [
    { file: geocoded.path, sha256: geocoded.sha256 },
    ...coNamed.sources,
    { file: `data/${DISTRICTS_FILE}`, sha256: sha256(join(DATA_DIR, DISTRICTS_FILE)) },
    { file: MAHALLAS_FILE, sha256: sha256(join(PROJECT_ROOT, MAHALLAS_FILE)) },
  ];
}

/** JSON with one district, place or mahalla per line: compact, and a rebuild diffs line by line. */
export function serialiseGazetteer(gazetteer: GazetteerFile): string {
  const list = (items: readonly unknown[]) => `[\n${items.map((item) => `    ${JSON.stringify(item)}`).join(',\n')}\n  ]`;
  return [
    '{',
    `  "generated": ${JSON.stringify(gazetteer.generated)},`,
    `  "sources": ${list(gazetteer.sources)},`,
    `  "districts": ${list(gazetteer.districts)},`,
    `  "places": ${list(gazetteer.places)},`,
    `  "mahallas": ${list(gazetteer.mahallas)}`,
    '}',
    '',
  ].join('\n');
}

export function loadGazetteer(path: string = GAZETTEER_PATH): GazetteerFile {
  return JSON.parse(readFileSync(path, 'utf8')) as GazetteerFile;
}
