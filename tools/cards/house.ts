/**
 * The houses section of docs/MODEL_CARD.md: the house model in service, its evaluation per
 * district and source, its coverage, the land/building split and its limits. Rendered from the
 * house manifest; the residential card (./residential.ts) places it.
 */
import { DASH, int, list, metricCells, METRIC_HEADER, pct, table } from './card-kit';
import type { EvaluationReport } from '../../models/ensemble/evaluation-report';
import { DISTRICT_IDS, DISTRICT_NAMES, type DistrictId } from '../../models/vocabulary/codes';
import { currentHouseVersion, readHouseManifest, HOUSE_DIR, type HouseManifest } from '../../models/house/manifest';

/** The section for the house version in service under `root`, or a line saying none is. */
export function houseSection(root = HOUSE_DIR): string {
  const version = currentHouseVersion(root);
  if (!version) return '## Houses\n\nNo house model is promoted: house requests are refused with INSUFFICIENT_MARKET_DATA.';
  return renderHouseSection(readHouseManifest(version, root));
}

const name = (id: string) => DISTRICT_NAMES[id as DistrictId] ?? id;

function districtTable(m: HouseManifest, report: EvaluationReport): string {
  const ids = DISTRICT_IDS.filter((d) => m.market[d] || report.districts[d]).sort((a, b) => name(a).localeCompare(name(b)));
  const rows = ids.map((d) => {
    const refused = (m.market[d]?.n ?? 0) < m.minListings;
    return [name(d), int(m.market[d]?.n ?? 0), ...metricCells(report.districts[d]), report.districts[d]?.accuracyClass ?? DASH, refused ? '**refused**' : m.districtAccuracy[d] ?? 'low'];
  });
  rows.push(['**all districts**', int(m.training.rows), ...metricCells(report.overall), '', '']);
  return table(['district', 'training houses', ...METRIC_HEADER, 'accuracy class', 'served as'], rows, [false, true, ...METRIC_HEADER.map(() => true), false, false]);
}

function sourceTable(report: EvaluationReport): string {
  return table(['source', ...METRIC_HEADER], Object.entries(report.bySource ?? {}).map(([s, x]) => [s, ...metricCells(x)]));
}

export function renderHouseSection(m: HouseManifest): string {
  const { headline, leaveOneSourceOut: loso, landShare, withoutPlot } = m.evaluation;
  const refused = DISTRICT_IDS.filter((d) => (m.market[d]?.n ?? 0) < m.minListings).map(name);
  const weights = m.members.map((x) => `${x.name} ${x.weight.toFixed(2)}`).join(', ');
  return [
    '## Houses',
    '',
    `A private house with its plot is valued by a model of its own (version **${m.version}**, trained ${m.trainedAt.slice(0, 10)} on ${int(m.training.rows)} house listings: ${Object.entries(m.training.bySource).map(([s, n]) => `${s} ${int(n)}`).join(', ')}). The flat model is untouched by house rows: the flats lend only their market index (refitted on the flat listings in the same run) and each district's flat price level, a prior where houses are few.`,
    '',
    `- **Target and features:** log asking price per m² of floor area; district (house prior shrunk hard toward the city, pseudo-count ${m.features.encoding.smoothing}; the district's flat level), floor area, plot (sotka) and plot per m² of floor, rooms, storeys, renovation, building type, gas, water, sewerage.`,
    `- **Members:** ${m.members.map((x) => x.algorithm).join('; ')}. Weights learned on leave-one-source-out predictions: ${weights}.`,
    `- **Intervals:** ${m.intervals.method}.`,
    `- **Refusal:** a district with fewer than ${m.minListings} training houses gets no number (422 INSUFFICIENT_MARKET_DATA)${refused.length ? `: today ${list(refused)}` : ''}.`,
    '',
    '### How accurate: forward in time',
    '',
    headline.protocol,
    '',
    table(['view', ...METRIC_HEADER], [['all houses', ...metricCells(headline.overall)], ...withoutPlot.slice(1).map((v) => [v.name, ...metricCells(v.overall)])]),
    '',
    `Only ${int(headline.overall.n)} houses are in the forward test, so its coverage is known to about ±${pct(1.96 * Math.sqrt(0.09 / Math.max(1, headline.overall.n)), 0)}; the leave-one-source-out view below, over every house, is the better measure of calibration.`,
    '',
    '### Leave one source out',
    '',
    loso.protocol,
    '',
    sourceTable(loso),
    '',
    'Per district (leave one source out; districts with fewer than 30 held-out houses are classed low whatever their figures):',
    '',
    districtTable(m, loso),
    '',
    '### Land and building',
    '',
    `The reply splits the estimate into the plot and the house: \`land_share\` is the ensemble's elasticity to the plot area, which for a price made of land plus building is exactly the land's share, and \`land_price_per_sotka\` is the estimate × that share ÷ the plot. Over the training houses with a plot the land share has median ${pct(landShare.median, 0)} (10th–90th percentile ${pct(landShare.p10, 0)}–${pct(landShare.p90, 0)}). Method: ${landShare.method}.`,
    '',
    '**Limits.**',
    '',
    `- The split is read off a model of asking prices, not measured from land sales: the land-only listings are left out of training. Tree members make the elasticity stepwise, so a house's share moves in jumps as its plot changes; it is clamped to 0–1.`,
    `- Houses are few and unlike one another: median errors of ${pct(loso.overall.medianApe, 0)} leaving one source out, against ${pct(m.evaluation.headline.overall.medianApe, 0)} forward. The intervals are wide to match (median width ${pct(loso.overall.medianIntervalWidth, 0)} of the estimate), and the confidence rule's width ends are ${m.confidence.protocol}.`,
    `- uybor's July 2026 export gives a house one area column, sometimes the floor area and sometimes the plot: the forward test keeps only houses whose area is clearly the floor area, and they come without their plot. A house valued without its plot is calibrated as its own group.`,
    '- Year built is not in any house file, so it is not asked for.',
  ].join('\n');
}
