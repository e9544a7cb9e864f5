/**
 * What the report says, in the chosen language and with every number formatted, before any
 * layout: a list of sections of plain blocks. html.ts and pdf.ts only lay these blocks out, so
 * the two formats cannot drift apart in content or order (issue 19 asks for the same sections).
 * Sections without data (market and location for a vehicle, no market adjustment) are left out.
 */
import type { BacktestSectionId } from './backtest-i18n';
import { dictionary, type Dictionary, type SectionId } from './i18n';
import { MISSING, coverageOdds, formatDate, formatDateTime, formatFactor, formatNumber, formatPercent, formatSignedPercent, formatSignedUsd, formatUsd, formatUzs } from './format';
import type { AttributionGroup, Comparable, DistrictOutline, EstimateAttribution, HouseAttributionGroup, ObjectValue, ReportDriver, ReportLanguage, ReportMember, ValuationReportData, VehicleAttributionGroup } from './report-data';

export interface Field {
  label: string;
  value: string;
}

export interface IntervalDrawing {
  low: number;
  high: number;
  estimate: number;
  estimateText: string;
  lowText: string;
  highText: string;
  /** The same three in soʻm, drawn beneath; null when the rate is not known. */
  uzs: { estimateText: string; lowText: string; highText: string } | null;
}

export interface MapDrawing {
  outline: DistrictOutline | null;
  lat: number;
  lon: number;
  caption: string;
  /** Said in the frame when there is no outline. */
  noOutline: string;
  /** Formats the scale bar's distance: 1 → '1 km'. */
  scaleLabel: (km: number) => string;
  /** The index figures printed beside the map. */
  aside: Field[];
}

export interface FlagItem {
  code: string;
  /** The code itself for a flag the dictionary does not know (renderers then print it once). */
  title: string;
  explanation: string;
}

export interface TableColumn {
  title: string;
  numeric: boolean;
  /** Share of the table's width, relative to the other columns. */
  weight: number;
}

export type Block =
  | { type: 'fields'; fields: Field[]; columns: 1 | 2 }
  | { type: 'subheading'; text: string }
  | { type: 'text'; text: string; tone: 'body' | 'note' | 'strong' }
  | { type: 'list'; items: Field[] }
  | { type: 'table'; columns: TableColumn[]; rows: string[][] }
  | { type: 'interval'; drawing: IntervalDrawing }
  | { type: 'map'; drawing: MapDrawing }
  | { type: 'flags'; flags: FlagItem[] };

export interface Section {
  /** The valuation report's sections, or a backtest report's (./backtest-content.ts). */
  id: SectionId | BacktestSectionId;
  title: string;
  blocks: Block[];
}

export interface ReportContent {
  lang: ReportLanguage;
  title: string;
  subtitle: string;
  header: Field[];
  sections: Section[];
  /** Printed at the foot of every PDF page, beside the page number. */
  footer: string;
  page: (n: number, total: number) => string;
}

/** Object keys whose numbers are years or coordinates: never grouped in threes. */
const UNGROUPED_KEYS = new Set(['year', 'year_built', 'lat', 'lon']);

function objectValue(key: string, value: ObjectValue, lang: ReportLanguage, t: Dictionary): string {
  if (value === null || value === '') return MISSING;
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (typeof value === 'number') {
    const decimals = Number.isInteger(value) ? 0 : Math.min((String(value).split('.')[1] ?? '').length, 6);
    return formatNumber(value, lang, decimals, !UNGROUPED_KEYS.has(key));
  }
  return t.objectValues[key]?.[value] ?? value;
}

const orMissing = <T>(value: T | null | undefined, format: (v: T) => string): string =>
  value === null || value === undefined ? MISSING : format(value);

