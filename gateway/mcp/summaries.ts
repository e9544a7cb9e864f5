/**
 * One or two sentences per reply that an agent can quote to a person as they are, e.g.
 * "Estimated 78,500 USD (90% interval 71,000–86,500), confidence high (FSD 0.086)". The numbers
 * are the reply's own; the structured reply beside them has everything else.
 */
import type { HomeReply } from '../operations/home';
import type { LocationReply } from '../operations/location';
import type { RecordedObservationsReply } from '../operations/observations';
import type { VehicleReply } from '../operations/vehicle';
import type {
  BacktestAcceptedReply,
  BacktestMeasuresReply,
  BacktestReply,
  BatchAcceptedReply,
  BatchStatusReply,
  DistrictsReply,
  GeocodeReply,
  ModelAccuracyReply,
  RetractedObservationsReply,
  ValuationRecordReply,
} from './replies';

const amount = (value: number, currency: string) => `${Math.round(value).toLocaleString('en-US')} ${currency}`;
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (fraction: number, digits = 1) => `${(fraction * 100).toFixed(digits)}%`;
const coordinate = (value: number) => value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');

/** "Estimated 78,500 USD (90% interval 71,000–86,500), confidence high (FSD 0.086)", in the reply's currency. */
function valuation(v: { estimate: number; currency: string; interval: { low: number; high: number; coverage: number }; fsd: number | null; confidence: { level: string; score: number } }): string {
  const basis = v.fsd === null ? v.confidence.score.toFixed(2) : `FSD ${v.fsd.toFixed(3)}`;
  return `Estimated ${amount(v.estimate, v.currency)} (${percent(v.interval.coverage, 0)} interval ${grouped(v.interval.low)}–${grouped(v.interval.high)}), confidence ${v.confidence.level} (${basis})`;
}

/** " Converted at 12,937 UZS per USD (2025-04-01)." for a reply in soʻm (nothing in USD). */
function converted(r: { exchange_rate?: { usd_to_uzs: number; date: string } }): string {
  return r.exchange_rate ? ` Converted at ${r.exchange_rate.usd_to_uzs.toLocaleString('en-US')} UZS per USD (${r.exchange_rate.date}).` : '';
}

function remarks(flags: readonly string[], warnings: readonly string[]): string {
  return `${flags.length ? ` Flags: ${flags.join(', ')}.` : ''}${warnings.length ? ` Warnings: ${warnings.join('; ')}.` : ''}`;
}

export function homeSummary(r: HomeReply): string {
  const place = r.location.mahalla ? `${r.location.district}, mahalla ${r.location.mahalla}` : `${r.location.district} (district level)`;
  const estimated = r.property_type === 'house' ? `House: ${valuation(r).replace(/^E/, 'e')}` : valuation(r);
  return `${estimated}. ${place}; ${grouped(r.price_per_m2)} ${r.currency}/m²${plot(r)}; model ${r.model_version}.${mixed(r.market_mixture)}${converted(r)}${marketAge(r.market_level)}${remarks(r.anomaly.flags, r.warnings)}`;
}

/** " Market not given: valued as a new build (probability 51%) and as resale, mixed." (nothing when the market was given, or for a house) */
function mixed(m: HomeReply['market_mixture']): string {
  return m ? ` Market not given: valued as a new build (probability ${percent(m.new_build_probability, 0)}) and as resale, mixed.` : '';
}

/** "; plot 4,200 USD/sotka (31% of the value)" for a house valued with its plot (nothing otherwise). */
function plot(r: HomeReply): string {
  if (r.land_price_per_sotka === null) return '';
  return `; plot ${grouped(r.land_price_per_sotka)} ${r.currency}/sotka${r.anomaly.land_share === null ? '' : ` (${percent(r.anomaly.land_share, 0)} of the value)`}`;
}

/** " Valued at 2026-11-24, 4 months (116 days) past the newest market data (2026-07); the interval is 0.3% wider for market moves since." (nothing within the data) */
function marketAge(m: HomeReply['market_level']): string {
  if (m.data_age_months === 0) return '';
  const months = m.data_age_months === 1 ? '1 month' : `${m.data_age_months} months`;
  const days = m.data_age_days === 1 ? '1 day' : `${m.data_age_days} days`;
  return ` Valued at ${m.valuation_date}, ${months} (${days}) past the newest market data (${m.newest_data_period}); the interval is ${percent(m.interval_widening)} wider for market moves since.`;
}

export function vehicleSummary(r: VehicleReply): string {
  const name = r.vehicle.model === null ? `${r.vehicle.make} (a model the catalogue does not list)` : `${r.vehicle.make} ${r.vehicle.model}`;
  const basis = r.basis === 'model' ? '' : ` Valued on the ${r.basis}'s level, with a wider interval.`;
  return `${name} ${r.vehicle.year}: ${valuation(r).replace(/^E/, 'e')}. ${grouped(r.anomaly.market_listings)} market listings of this make${r.vehicle.model === null ? '' : ' and model'}; model ${r.model_version}.${basis}${converted(r)}${marketAge(r.market_level)}${remarks(r.anomaly.flags, r.warnings)}`;
}

