/**
 * Prints the held-out accuracy of the geocoder (./evaluate.ts) as the tables docs/GEOCODING.md shows.
 * Run: tsc, then `node <outDir>/tools/models/location/geocode/evaluate-cli.js [seed]`.
 */
import { DEFAULT_SEED, evaluateHoldOut, type VariantReport } from '../../../../models/location/geocode/evaluate';

const percent = (x: number) => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`);

function printVariant(title: string, report: VariantReport): void {
  console.log(`\n${title}: ${report.listings} listings; resolved ${percent(report.resolvedShare)}, in the listing's district ${percent(report.rightDistrictShare)}`);
  console.log(`unresolved by reason: ${JSON.stringify(report.unresolved)}\n`);
  console.log('| precision | listings | share of resolved | median error | within 500 m |');
  console.log('|---|---:|---:|---:|---:|');
  const resolved = report.accuracy.find((r) => r.precision === 'all')!.listings;
  for (const r of report.accuracy) {
    const median = Number.isNaN(r.medianErrorM) ? '–' : `${r.medianErrorM} m`;
    console.log(`| ${r.precision} | ${r.listings} | ${percent(r.listings / resolved)} | ${median} | ${percent(r.within500m)} |`);
  }
  console.log('\n| confidence | listings | within 500 m |');
  console.log('|---|---:|---:|');
  for (const band of report.calibration) {
    console.log(`| ${band.from.toFixed(1)}–${(band.from + 0.1).toFixed(1)} | ${band.listings} | ${percent(band.within500m)} |`);
  }
}

function main(): void {
  const report = evaluateHoldOut(process.argv[2] ?? DEFAULT_SEED);
  console.log(`seed "${report.seed}": ${report.heldOutAddresses} held-out addresses`);
  printVariant('Full address', report.fullAddress);
  printVariant('Place text only (no city, no district)', report.placeTextOnly);
  const agreement = report.coNamedMahallas;
  console.log(`\nMahallas placed both by geocoded listings and by co-named streets: ${agreement.mahallas}; `
    + `the co-named centre lies a median ${agreement.medianDistanceM} m from the geocoded one, ${percent(agreement.within500m)} within 500 m`);
  const { addresses, ...outcomes } = report.uyborCoverage;
  console.log(`\nuybor addresses (${addresses} distinct; no coordinates): `
    + Object.entries(outcomes).sort(([, a], [, b]) => b - a).map(([outcome, n]) => `${outcome} ${percent(n / addresses)}`).join(', '));
}

main();
