/**
 * Values a file of API-format requests (one JSON object per line) through the runtimes the service uses:
 * `valuateFile`, the library of `npm run valuate` (tools/models/valuate-cli.ts, which says what it does
 * with the file and parses the arguments).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { valueEach } from '../schema/bulk';
import { ApiError } from '../schema/errors';
import { parseHomeRestBody, toHomeRestResponse } from '../schema/home-rest';
import { parseVehicleRestBody, toVehicleRestResponse } from '../schema/vehicle-rest';
import { askedCurrency, inCurrency, type AskedCurrency, type Currency } from './currency';
import { normaliseHomeInput, type HomeInput, type NormalisedHomeInput } from './residential/request';
import { valueHomes } from './residential/value-homes';
import type { ResidentialRuntime } from './residential/valuation';
import { normaliseVehicleInput, valueVehicles, type NormalisedVehicleInput, type VehicleInput } from './vehicle/request';
import type { VehicleRuntime } from './vehicle/valuation';

/** Lines valued per chunk. @default 1000 (one vectorised ONNX call per member and kind) */
const CHUNK = 1000;

export const VALUATION_KINDS = ['home', 'vehicle'] as const;
export type ValuationKind = (typeof VALUATION_KINDS)[number];

/** The runtime of each kind, loaded on first use (a file of homes never loads the vehicle model). */
export interface ValuateRuntimes {
  home?: () => Promise<ResidentialRuntime>;
  vehicle?: () => Promise<VehicleRuntime>;
}

export interface ValuateOptions {
  /** The kind of a line without a `kind` field. @default 'home' */
  defaultKind?: ValuationKind;
  /** The valuation_date of a line without one (YYYY-MM-DD or YYYY-MM). @default today */
  valuationDate?: string;
}

export interface ValuateSummary {
  lines: number;
  valued: number;
  failed: number;
}

/** How the lines of one kind are read and valued: exactly as its REST route reads and answers them. */
interface KindValuer<N> {
  /** REST checks and normalisation; throws ApiError. */
  parse(body: Record<string, unknown>): N;
  /** One runtime call for all: the REST reply or an ApiError for each, in order. */
  value(parsed: N[]): Promise<unknown[]>;
}

/**
 * Loads the kind's runtime and values with it; when it cannot be loaded (no model promoted), each
 * line gets that error and the lines of the other kind go on.
 */
async function withRuntime<R, T>(kind: ValuationKind, loader: (() => Promise<R>) | undefined, count: number, use: (runtime: R) => Promise<(T | ApiError)[]>): Promise<(T | ApiError)[]> {
  let runtime: R;
  try {
    if (!loader) throw new ApiError('SERVICE_UNAVAILABLE', `no ${kind} model is available to value this line`);
    runtime = await loader();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return new Array<ApiError>(count).fill(error);
  }
  return use(runtime);
}

type Valuers = { [K in ValuationKind]: KindValuer<unknown> };

function valuers(runtimes: ValuateRuntimes, valuationDate: string | undefined): Valuers {
  /** The line's own valuation_date, else the run's. */
  const dated = (body: Record<string, unknown>) =>
    valuationDate !== undefined && (body.valuation_date === undefined || body.valuation_date === null) ? { ...body, valuation_date: valuationDate } : body;
  // A line's currency is converted to as the service converts it (models/currency), after the model.
  const home: KindValuer<{ parsed: NormalisedHomeInput; restWarnings: string[]; asked: AskedCurrency }> = {
    parse(body) {
      const { input, warnings } = parseHomeRestBody(dated(body));
      return { parsed: normaliseHomeInput(input as unknown as HomeInput), restWarnings: warnings, asked: askedCurrency(input as { currency?: Currency; exchangeRate?: number }) };
    },
    value: (items) => withRuntime('home', runtimes.home, items.length, async (runtime) => {
      const views = await valueHomes(runtime, items.map((i) => i.parsed));
      return views.map((v, i) => (v instanceof ApiError ? v : toHomeRestResponse(inCurrency(v, items[i].asked.currency, items[i].asked.ownRate), items[i].restWarnings)));
    }),
  };
  const vehicle: KindValuer<{ parsed: NormalisedVehicleInput; restWarnings: string[]; asked: AskedCurrency }> = {
    parse(body) {
      const { input, warnings } = parseVehicleRestBody(dated(body));
      return { parsed: normaliseVehicleInput(input as unknown as VehicleInput), restWarnings: warnings, asked: askedCurrency(input as { currency?: Currency; exchangeRate?: number }) };
    },
    value: (items) => withRuntime('vehicle', runtimes.vehicle, items.length, async (runtime) => {
      const views = await valueVehicles(runtime, items.map((i) => i.parsed));
      return views.map((v, i) => (v instanceof ApiError ? v : toVehicleRestResponse(inCurrency(v, items[i].asked.currency, items[i].asked.ownRate), items[i].restWarnings)));
    }),
  };
  return { home, vehicle } as Valuers;
}

