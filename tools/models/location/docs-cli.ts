/**
 * Regenerates the tables of docs/LOCATION_INDEX.md from the parameters and the committed artifact:
 *   node dist/tools/models/location/docs-cli.js
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readArtifact } from '../../../models/location/artifact';
import { LocationIndex } from '../../../models/location/index';
import { fillGeneratedSections, generatedSections, LOCATION_DOC_PATH } from '../../../models/location/report';

const artifact = readArtifact();
const updated = fillGeneratedSections(readFileSync(LOCATION_DOC_PATH, 'utf8'), generatedSections(LocationIndex.fromArtifact(artifact), artifact));
writeFileSync(LOCATION_DOC_PATH, updated);
console.log(`updated ${LOCATION_DOC_PATH}`);