export function locationSummary(r: LocationReply): string {
  const score = r.composite.score === null ? 'no composite location index (no data)' : `Composite location index ${r.composite.score.toFixed(1)}/100`;
  const parts = Object.entries(r.subindexes).map(([id, s]) => `${id} ${s.score === null ? 'n/a' : Math.round(s.score)}${s.coverage === 'partial' ? ' (partial data)' : ''}`);
  const where = r.geocoded ? `"${r.geocoded.address}" (placed at ${r.geocoded.precision} precision, ${coordinate(r.lat)}, ${coordinate(r.lon)})` : `${coordinate(r.lat)}, ${coordinate(r.lon)}`;
  const complete = r.composite.complete ? '' : r.composite.missing.length ? ` Missing data: ${r.composite.missing.join(', ')}.` : ' Some scores rest on partial data (lower bounds).';
  return `${score} at ${where} in ${r.district.name}: ${parts.join(', ')}.${complete}${remarks([], r.warnings)}`;
}

export function geocodeSummary(r: GeocodeReply): string {
  const matched = [r.matched.district, r.matched.quarter, r.matched.street, r.matched.mahalla && `mahalla ${r.matched.mahalla}`].filter(Boolean).join(', ');
  const others = r.candidates.length ? ` ${r.candidates.length} less precise candidate${r.candidates.length === 1 ? '' : 's'}.` : '';
  return `"${r.address}" placed at ${coordinate(r.lat)}, ${coordinate(r.lon)} (${r.precision} precision, confidence ${r.confidence.toFixed(2)}): ${matched}.${others}${remarks([], r.warnings)}`;
}

export function districtsSummary(r: DistrictsReply): string {
  const mahallas = r.districts.reduce((sum, d) => sum + d.mahalla_count, 0);
  const list = r.districts.map((d) => `${d.name} (${d.names.uzbek_latin}; ${d.mahalla_count} mahallas)`).join(', ');
  return `${r.districts.length} district${r.districts.length === 1 ? '' : 's'}, ${grouped(mahallas)} mahallas: ${list}.${remarks([], r.warnings)}`;
}

export function batchAcceptedSummary(r: BatchAcceptedReply): string {
  return `Batch job ${r.id} queued with ${grouped(r.total)} item${r.total === 1 ? '' : 's'}. Follow it with get_batch_status (id "${r.id}").${remarks([], r.warnings)}`;
}

export function batchStatusSummary(r: BatchStatusReply): string {
  const progress = `${grouped(r.processed)} of ${grouped(r.total)} items processed (${grouped(r.succeeded)} succeeded, ${grouped(r.failed)} failed)`;
  const results = r.results
    ? r.results.items.length
      ? ` Results ${r.results.items[0].index}–${r.results.items[r.results.items.length - 1].index} included${r.results.next_offset !== null ? `; more from results_offset ${r.results.next_offset}` : ''}.`
      : ' No results recorded at that offset yet.'
    : '';
  return `Batch job ${r.id}: ${r.status}, ${progress}.${r.error ? ` Error: ${r.error}.` : ''}${results}${remarks([], r.warnings)}`;
}

/** Best first, as the model cards list them. */
const ACCURACY_CLASSES = ['high', 'good', 'fair', 'low'];

export function modelAccuracySummary(r: ModelAccuracyReply): string {
  const parts: string[] = [];
  const headline = (name: string, m: { version: string; metrics: { n: number; mape: number; r2: number | null; interval_coverage: number } }, unit: string) =>
    `${name} model ${m.version}: MAPE ${percent(m.metrics.mape)}${m.metrics.r2 === null ? '' : `, R² ${m.metrics.r2.toFixed(3)}`}, 90% interval coverage ${percent(m.metrics.interval_coverage)} on ${grouped(m.metrics.n)} held-out ${unit}`;
  if (r.residential) {
    const classes = new Map<string, string[]>(ACCURACY_CLASSES.map((c) => [c, []]));
    for (const d of r.residential.districts) classes.set(d.accuracy_class, [...(classes.get(d.accuracy_class) ?? []), d.district]);
    const byClass = [...classes].filter(([, ds]) => ds.length).map(([c, ds]) => `${c}: ${ds.join(', ')}`).join('; ');
    parts.push(`${headline('Residential', r.residential, 'listings')} (accuracy class by district, ${byClass}).`);
  }
  if (r.vehicle) parts.push(`${headline('Vehicle', r.vehicle, 'listings')} across ${r.vehicle.groups.length} make/model groups.`);
  if (r.vehicle === null) parts.push('No vehicle model is in service.');
  for (const [kind, live] of Object.entries(r.live_accuracy)) {
    if (!live?.overall) continue;
    const s = live.overall.service;
    parts.push(`On the ${grouped(s.observations)} ${kind} prices your organisation recorded: median APE ${percent(s.median_ape)}, bias ${percent(Math.expm1(s.mean_bias))}, 90% interval coverage ${percent(s.coverage)}${live.overall.drift.flagged ? `; DRIFT: ${live.overall.drift.reasons.join('; ')}` : ''}.`);
  }
  return `${parts.join(' ')}${remarks([], r.warnings)}`;
}