export async function valuateFile(inputPath: string, outputPath: string, runtimes: ValuateRuntimes, options: ValuateOptions = {}): Promise<ValuateSummary> {
  const byKind = valuers(memoised(runtimes), options.valuationDate);
  const defaultKind = options.defaultKind ?? 'home';
  const output = createWriteStream(outputPath);
  const summary: ValuateSummary = { lines: 0, valued: 0, failed: 0 };
  let chunk: string[] = [];
  const flush = async () => {
    const text = await valuateChunk(chunk, byKind, defaultKind, summary);
    chunk = [];
    if (!output.write(text)) await once(output, 'drain');
  };
  for await (const line of createInterface({ input: createReadStream(inputPath), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    chunk.push(line);
    if (chunk.length === CHUNK) await flush();
  }
  if (chunk.length) await flush();
  output.end();
  await once(output, 'finish');
  return summary;
}

/** A line → its kind and API body; throws INVALID_JSON, or INVALID_PARAMETER for an unknown kind. */
function readLine(line: string, defaultKind: ValuationKind): { kind: ValuationKind; body: Record<string, unknown> } {
  let body: unknown;
  try {
    body = JSON.parse(line);
  } catch {
    throw new ApiError('INVALID_JSON', 'The line is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('kind' in body)) {
    return { kind: defaultKind, body: body as Record<string, unknown> };
  }
  const { kind, ...rest } = body as Record<string, unknown>;
  if (!VALUATION_KINDS.includes(kind as ValuationKind)) {
    throw new ApiError('INVALID_PARAMETER', `kind must be one of ${VALUATION_KINDS.join(', ')}`, 'kind');
  }
  return { kind: kind as ValuationKind, body: rest };
}

async function valuateChunk(lines: readonly string[], byKind: Valuers, defaultKind: ValuationKind, summary: ValuateSummary): Promise<string> {
  const results: unknown[] = new Array(lines.length);
  const linesOf = new Map<ValuationKind, { index: number; body: Record<string, unknown> }[]>();
  lines.forEach((line, index) => {
    try {
      const { kind, body } = readLine(line, defaultKind);
      linesOf.set(kind, [...(linesOf.get(kind) ?? []), { index, body }]);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results[index] = error;
    }
  });
  for (const [kind, items] of linesOf) {
    const valuer = byKind[kind];
    const answers = await valueEach(items, (item) => valuer.parse(item.body), (parsed) => valuer.value(parsed));
    items.forEach((item, i) => {
      results[item.index] = answers[i];
    });
  }
  summary.lines += lines.length;
  return results
    .map((result) => {
      if (result instanceof ApiError) {
        summary.failed++;
        return `${JSON.stringify({ error: result.toBody() })}\n`;
      }
      summary.valued++;
      return `${JSON.stringify(result)}\n`;
    })
    .join('');
}

/** Each loader runs once, however many chunks ask for it. */
function memoised(runtimes: ValuateRuntimes): ValuateRuntimes {
  const once = <R>(loader: (() => Promise<R>) | undefined) => {
    let loaded: Promise<R> | undefined;
    return loader && (() => (loaded ??= loader()));
  };
  return { home: once(runtimes.home), vehicle: once(runtimes.vehicle) };
}
