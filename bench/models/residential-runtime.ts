/**
 * Residential runtime speed, in process: one valuation, 1,000 and 100,000 in one call, through
 * the same ResidentialModelSet the service uses (features → 3 ONNX members → intervals, flags).
 * The requests carry no market, so each is valued as both markets and mixed (the path a bank
 * without the field takes); the same 1,000 with their market given are timed alternately with them.
 * Run: npm run build && node dist/bench/models/residential-runtime.js
 */
import { performance } from 'node:perf_hooks';
import { currentVersion } from '../../models/residential/manifest';
import { apartmentRequest, normaliseHomeInput, type ApartmentRequest } from '../../models/residential/request';
import { ResidentialModelSet } from '../../models/residential/runtime';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

async function main(): Promise<void> {
  const version = currentVersion()!;
  const runtime = await ResidentialModelSet.load(version);
  const districts = ['Chilanzar', 'Yunusabad', 'Mirabad', 'Sergeli', 'Yashnabad', 'Uchtepa'];
  const request = (i: number): ApartmentRequest => apartmentRequest(normaliseHomeInput({
    district: districts[i % districts.length], area: 35 + (i % 120), rooms: 1 + (i % 5), floor: 1 + (i % 9), totalFloors: 9,
    renovation: i % 2 ? 'Evro' : "O'rtacha", buildingType: i % 3 ? 'Panelli' : "G'ishtli",
  }).request);
  const one = [request(0)];
  const thousand = Array.from({ length: 1000 }, (_, i) => request(i));
  const thousandWithMarket = thousand.map((r, i) => ({ ...r, market: i % 3 ? ('resale' as const) : ('new' as const) }));
  const hundredThousand = Array.from({ length: 100_000 }, (_, i) => request(i));
  await timeIt(200, () => runtime.value(one)); // warm-up

  const single = await timeIt(2000, () => runtime.value(one));
  // Alternated, so both see the same machine: without the market (mixture) and with it.
  const mixed: number[] = [];
  const given: number[] = [];
  for (let i = 0; i < 50; i++) {
    mixed.push(await timeIt(1, () => runtime.value(thousand)));
    given.push(await timeIt(1, () => runtime.value(thousandWithMarket)));
  }
  const bulk1k = median(mixed);
  const bulk1kGiven = median(given);
  const bulk100k = await timeIt(3, () => runtime.value(hundredThousand));
  const normalise = await timeIt(20, async () => thousand.forEach((_, i) => normaliseHomeInput({ district: districts[i % 6], area: 60, rooms: 2, floor: 3, totalFloors: 9, renovation: 'Evro' })));
  await runtime.close();
  console.log(`model ${version}, node ${process.version}, ${new Date().toISOString()}`);
  console.log('| measure | median |');
  console.log('|---|---:|');
  console.log(`| one valuation (value([1 request])) | ${(single * 1000).toFixed(0)} µs |`);
  console.log(`| 1,000 valuations in one call, market not given (each valued as both, mixed) | ${bulk1k.toFixed(1)} ms |`);
  console.log(`| 1,000 valuations in one call, market given | ${bulk1kGiven.toFixed(1)} ms |`);
  console.log(`| ratio, not given ÷ given (alternated runs) | ${(bulk1k / bulk1kGiven).toFixed(2)} |`);
  console.log(`| 100,000 valuations in one call | ${(bulk100k / 1000).toFixed(2)} s |`);
  console.log(`| normalising 1,000 inputs (names, ranges) | ${normalise.toFixed(2)} ms |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
