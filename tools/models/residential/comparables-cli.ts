/**
 * `npm run comparables`: writes models/artifacts/residential/comparables.json, the comparable
 * listings table (./comparables-writer.ts), from the listing files of the data snapshot, without
 * training. `npm run train` writes it too.
 */
import { writeComparables } from '../../../models/residential/comparables-writer';

if (require.main === module) {
  const started = Date.now();
  const written = writeComparables();
  console.log(`wrote ${written.path}: ${written.rows} flats, ${(written.bytes / 1024).toFixed(0)} KiB, data snapshot ${written.dataSnapshot}, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
