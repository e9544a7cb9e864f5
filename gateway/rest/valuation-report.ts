/**
 * GET /api/valuations/{id}/report (issue 19): the credit committee's report of one recorded
 * valuation, PDF (default) or HTML (?format=html), in English, Russian or Uzbek (?lang=en|ru|uz).
 *
 * The record says what was asked and answered; the graph adds what the committee reads beside it:
 * the district's and mahalla's market figures and the model's held-out accuracy there, comparable
 * training listings brought to the valuation date, and the location index at the flat's point
 * (its own, else its mahalla's centre, else the district's). The renderer (gateway/reports) reads
 * nothing else.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { rateBasisOf, rateForDate, usdAmountInUzs, uzsAmountInUsd } from '../../models/currency';
import { districtOutlines } from '../dashboard/outlines';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor, type GraphExecutor } from '../graph/executor';
import { SECURITY } from '../ops/openapi';
import type { WorkMeter } from '../quota';
import type { ReportRenderer } from '../reports/render-pool';
import { REPORT_CSP, REPORT_LANGUAGES, renderReportHtml, type Comparable, type DistrictOutline, type EstimateAttribution, type ReportDriver, type ReportLanguage, type ValuationReportData } from '../reports';
import { districtName, mahallaName } from '../reports/place-names';
import { errorResponseJsonSchema } from '../operations/response-schemas';
import { valuationRecordOf, type RecordData } from '../operations/valuations';
import { notFound } from './valuations';

const PLACE_OPERATION = { query: /* GraphQL */ `
  query ReportPlace($district: String!) {
    district(name: $district) {
      name centroid { lat lon }
      marketStatistics { listings medianPricePerM2 }
      modelAccuracy { accuracyClass n medianApe intervalCoverage }
      mahallas { id name centre { lat lon } marketStatistics { listings medianPricePerM2 } }
    }
    residentialModel { version trainedAt metrics { n medianApe intervalCoverage } }
  }` };

