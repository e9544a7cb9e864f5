/**
 * An organisation's observation export (GET /api/observations, one JSON object a line) read as a
 * dated training source: `npm run train -- --with-observations FILE` (issue 18, item 4).
 *
 * Each line carries the valuation request as the service understood it (`input`: canonical codes,
 * made by the same normalisers serving runs), so a kind's trainer maps it to its record without
 * re-reading free text. The file is checked whole before training starts: a bad line stops the run
 * with its number, rather than training hours on part of a file.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export type ObservedPriceType = 'sale' | 'appraisal' | 'listing';
const PRICE_TYPES: readonly ObservedPriceType[] = ['sale', 'appraisal', 'listing'];

/** One exported observation, checked. */
export interface ExportedObservation {
  /** 1-based line of the file. */
  line: number;
  id: string;
  kind: 'home' | 'vehicle';
  /** YYYY-MM-DD */
  observedAt: string;
  priceUsd: number;
  priceType: ObservedPriceType;
  /** The canonical request (models/residential's HomeRequest or models/vehicle's VehicleRequest fields). */
  input: Record<string, unknown>;
}

/** The file as a dated source: its observations and what identifies it in a manifest. */
export interface ObservationExport {
  /** The file's name (not its path: manifests are read on other machines). */
  file: string;
  sha256: string;
  observations: ExportedObservation[];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkedLine(value: unknown, line: number): ExportedObservation {
  const bad = (what: string): never => {
    throw new Error(`observation export, line ${line}: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad('not a JSON object');
  const o = value as Record<string, unknown>;
  if (o.kind !== 'home' && o.kind !== 'vehicle') bad('kind must be home or vehicle');
  if (typeof o.observed_at !== 'string' || !ISO_DATE.test(o.observed_at) || Number.isNaN(Date.parse(o.observed_at))) bad('observed_at must be a date, YYYY-MM-DD');
  if (typeof o.price_usd !== 'number' || !(o.price_usd > 0) || !Number.isFinite(o.price_usd)) bad('price_usd must be a positive number');
  const priceType = o.price_type ?? 'listing';
  if (!PRICE_TYPES.includes(priceType as ObservedPriceType)) bad(`price_type must be one of ${PRICE_TYPES.join(', ')}`);
  if (typeof o.input !== 'object' || o.input === null || Array.isArray(o.input)) bad('input must be the request object the export gives');
  return {
    line,
    id: typeof o.id === 'string' ? o.id : `line-${line}`,
    kind: o.kind as ExportedObservation['kind'],
    observedAt: o.observed_at as string,
    priceUsd: o.price_usd as number,
    priceType: priceType as ObservedPriceType,
    input: o.input as Record<string, unknown>,
  };
}

/** Reads and checks an export; throws on the first bad line, naming it. */
export function readObservationExport(path: string): ObservationExport {
  const bytes = readFileSync(path);
  const observations: ExportedObservation[] = [];
  bytes.toString('utf8').split('\n').forEach((text, i) => {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`observation export, line ${i + 1}: not JSON`);
    }
    observations.push(checkedLine(value, i + 1));
  });
  return { file: basename(path), sha256: createHash('sha256').update(bytes).digest('hex'), observations };
}

/** 'YYYY-MM' of an observation: its period as a dated source. */
export const observedPeriod = (observation: ExportedObservation): string => observation.observedAt.slice(0, 7);