export function recordedObservationsSummary(r: RecordedObservationsReply & { warnings?: readonly string[] }): string {
  const refused = r.rejected_count ? ` ${grouped(r.rejected_count)} refused: ${r.rejected.slice(0, 3).map((x) => `#${x.index} ${x.error.code}${x.error.field ? ` (${x.error.field})` : ''}`).join(', ')}${r.rejected_count > 3 ? ', …' : ''}.` : '';
  return `${grouped(r.accepted)} observation${r.accepted === 1 ? '' : 's'} recorded: your valuations of the same kind are re-anchored on them.${refused}${remarks([], r.warnings ?? [])}`;
}

/** retract_observations: how many were removed, and which ids were not found. */
export function retractedObservationsSummary(r: RetractedObservationsReply): string {
  const missing = r.not_found.length ? ` Not found (never recorded, already retracted, or not your organisation's): ${r.not_found.slice(0, 3).join(', ')}${r.not_found.length > 3 ? ', …' : ''}.` : '';
  return `${grouped(r.retracted)} observation${r.retracted === 1 ? '' : 's'} retracted: your valuations are re-anchored without ${r.retracted === 1 ? 'it' : 'them'}.${missing}${remarks([], r.warnings ?? [])}`;
}

/** get_valuation: what was valued, when, for how much, and where its report is. */
export function valuationRecordSummary(r: ValuationRecordReply): string {
  const v = r.valuation as { estimate: number; currency: string; interval: { low: number; high: number; coverage: number }; location?: { district: string }; vehicle?: { make: string; model: string | null; year: number } };
  const what = r.kind === 'home' ? `a home in ${v.location?.district ?? 'Tashkent'}` : `a ${[v.vehicle?.make, v.vehicle?.model, v.vehicle?.year].filter(Boolean).join(' ')}`;
  return `Valuation ${r.valuation_id} of ${r.created_at.slice(0, 10)} (${what}, valued at ${r.valuation_date}): ${grouped(v.estimate)} ${v.currency} (${Math.round(v.interval.coverage * 100)}% interval ${grouped(v.interval.low)}–${grouped(v.interval.high)}), model ${r.model_version}, kept until ${r.keep_until}. Report: GET /api/valuations/${r.valuation_id}/report (PDF; ?format=html, ?lang=en|ru|uz).${remarks([], r.warnings)}`;
}

export function backtestAcceptedSummary(r: BacktestAcceptedReply): string {
  return `Backtest ${r.id} of ${grouped(r.total)} ${r.kind} price${r.total === 1 ? '' : 's'} queued. Follow it with get_backtest (id "${r.id}").${remarks([], r.warnings)}`;
}

/** "median APE 16.7%, bias +20.0%, coverage 60.0%": a bias as the share prices lay above (+) or below (−) the valuations, as the PDF reads it. */
function backtestMeasures(m: BacktestMeasuresReply): string {
  const share = (x: number | null, signed = false) => (x === null ? 'n/a' : `${signed && x >= 0 ? '+' : ''}${percent(signed ? Math.expm1(x) : x)}`);
  return `median APE ${share(m.median_ape)}, bias ${share(m.median_bias, true)}, coverage ${share(m.coverage)}`;
}

export function backtestSummary(r: BacktestReply): string {
  const refused = r.refused ? ` ${grouped(r.refused)} refused.` : '';
  if (!r.report) return `Backtest ${r.id} (${r.kind}): ${r.status}, ${grouped(r.processed)} of ${grouped(r.total)} prices scored.${refused}${r.error ? ` Error: ${r.error}.` : ''}${remarks([], r.warnings)}`;
  const { overall, observations, from, to, files } = r.report;
  const left = r.refused ? `, ${grouped(r.refused)} more refused` : '';
  return `Backtest ${r.id} of ${grouped(observations)} ${r.kind} prices (${from} to ${to}${left}): model alone ${backtestMeasures(overall.model_alone)}; re-anchored on earlier prices ${backtestMeasures(overall.reanchored)}. `
    + `${r.report.by_month.length} month${r.report.by_month.length === 1 ? '' : 's'} in by_month. PDF: GET ${files.pdf} (&lang=ru|uz).${remarks([], r.warnings)}`;
}
