/**
 * Writes models/vocabulary/mahallas.json, the mahalla gazetteer built by models/vocabulary/build-gazetteer.ts
 * (which says how), and prints the mahallas per district, the merged spellings and what was not found.
 * Run after the data snapshot changes: `node <outDir>/tools/models/vocabulary/build-gazetteer.js`.
 */
import { writeFileSync } from 'node:fs';
import { DISTRICT_IDS } from '../../../models/vocabulary/codes';
import { buildGazetteer, GAZETTEER_PATH } from '../../../models/vocabulary/build-gazetteer';

function main(): void {
  const { gazetteer, merged, unresolved } = buildGazetteer();
  writeFileSync(GAZETTEER_PATH, `${JSON.stringify(gazetteer, null, 2)}\n`);
  console.log(`${gazetteer.mahallas.length} mahallas → ${GAZETTEER_PATH}`);
  for (const d of DISTRICT_IDS) console.log(`  ${d}: ${gazetteer.mahallas.filter((m) => m.district === d).length}`);
  console.log(`merged by edit distance:\n  ${merged.join('\n  ') || '(none)'}`);
  console.log(`English-file mahallas not found in their district:\n  ${unresolved.join('\n  ') || '(none)'}`);
}

main();
