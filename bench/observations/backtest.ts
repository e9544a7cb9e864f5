/**
 * A bank's backtest (issue 31), offline: observed prices replayed in date order through
 * models/observations/backtest.ts, each valued at its own date by the base model and re-anchored on
 * the observations before its date only.
 *
 * - Flats: every July 2026 uybor flat at its posting date (30 June – 21 July), base model trained
 *   without that file (./base-models.ts).
 * - Vehicles: 10,000 of the 2023 Chevrolets, base model trained without that file. The file has no
 *   listing dates (one scrape): the bench deals them over a year of days in a seeded random order, so
 *   that the replay does the work a year of a bank's prices would (one fit per block of days). The
 *   accuracy figures are then of prices of one month replayed as if spread over a year.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/observations/backtest.js [--vehicles 10000] [--max-fits 60]
 */
import { performance } from 'node:perf_hooks';
import { backtest, HOME_HIERARCHY, MAX_BACKTEST_FITS, VEHICLE_HIERARCHY, type BacktestComparison, type BacktestReport, type ScoredObservation } from '../../models/observations';
import { Random } from '../../models/trainers/random';
import { option } from '../cli';
import { residentialBase, vehicleBase } from './base-models';
import { valuedChevrolets, valuedFlats } from './data';

const pct = (x: number, digits = 1) => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(digits)}%`);

function table(title: string, rows: { name: string; comparison: BacktestComparison }[]): void {
  console.log(`\n${title}\n`);
  console.log('| rows | valuations | n | median APE | within ±10% | median bias (95% interval) | 90% coverage (Wilson 95%) | median width | within ±FSD |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, comparison } of rows) {
    for (const [label, m] of [['model alone', comparison.modelAlone], ['re-anchored', comparison.reanchored]] as const) {
      const ci = m.bias.ci95 ? ` (${pct(m.bias.ci95.low)} to ${pct(m.bias.ci95.high)})` : '';
      console.log(`| ${name} | ${label} | ${m.n} | ${pct(m.medianApe)} | ${pct(m.within10, 0)} | ${pct(m.bias.median, 2)}${ci} | ${pct(m.coverage.share)} (${pct(m.coverage.bounds95.low)}–${pct(m.coverage.bounds95.high)}) | ${pct(m.medianWidth, 0)} | ${pct(m.withinFsd)} |`);
    }
  }
}

function report(name: string, observations: ScoredObservation[], hierarchy: typeof HOME_HIERARCHY, maxFits: number, groupLevel: string): BacktestReport {
  const started = performance.now();
  const result = backtest(observations, { hierarchy, maxFits });
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n## ${name}\n\n${result.observations} observations from ${result.from} to ${result.to}, ${result.fits} fits, replayed in ${seconds.toFixed(1)} s`);
  table('Overall and by month:', [{ name: 'overall', comparison: result.overall }, ...result.byMonth.map((m) => ({ name: m.month, comparison: m }))]);
  const groups = result.byGroup.filter((g) => g.level === groupLevel).sort((a, b) => b.reanchored.n - a.reanchored.n).slice(0, 6);
  table(`The six largest groups at the ${groupLevel} level:`, groups.map((g) => ({ name: g.group, comparison: g })));
  table('By confidence level, each side at the level of its own FSD (honest: about 68% within ±FSD):', result.byConfidence.map((c) => ({ name: c.confidence, comparison: c })));
  return result;
}

async function main(): Promise<void> {
  const vehicles = Number(option('vehicles', '10000'));
  const maxFits = Number(option('max-fits', String(MAX_BACKTEST_FITS)));
  console.log(`# A bank's backtest, offline (node ${process.version}, ${new Date().toISOString()}), at most ${maxFits} fits`);

  const flats = await valuedFlats(residentialBase('uybor_2026', false));
  report('Flats: uybor July 2026 at their posting dates', flats.observations, HOME_HIERARCHY, maxFits, 'segment');

  const chevrolets = await valuedChevrolets(vehicleBase('avtoelon_chevrolet_2023', false));
  const random = new Random(2023);
  const order = Array.from(random.permutation(chevrolets.observations.length)).slice(0, vehicles);
  const start = Date.parse('2023-01-01');
  // Dealt over 365 days, so the replay's blocks and fits are a year's.
  const dated = order.map((i, k) => ({ ...chevrolets.observations[i], observedAt: new Date(start + Math.floor((k / order.length) * 365) * 86_400_000).toISOString().slice(0, 10) }));
  report(`Vehicles: ${dated.length.toLocaleString('en')} Chevrolets of August 2023 dealt over 2023's days`, dated, VEHICLE_HIERARCHY, maxFits, 'model');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