function estimateSection(data: ValuationReportData, lang: ReportLanguage, t: Dictionary): Block[] {
  const { interval, uzs } = data;
  const range = (low: string, high: string) => `${low} – ${high}`;
  const fields: Field[] = [
    { label: t.estimate.estimate, value: formatUsd(data.estimate, lang) },
    { label: t.estimate.interval(formatPercent(interval.coverage, lang)), value: range(formatUsd(interval.low, lang), formatUsd(interval.high, lang)) },
  ];
  if (uzs) fields.push({ label: t.estimate.inUzs, value: `${formatUzs(uzs.estimate, lang)} (${range(formatUzs(uzs.low, lang), formatUzs(uzs.high, lang))})` });
  if (data.dataAgeMonths !== null) fields.push({ label: t.market.dataAge, value: t.market.months(data.dataAgeMonths, formatNumber(data.dataAgeMonths, lang)) });
  return [
    {
      type: 'interval',
      drawing: {
        low: interval.low,
        high: interval.high,
        estimate: data.estimate,
        estimateText: formatUsd(data.estimate, lang),
        lowText: formatUsd(interval.low, lang),
        highText: formatUsd(interval.high, lang),
        uzs: uzs && { estimateText: formatUzs(uzs.estimate, lang), lowText: formatUzs(uzs.low, lang), highText: formatUzs(uzs.high, lang) },
      },
    },
    { type: 'text', tone: 'note', text: uzs ? t.estimate.rate[uzs.basis](formatNumber(uzs.rate, lang, 2), formatDate(uzs.rateDate, lang), formatDate(data.valuationDate, lang)) : t.estimate.uzsUnknown },
    { type: 'fields', columns: 1, fields },
  ];
}

function confidenceSection(data: ValuationReportData, lang: ReportLanguage, t: Dictionary): Block[] {
  const { level, score, fsd } = data.confidence;
  return [
    {
      type: 'fields',
      columns: 1,
      fields: [
        { label: t.confidence.level, value: `${t.confidence.levels[level] ?? level}. ${t.confidence.meaning[level] ?? ''}`.trim() },
        { label: t.confidence.score, value: formatNumber(score, lang, 2) },
        ...(fsd === null ? [] : [{ label: t.confidence.fsd, value: formatNumber(fsd, lang, 3) }]),
      ],
    },
    { type: 'subheading', text: t.confidence.drivers },
    // A car's attribution stands beside its members (a home's replaces them).
    ...(data.attribution
      ? [...attributionBlocks(data.attribution, data.object.total_floors, lang, t), ...(data.attribution.kind === 'vehicle' ? memberBlocks(data.members, lang, t) : [])]
      : [data.drivers.length ? { type: 'list', items: data.drivers.map((d) => driverField(d, lang, t)) } as Block : { type: 'text', tone: 'note', text: t.confidence.noDrivers } as Block, ...memberBlocks(data.members, lang, t)]),
  ];
}

/** The ensemble's members with their weights, under their own label: the model's parts, not drivers of the estimate. */
function memberBlocks(members: readonly ReportMember[], lang: ReportLanguage, t: Dictionary): Block[] {
  if (members.length === 0) return [];
  const m = t.members;
  return [
    { type: 'subheading', text: m.heading },
    {
      type: 'table',
      columns: [
        { title: m.columns.name, numeric: false, weight: 3 },
        { title: m.columns.estimate, numeric: true, weight: 2 },
        { title: m.columns.weight, numeric: true, weight: 1.4 },
      ],
      rows: members.map((member) => [member.name, formatNumber(member.usd, lang), member.weight === null ? MISSING : formatNumber(member.weight, lang, 3)]),
    },
    { type: 'text', tone: 'note', text: m.note },
  ];
}

/** A figure behind the estimate, named and formatted in the report's language. */
function driverField(driver: ReportDriver, lang: ReportLanguage, t: Dictionary): Field {
  switch (driver.kind) {
    case 'marketLevel': return { label: t.driverLabels.marketLevel, value: formatNumber(driver.indexRatio, lang, 3) };
    case 'observations': return { label: t.driverLabels.observations, value: `×${formatNumber(driver.factor, lang, 3)}` };
    case 'score': return { label: t.driverLabels.score, value: formatNumber(driver.score, lang, 2) };
    default: throw new Error(`unknown driver ${JSON.stringify(driver satisfies never)}`);
  }
}

