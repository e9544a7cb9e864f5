/**
 * Name matching speed: exact and alias matches, typo searches, mahalla and renovation lookups.
 * Run: npm run build && node dist/bench/models/vocabulary.js
 */
import { matchDistrict, matchMahalla, matchRenovation } from '../../models/vocabulary';

/** Mean µs per call of `fn` over `inputs`, after a warm-up pass. */
function microsPerCall(inputs: string[], calls: number, fn: (text: string) => unknown): number {
  for (const input of inputs) fn(input);
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn(inputs[i % inputs.length]);
  return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

// Typical request and ingestion inputs: the exact/alias path is two map reads after normalisation.
const TYPICAL = [
  'Chilanzar', 'Чиланзарский район', 'Yunusobod', 'Mirzo-Ulugbek district', 'Yashnobodsky district',
  'Olmazor tumani', 'Яккасарайский район', 'Sergeli', 'Шайхонтоҳур тумани', 'Yakkasarai district',
];

console.log(`matchDistrict, exact/alias: ${microsPerCall(TYPICAL, 100_000, matchDistrict).toFixed(2)} µs per call`);
console.log(`matchDistrict, typo or unknown: ${microsPerCall(['Chilanzr', 'Yunusabat', 'Paris', 'Samarkand'], 5_000, matchDistrict).toFixed(1)} µs per call`);
console.log(`matchMahalla: ${microsPerCall(['Inokobod', 'махаллинский сход граждан Инокобод', 'Qatortol'], 100_000, (t) => matchMahalla(t)).toFixed(2)} µs per call`);
console.log(`matchRenovation: ${microsPerCall(['Евроремонт', 'Euro renovation', "O'rtacha", 'Средний'], 100_000, matchRenovation).toFixed(2)} µs per call`);
