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

test('an exact or alias district match costs microseconds', () => {
  const micros = microsPerCall(TYPICAL, 100_000, matchDistrict);
  console.log(`matchDistrict, exact/alias: ${micros.toFixed(2)} µs per call`);
  expect(micros).toBeLessThan(50); // loose for busy CI runners; ~1.5 µs in plain node, 2–9 µs under jest
});

// Jest's sandbox runs tight numeric loops far slower than plain node (~35 µs per miss there), hence the loose bound.
test('misses (typo search) stay in the low milliseconds even under jest', () => {
  const micros = microsPerCall(['Chilanzr', 'Yunusabat', 'Paris', 'Samarkand'], 5_000, matchDistrict);
  console.log(`matchDistrict, typo or unknown: ${micros.toFixed(1)} µs per call`);
  expect(micros).toBeLessThan(10_000);
});

test('mahalla and renovation lookups are as cheap', () => {
  const mahalla = microsPerCall(['Inokobod', 'махаллинский сход граждан Инокобод', 'Qatortol'], 100_000, (t) => matchMahalla(t));
  const renovation = microsPerCall(['Евроремонт', 'Euro renovation', "O'rtacha", 'Средний'], 100_000, matchRenovation);
  console.log(`matchMahalla: ${mahalla.toFixed(2)} µs, matchRenovation: ${renovation.toFixed(2)} µs per call`);
  expect(mahalla).toBeLessThan(50);
  expect(renovation).toBeLessThan(50);
});
