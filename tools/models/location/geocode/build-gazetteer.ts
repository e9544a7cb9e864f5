/**
 * Writes the geocoding gazetteer, models/artifacts/location/gazetteer.json, built by
 * models/location/geocode/build-gazetteer.ts (which says how), and prints what it holds.
 * Run after the data snapshot changes: tsc, then `node <outDir>/tools/models/location/geocode/build-gazetteer.js`.
 */
import { writeFileSync } from 'node:fs';
import { buildShippedGazetteer } from '../../../../models/location/geocode/build-gazetteer';
import { GAZETTEER_PATH, serialiseGazetteer } from '../../../../models/location/geocode/gazetteer-file';
import type { GazetteerMahalla, GazetteerPlace } from '../../../../models/location/geocode/types';

function main(): void {
  const gazetteer = buildShippedGazetteer();
  const text = serialiseGazetteer(gazetteer);
  writeFileSync(GAZETTEER_PATH, text);
  const count = (kind: GazetteerPlace['kind']) => gazetteer.places.filter((p) => p.kind === kind).length;
  const placed = (source: GazetteerMahalla['source']) => gazetteer.mahallas.filter((m) => m.source === source).length;
  console.log(`${count('street')} streets, ${count('quarter')} quarters and massifs`);
  console.log(`${gazetteer.mahallas.length} mahallas: ${placed('geocoded')} placed by geocoded listings, ${placed('co-named')} by co-named streets, ${placed(null)} without a centre`);
  console.log(`${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB → ${GAZETTEER_PATH}`);
}

main();