/** Each field group's change were the home its district's typical one (the car its make and model's), largest first, with what "typical" was. */
function attributionBlocks(attribution: EstimateAttribution, totalFloors: ObjectValue | undefined, lang: ReportLanguage, t: Dictionary): Block[] {
  const a = t.attribution;
  const value = (key: string, code: string | null) => (code === null ? MISSING : t.objectValues[key]?.[code] ?? code);
  const area = (m2: number) => `${formatNumber(m2, lang, Number.isInteger(m2) ? 0 : 1)}\u00a0m²`;
  let rows: string[][];
  let typicalTitle: string;
  let note: string;
  const changes = (label: string, typicalText: string, usd: number, share: number) => [label, typicalText, formatSignedUsd(usd, lang), formatSignedPercent(share, lang, 1)];
  if (attribution.kind === 'vehicle') {
    const { typical } = attribution;
    const v = a.vehicle;
    const typicalText: Record<VehicleAttributionGroup, string> = {
      // A model year is no quantity: never grouped (2019, not 2,019).
      year: String(typical.year),
      mileage: typical.mileageKm === null ? MISSING : `${formatNumber(typical.mileageKm, lang)}\u00a0${t.units.km}`,
      engine: typical.engineLitres === null ? MISSING : `${formatNumber(typical.engineLitres, lang, 1)}\u00a0${v.litres}`,
      fuel: value('fuel', typical.fuel),
      transmission: value('transmission', typical.transmission),
      body: value('body_type', typical.body),
      drive: value('drive', typical.drive),
      trim: typical.trim === null ? MISSING : formatNumber(typical.trim, lang),
      condition: typical.defects === null ? MISSING : value('condition', typical.defects ? 'needs_repair' : 'good'),
      region: value('region', typical.region),
    };
    rows = attribution.contributions.map((c) => changes(v.groups[c.group], typicalText[c.group], c.usd, c.share));
    typicalTitle = v.typical[attribution.level];
    note = v.note[attribution.level](typical.listings, { listings: formatNumber(typical.listings, lang), version: attribution.modelVersion });
  } else if (attribution.kind === 'house') {
    const { typical } = attribution;
    const yesNo = (flag: boolean | null) => (flag === null ? MISSING : flag ? t.yes : t.no);
    const typicalText: Record<HouseAttributionGroup, string> = {
      size: [area(typical.area), typical.rooms === null ? null : a.rooms(typical.rooms, formatNumber(typical.rooms, lang))].filter(Boolean).join(', '),
      plot: typical.landAreaSotka === null ? MISSING : a.sotka(typical.landAreaSotka, formatNumber(typical.landAreaSotka, lang, Number.isInteger(typical.landAreaSotka) ? 0 : 1)),
      place: a.placeTypical,
      building: [typical.totalFloors === null ? null : a.floors(typical.totalFloors, formatNumber(typical.totalFloors, lang)), typical.buildingType && value('building_type', typical.buildingType)].filter(Boolean).join(', ') || MISSING,
      renovation: value('renovation', typical.renovation),
      utilities: `${a.utilities.gas}: ${yesNo(typical.gas)}; ${a.utilities.water}: ${yesNo(typical.water)}; ${a.utilities.sewerage}: ${yesNo(typical.sewerage)}`,
    };
    rows = attribution.contributions.map((c) => changes(a.houseGroups[c.group], typicalText[c.group], c.usd, c.share));
    typicalTitle = a.houseTypical;
    note = a.houseNote(typical.listings, { listings: formatNumber(typical.listings, lang), version: attribution.modelVersion });
  } else {
    const { typical } = attribution;
    const typicalText: Record<AttributionGroup, string> = {
      size: `${area(typical.area)}, ${a.rooms(typical.rooms, formatNumber(typical.rooms, lang))}`,
      place: a.placeTypical,
      market: value('market', typical.market),
      // The middle floor of the flat's own building (models/residential/attribution.ts middleFloor).
      floor: typeof totalFloors === 'number' ? a.middleFloor(formatNumber(Math.max(1, Math.ceil(totalFloors / 2)), lang), formatNumber(totalFloors, lang)) : MISSING,
      building: [a.floors(typical.totalFloors, formatNumber(typical.totalFloors, lang)), typical.buildingType && value('building_type', typical.buildingType)].filter(Boolean).join(', '),
      renovation: value('renovation', typical.renovation),
    };
    rows = attribution.contributions.map((c) => changes(a.groups[c.group], typicalText[c.group], c.usd, c.share));
    typicalTitle = a.columns.typical;
    note = a.note(typical.listings, { listings: formatNumber(typical.listings, lang), version: attribution.modelVersion });
  }
  return [
    {
      type: 'table',
      columns: [
        { title: a.columns.factor, numeric: false, weight: 3 },
        { title: typicalTitle, numeric: false, weight: 3 },
        { title: a.columns.usd, numeric: true, weight: 2 },
        { title: a.columns.share, numeric: true, weight: 1.4 },
      ],
      rows,
    },
    { type: 'text', tone: 'note', text: note },
  ];
}