// Subindexes by id: the report names them in its own language.
const LOCATION_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query ReportLocation($lat: Float!, $lon: Float!) {
    locationIndex(lat: $lat, lon: $lon) { composite { score } subindexes { id score } }
  }` };

const COMPARABLES_OPERATION = { owner: 'residential', query: /* GraphQL */ `
  query ReportComparables($input: HomeValuationInput!) {
    comparableListings(input: $input, n: 5) { source period mahalla mahallaId area rooms floor totalFloors priceUsd priceAtValuationDateUsd distanceKm }
  }` };

// Internal (@inaccessible): the flat valued again by the model in service with each field group typical, in one model call; priced as nothing and charged as no valuation.
const ATTRIBUTION_OPERATION = { owner: 'residential', query: 'query ReportAttribution($id: String!) { homeEstimateAttribution(id: $id) }' };

// Internal (@inaccessible) as the home's: the car valued again with each field group its make and model's typical car's; not charged.
const VEHICLE_ATTRIBUTION_OPERATION = { owner: 'vehicle', query: 'query ReportVehicleAttribution($id: String!) { vehicleEstimateAttribution(id: $id) }' };

const VEHICLE_MODEL_OPERATION = { owner: 'vehicle', query: 'query ReportVehicleModel { vehicleModel { version trainedAt metrics { n medianApe intervalCoverage } } }' };

type Point = { lat: number; lon: number };
interface PlaceData {
  district: {
    name: string; centroid: Point;
    marketStatistics: { listings: number; medianPricePerM2: number } | null;
    modelAccuracy: { accuracyClass: string; n: number; medianApe: number; intervalCoverage: number } | null;
    mahallas: { id: string; name: string; centre: Point | null; marketStatistics: { listings: number; medianPricePerM2: number } | null }[];
  } | null;
  residentialModel: { version: string; trainedAt: string; metrics: { n: number; medianApe: number; intervalCoverage: number } };
}

/** What the report reads of a recorded valuation (GraphQL names, as recorded). */
interface AnsweredValuation {
  estimate: number;
  currency: string;
  exchangeRate?: { usdToUzs: number; date: string; source: string } | null;
  interval: { low: number; high: number; coverage: number };
  /** Absent in records made before it was answered. */
  fsd?: number;
  confidence: { level: 'high' | 'medium' | 'low'; score: number };
  /** weight: absent in records made before it was answered. */
  models: { name: string; estimate: number; weight?: number }[];
  anomaly: { flags: string[]; districtMedianPricePerM2?: number | null; mahallaMedianPricePerM2?: number | null };
  location?: { district: string; mahalla: string | null; mahallaId: string | null };
  marketLevel: { valuationDate: string; dataAgeMonths: number; indexRatio: number };
  marketAdjustment?: { baseEstimate: number; factor: number; group: string | null; observations: number } | null;
  marketMixture?: { newBuildProbability: number } | null;
  vehicle?: Record<string, unknown>;
  modelVersion: string;
}

const fixed = (x: number, digits: number) => Number(x.toFixed(digits));
/** Two points closer than this are one place (a mahalla's centre given to both). */
const SAME_PLACE_KM = 0.05;
let outlines: Map<string, DistrictOutline> | undefined;
/** The district outlines (data/geo, OpenStreetMap), read once. */
function outlineOf(district: string): DistrictOutline | null {
  outlines ??= new Map(districtOutlines().features.map((f) => [f.properties.name, f.geometry as DistrictOutline]));
  return outlines.get(district) ?? null;
}

/** The record and what the graph knows around it, as the renderer reads it. */
export async function reportData(executor: GraphExecutor, record: RecordData, organisation: string, lang: ReportLanguage): Promise<ValuationReportData> {
  const v = record.valuation as unknown as AnsweredValuation;
  const rate = v.exchangeRate?.usdToUzs ?? null;
  const usd = (amount: number) => (rate ? uzsAmountInUsd(amount, rate) : amount);
  // Named and formatted by the renderer in the report's language; a home's attribution replaces them.
  const drivers: ReportDriver[] = [
    { kind: 'marketLevel', indexRatio: v.marketLevel.indexRatio },
    ...(v.marketAdjustment ? [{ kind: 'observations', factor: v.marketAdjustment.factor } as const] : []),
    { kind: 'score', score: v.confidence.score },
  ];
  // Both currencies: as answered, and the other at the rate of the valuation date; the basis says which rate it was.
  const uzsRate = v.exchangeRate
    ? { ...v.exchangeRate, basis: rateBasisOf(v.exchangeRate, v.marketLevel.valuationDate) }
    : rateForDate(v.marketLevel.valuationDate).rate;
  const toUzs = (amount: number) => (rate ? amount : usdAmountInUzs(amount, uzsRate.usdToUzs));
  const base: Omit<ValuationReportData, 'object' | 'market' | 'comparables' | 'location' | 'model' | 'attribution'> = {
    valuationId: record.id,
    organisation,
    createdAt: record.createdAt,
    kind: record.kind === 'HOME' ? 'home' : 'vehicle',
    estimate: usd(v.estimate),
    interval: { low: usd(v.interval.low), high: usd(v.interval.high), coverage: v.interval.coverage },
    confidence: { level: v.confidence.level, score: v.confidence.score, fsd: v.fsd ?? null },
    drivers,
    members: v.models.map((m) => ({ name: m.name, usd: usd(m.estimate), weight: m.weight ?? null })),
    uzs: { estimate: toUzs(v.estimate), low: toUzs(v.interval.low), high: toUzs(v.interval.high), rate: uzsRate.usdToUzs, rateDate: uzsRate.date, basis: uzsRate.basis },
    valuationDate: v.marketLevel.valuationDate,
    dataAgeMonths: v.marketLevel.dataAgeMonths,
    anomalyFlags: v.anomaly.flags,
    marketAdjustment: v.marketAdjustment ? { baseEstimate: usd(v.marketAdjustment.baseEstimate), factor: v.marketAdjustment.factor, group: v.marketAdjustment.group, observations: v.marketAdjustment.observations } : null,
    marketMixture: v.marketMixture ? { newBuildProbability: v.marketMixture.newBuildProbability } : null,
  };
  return record.kind === 'HOME' ? homeReport(executor, record, v, base, lang) : vehicleReport(executor, record, v, base, lang);
}

async function homeReport(executor: GraphExecutor, record: RecordData, v: AnsweredValuation, base: Omit<ValuationReportData, 'object' | 'market' | 'comparables' | 'location' | 'model' | 'attribution'>, lang: ReportLanguage): Promise<ValuationReportData> {
  const request = (record.input as { request: Record<string, unknown> }).request;
  const location = v.location!;
  const isHouse = request.propertyType === 'house';
  // The comparables need nothing of the place: asked for beside it; the location index needs its point.
  const [place, comparables, attribution] = await Promise.all([
    executor.execute<PlaceData>(PLACE_OPERATION, { district: location.district }),
    isHouse ? [] : comparablesOf(executor, request, location, v.marketLevel.valuationDate, lang),
    executor.execute<{ homeEstimateAttribution: EstimateAttribution | null }>(ATTRIBUTION_OPERATION, { id: record.id }).then((a) => a.homeEstimateAttribution),
  ]);
  const district = place.district;
  const mahalla = district?.mahallas.find((m) => m.id === location.mahallaId) ?? null;
  const point: Point | null = typeof request.lat === 'number' && typeof request.lon === 'number' ? { lat: request.lat, lon: request.lon } : (mahalla?.centre ?? district?.centroid ?? null);
  const index = point ? await executor.execute<{ locationIndex: { composite: { score: number | null }; subindexes: { id: string; score: number | null }[] } }>(LOCATION_OPERATION, point) : null;
  const object: ValuationReportData['object'] = {
    property_type: isHouse ? 'house' : 'apartment',
    district: districtName(location.district, lang),
    mahalla: mahallaName(location.mahallaId, location.mahalla, lang),
    area_m2: request.area as number,
    rooms: (request.rooms as number | null) ?? null,
    ...(isHouse ? { land_area_sotka: (request.landAreaSotka as number | null) ?? null } : { floor: request.floor as number, total_floors: request.totalFloors as number, market: (request.market as string | null) ?? null }),
    renovation: (request.renovation as string | null) ?? null,
    building_type: (request.buildingType as string | null) ?? null,
  };
  const accuracy = district?.modelAccuracy;
  const sameModel = place.residentialModel.version === v.modelVersion;
  return {
    ...base,
    object,
    attribution,
    market: {
      district: districtName(location.district, lang),
      districtMedianPricePerM2: v.anomaly.districtMedianPricePerM2 ?? district?.marketStatistics?.medianPricePerM2 ?? null,
      districtListings: district?.marketStatistics?.listings ?? null,
      mahalla: mahallaName(location.mahallaId, location.mahalla, lang),
      mahallaMedianPricePerM2: v.anomaly.mahallaMedianPricePerM2 ?? mahalla?.marketStatistics?.medianPricePerM2 ?? null,
      mahallaListings: mahalla?.marketStatistics?.listings ?? null,
    },
    comparables,
    location: point && index ? { ...point, composite: index.locationIndex.composite.score, subindexes: index.locationIndex.subindexes.map((x) => ({ name: x.id, score: x.score })), districtOutline: outlineOf(location.district) } : null,
    model: {
      version: v.modelVersion,
      trainedAt: sameModel ? place.residentialModel.trainedAt : null,
      // The accuracy is the model in service's; said only when it is the model that valued.
      districtAccuracy: sameModel && accuracy ? { district: districtName(location.district, lang), medianApe: accuracy.medianApe, intervalCoverage: accuracy.intervalCoverage, n: accuracy.n, accuracyClass: accuracy.accuracyClass } : null,
      headline: sameModel ? place.residentialModel.metrics : null,
    },
  };
}

/** The nearest training listings, asked of the residential subgraph with the flat as understood. */
async function comparablesOf(executor: GraphExecutor, request: Record<string, unknown>, location: { district: string; mahalla: string | null; mahallaId: string | null }, valuationDate: string, lang: ReportLanguage): Promise<Comparable[]> {
  const input = {
    district: location.district, mahalla: location.mahalla, area: request.area, rooms: request.rooms, floor: request.floor, totalFloors: request.totalFloors,
    renovation: request.renovation, buildingType: request.buildingType, market: request.market, lat: request.lat, lon: request.lon, valuationDate,
  };
  type Listing = { source: string; period: string; mahalla: string | null; mahallaId: string | null; area: number; rooms: number | null; floor: number | null; totalFloors: number | null; priceUsd: number; priceAtValuationDateUsd: number; distanceKm: number | null };
  const { comparableListings } = await executor.execute<{ comparableListings: Listing[] }>(COMPARABLES_OPERATION, { input: Object.fromEntries(Object.entries(input).filter(([, x]) => x !== null && x !== undefined)) });
  return comparableListings.map((c) => ({
    label: [mahallaName(c.mahallaId, c.mahalla, lang), c.source].filter(Boolean).join(' · '),
    area: c.area,
    rooms: c.rooms,
    floor: c.floor === null ? null : `${c.floor}/${c.totalFloors ?? '?'}`,
    period: c.period,
    priceUsd: c.priceUsd,
    priceAtValuationDateUsd: c.priceAtValuationDateUsd,
    distanceKm: c.distanceKm === null ? null : fixed(c.distanceKm, 2),
    // Under 50 m apart in one mahalla: in practice both placed at its centre, so the distance says nothing.
    sameMahalla: c.mahallaId !== null && c.mahallaId === location.mahallaId && c.distanceKm !== null && c.distanceKm < SAME_PLACE_KM,
  }));
}

async function vehicleReport(executor: GraphExecutor, record: RecordData, v: AnsweredValuation, base: Omit<ValuationReportData, 'object' | 'market' | 'comparables' | 'location' | 'model' | 'attribution'>, lang: ReportLanguage): Promise<ValuationReportData> {
  const [{ vehicleModel }, attribution] = await Promise.all([
    executor.execute<{ vehicleModel: { version: string; trainedAt: string; metrics: { n: number; medianApe: number; intervalCoverage: number } } }>(VEHICLE_MODEL_OPERATION, {}),
    executor.execute<{ vehicleEstimateAttribution: EstimateAttribution | null }>(VEHICLE_ATTRIBUTION_OPERATION, { id: record.id }).then((a) => a.vehicleEstimateAttribution),
  ]);
  const vehicle = v.vehicle ?? {};
  const request = (record.input as { request?: Record<string, unknown> }).request ?? {};
  const sameModel = vehicleModel.version === v.modelVersion;
  const text = (x: unknown) => (x === null || x === undefined ? null : typeof x === 'object' ? JSON.stringify(x) : (x as string | number | boolean));
  return {
    ...base,
    object: { make: text(vehicle.make), model: text(vehicle.model), year: text(vehicle.year), mileage_km: text(request.mileageKm), engine_l: text(vehicle.engine), fuel: text(vehicle.fuel), transmission: text(vehicle.transmission), body_type: text(vehicle.bodyType), region: text(vehicle.region) },
    market: null,
    // Null for a vehicle model without typical cars: the figures behind the estimate then.
    attribution,
    comparables: [],
    location: null,
    model: { version: v.modelVersion, trainedAt: sameModel ? vehicleModel.trainedAt : null, districtAccuracy: null, headline: sameModel ? vehicleModel.metrics : null },
  };
}

/** What a report route needs beyond the graph: the plan's `reports` allowance, and the threads PDFs render on. */
export interface ReportServices {
  meter: WorkMeter;
  renderer: ReportRenderer;
}

export function registerValuationReportRoute(app: FastifyInstance, graph: Graph, auth: { either: preHandlerAsyncHookHandler }, reports: ReportServices): void {
  app.get('/api/valuations/:id/report', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: 'A report of one recorded valuation a credit committee can file: PDF (default) or HTML, in English, Russian or Uzbek (API key or bearer token)',
      description: 'The object, the estimate with its interval drawn (USD and soʻm at the rate of the valuation date), confidence and what drives it, the district and mahalla market figures, comparable training listings brought to the valuation date, the location index with a small map, the anomaly flags, the model version and its held-out accuracy in the district, and the disclaimer (asking prices, not transaction prices). 404 for a valuation of another organisation. Each report takes one of the plan\'s `reports` allowance (per minute and day): past it, 429 RATE_LIMITED with Retry-After; while the render threads are busy with others, 503 SERVICE_UNAVAILABLE with Retry-After.',
      security: SECURITY.apiKeyOrBearer,
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'A valuation_id' } } },
      querystring: { type: 'object', properties: { lang: { type: 'string', enum: [...REPORT_LANGUAGES] }, format: { type: 'string', enum: ['pdf', 'html'] } } },
      response: {
        200: { content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, 'text/html': { schema: { type: 'string' } } } },
        '4xx': errorResponseJsonSchema(),
        '5xx': errorResponseJsonSchema(),
      },
    },
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const { lang = 'en', format = 'pdf' } = request.query as { lang?: ReportLanguage; format?: 'pdf' | 'html' };
    // Charged before any of its work (the graph calls gathering its data, then the render).
    await reports.meter.chargeReport(request.principal);
    const executor = gatewayExecutor(graph, request);
    const valuation = await valuationRecordOf(executor, id);
    if (!valuation) throw notFound(id);
    const data = await reportData(executor, valuation, request.principal!.org, lang);
    const name = `valuation-${valuation.id}-${lang}`;
    if (format === 'html') return reply.type('text/html; charset=utf-8').header('content-security-policy', REPORT_CSP).header('content-disposition', `inline; filename="${name}.html"`).send(renderReportHtml(data, lang));
    return reply.type('application/pdf').header('content-disposition', `inline; filename="${name}.pdf"`).send(await reports.renderer.pdf({ report: 'valuation', data, lang }));
  });
}