function marketSection(market: NonNullable<ValuationReportData['market']>, lang: ReportLanguage, t: Dictionary): Block[] {
  const row = (area: string, name: string, perM2: number | null, listings: number | null) =>
    [area, name, orMissing(perM2, (v) => formatNumber(v, lang)), orMissing(listings, (v) => formatNumber(v, lang))];
  const rows = [row(t.market.district, market.district, market.districtMedianPricePerM2, market.districtListings)];
  if (market.mahalla !== null) rows.push(row(t.market.mahalla, market.mahalla, market.mahallaMedianPricePerM2, market.mahallaListings));
  return [{
    type: 'table',
    columns: [
      { title: t.market.area, numeric: false, weight: 2 },
      { title: t.market.name, numeric: false, weight: 3 },
      { title: `${t.market.medianPerM2}, ${t.units.usd}`, numeric: true, weight: 3 },
      { title: t.market.listings, numeric: true, weight: 2 },
    ],
    rows,
  }];
}

function comparablesSection(data: ValuationReportData, lang: ReportLanguage, t: Dictionary): Block[] {
  if (!data.comparables.length) return [{ type: 'text', tone: 'note', text: t.comparables.none }];
  const c = t.comparables.columns;
  const number = (v: number | null, digits = 0) => orMissing(v, (x) => formatNumber(x, lang, digits));
  // Columns no comparable fills (area and rooms for cars, distance when unknown) are left out.
  const all: { column: TableColumn; cell: (x: Comparable) => string; has?: (x: Comparable) => boolean }[] = [
    { column: { title: c.label, numeric: false, weight: 4 }, cell: (x) => x.label },
    { column: { title: c.area, numeric: true, weight: 1.4 }, cell: (x) => number(x.area, x.area !== null && !Number.isInteger(x.area) ? 1 : 0), has: (x) => x.area !== null },
    { column: { title: c.rooms, numeric: true, weight: 1.1 }, cell: (x) => number(x.rooms), has: (x) => x.rooms !== null },
    { column: { title: c.floor, numeric: true, weight: 1.1 }, cell: (x) => x.floor ?? MISSING, has: (x) => x.floor !== null },
    { column: { title: c.period, numeric: false, weight: 1.5 }, cell: (x) => x.period },
    { column: { title: c.price, numeric: true, weight: 1.8 }, cell: (x) => formatNumber(Math.round(x.priceUsd), lang) },
    { column: { title: c.priceAtDate, numeric: true, weight: 1.8 }, cell: (x) => formatNumber(Math.round(x.priceAtValuationDateUsd), lang) },
    { column: { title: c.distance, numeric: true, weight: 1.4 }, cell: (x) => (x.sameMahalla ? t.comparables.sameMahalla : number(x.distanceKm, 1)), has: (x) => x.distanceKm !== null },
  ];
  const shown = all.filter((k) => !k.has || data.comparables.some(k.has));
  return [
    { type: 'table', columns: shown.map((k) => k.column), rows: data.comparables.map((x) => shown.map((k) => k.cell(x))) },
    { type: 'text', tone: 'note', text: t.comparables.note },
  ];
}

function locationSection(location: NonNullable<ValuationReportData['location']>, lang: ReportLanguage, t: Dictionary): Block[] {
  const score = (v: number | null) => (v === null ? t.location.noData : formatNumber(v, lang));
  const aside: Field[] = [
    { label: t.location.composite, value: score(location.composite) },
    ...location.subindexes.map((s) => ({ label: t.location.subindexes[s.name] ?? s.name, value: score(s.score) })),
    { label: t.location.point, value: `${formatNumber(location.lat, lang, 5, false)}, ${formatNumber(location.lon, lang, 5, false)}` },
  ];
  return [{
    type: 'map',
    drawing: {
      outline: location.districtOutline,
      lat: location.lat,
      lon: location.lon,
      caption: t.location.mapCaption,
      noOutline: t.location.noOutline,
      scaleLabel: (km) => `${formatNumber(km, lang, km < 1 ? (km * 10 === Math.round(km * 10) ? 1 : 2) : 0)}\u00a0${t.units.km}`,
      aside,
    },
  }];
}

function flagsSection(data: ValuationReportData, t: Dictionary): Block[] {
  if (!data.anomalyFlags.length) return [{ type: 'text', tone: 'body', text: t.flags.none }];
  return [{
    type: 'flags',
    flags: data.anomalyFlags.map((code) => {
      const known = t.flags.known[code];
      return known ? { code, ...known } : { code, title: code, explanation: t.flags.unknown };
    }),
  }];
}

function modelSection(data: ValuationReportData, lang: ReportLanguage, t: Dictionary): Block[] {
  const { model } = data;
  const fields: Field[] = [{ label: t.model.version, value: model.version }];
  if (model.trainedAt) fields.push({ label: t.model.trainedAt, value: formatDate(model.trainedAt, lang) });
  const h = model.headline;
  if (h) fields.push({ label: t.model.headline, value: t.model.headlineText(h.n, { n: formatNumber(h.n, lang), medianApe: formatPercent(h.medianApe, lang, 1), level: formatPercent(data.interval.coverage, lang), coverage: formatPercent(h.intervalCoverage, lang, 1) }) });
  const blocks: Block[] = [{ type: 'fields', columns: 1, fields }];
  const accuracy = model.districtAccuracy;
  if (!accuracy) return [...blocks, { type: 'text', tone: 'note', text: t.model.noAccuracy }];
  return [
    ...blocks,
    { type: 'subheading', text: t.model.accuracyFor(accuracy.district) },
    {
      type: 'fields',
      columns: 2,
      fields: [
        { label: t.model.medianApe, value: orMissing(accuracy.medianApe, (v) => formatPercent(v, lang, 1)) },
        { label: t.model.intervalCoverage, value: orMissing(accuracy.intervalCoverage, (v) => formatPercent(v, lang, 1)) },
        { label: t.model.n, value: orMissing(accuracy.n, (v) => formatNumber(v, lang)) },
        { label: t.model.accuracyClass, value: orMissing(accuracy.accuracyClass, (v) => t.model.classes[v] ?? v) },
      ],
    },
    { type: 'text', tone: 'note', text: t.model.heldOut },
  ];
}

function adjustmentSection(adjustment: NonNullable<ValuationReportData['marketAdjustment']>, lang: ReportLanguage, t: Dictionary): Block[] {
  return [
    {
      type: 'fields',
      columns: 2,
      fields: [
        { label: t.adjustment.baseEstimate, value: formatUsd(adjustment.baseEstimate, lang) },
        { label: t.adjustment.factor, value: formatFactor(adjustment.factor, lang) },
        { label: t.adjustment.group, value: adjustment.group ?? MISSING },
        { label: t.adjustment.observations, value: formatNumber(adjustment.observations, lang) },
      ],
    },
    { type: 'text', tone: 'note', text: t.adjustment.explanation },
  ];
}

/** The report's content in `lang`: the one source both renderers lay out. */
export function reportContent(data: ValuationReportData, lang: ReportLanguage): ReportContent {
  const t = dictionary(lang);
  const section = (id: SectionId, blocks: Block[]): Section => ({ id, title: t.sections[id], blocks });
  // A flat sent without its market says how it was valued instead of showing the market as missing.
  const mixture = data.marketMixture;
  const objectText = (key: string, value: ObjectValue) =>
    (key === 'market' && value === null && mixture ? t.marketNotGiven(formatPercent(mixture.newBuildProbability, lang)) : objectValue(key, value, lang, t));
  const objectFields = Object.entries(data.object).map(([key, value]) => ({ label: t.objectLabels[key] ?? key, value: objectText(key, value) }));
  const odds = coverageOdds(data.interval.coverage);
  const sections: (Section | null)[] = [
    section('object', [{ type: 'fields', columns: 2, fields: objectFields }]),
    section('estimate', estimateSection(data, lang, t)),
    section('confidence', confidenceSection(data, lang, t)),
    data.market ? section('market', marketSection(data.market, lang, t)) : null,
    section('comparables', comparablesSection(data, lang, t)),
    data.location ? section('location', locationSection(data.location, lang, t)) : null,
    section('flags', flagsSection(data, t)),
    section('model', modelSection(data, lang, t)),
    data.marketAdjustment ? section('adjustment', adjustmentSection(data.marketAdjustment, lang, t)) : null,
    section('disclaimer', t.disclaimer(odds.k, odds.of).map((text): Block => ({ type: 'text', tone: 'strong', text }))),
  ];
  return {
    lang,
    title: t.title,
    subtitle: `${t.preparedFor} · ${t.kind[data.kind] ?? data.kind}`,
    header: [
      { label: t.ids.valuationId, value: data.valuationId },
      { label: t.ids.valuationDate, value: formatDate(data.valuationDate, lang) },
      { label: t.ids.modelVersion, value: data.model.version },
      { label: t.ids.createdAt, value: formatDateTime(data.createdAt, lang) },
      { label: t.ids.organisation, value: data.organisation },
    ],
    sections: sections.filter((s): s is Section => s !== null),
    footer: `${t.title} · ${data.valuationId}`,
    page: t.page,
  };
}
