/**
 * `npm run backtest -- --kind home|vehicle --observations FILE [--format json|csv|pdf] [--out FILE]`:
 * a bank's backtest on this machine (issue 31). FILE is the export GET /api/observations gives
 * (NDJSON), or a CSV or NDJSON file of valuation requests with price_usd and observed_at, read by
 * the same reader as POST /api/observations and POST /api/backtest. Each row is valued at its own
 * date with the model in service (the runtimes `npm run valuate` loads) and scored as a backtest
 * job scores it; backtest() replays them; a summary is printed and the report written as JSON, CSV
 * (the per-observation rows, then the summary tables after a blank line) or the committee's PDF.
 * A bad row is refused in place, with its line, field and catalogue code; the others go on.
 * Here rather than in models/: it reads files as the REST doors do and scores as the subgraphs do.
 */
import 'reflect-metadata';
import { createReadStream, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { backtest, type BacktestReport } from '../models/observations';
import { ResidentialModelService } from '../models/residential';
import { VEHICLE_DIR, VehicleModelService } from '../models/vehicle';
import { ApiError } from '../schema/errors';
import { hierarchyOf, type BacktestItemResult } from '../subgraphs/batch/backtest-items';
import { backtestResultOf, checkedBacktestObservation } from '../subgraphs/batch/backtest-scoring';
import type { ObservationItem, ScoredItem } from '../subgraphs/common/observation-recording';
import type { ForwardedItem } from '../subgraphs/common/observation-envelope';
import { scoreHomes } from '../subgraphs/residential/observations';
import { scoreVehicles } from '../subgraphs/vehicle/observations';
import { backtestStatement, biasText, renderBacktestPdf, type BacktestReportData } from '../gateway/reports/backtest-content';
import { backtestRowsCsv, backtestSummaryCsv } from '../gateway/reports/backtest-csv';
import { backtestObservation } from '../gateway/operations/backtest';
import { numberedObservations, type UploadType } from '../gateway/rest/observation-uploads';

type Kind = 'home' | 'vehicle';
type Score = (items: readonly ObservationItem[]) => Promise<(ScoredItem | ApiError)[]>;

/** A row the backtest could not use: where it is in the file, and why (the catalogue's code, the field at fault). */
export interface RefusedRow {
  line: number;
  code: string;
  field: string | null;
  message: string;
}

/** Rows scored per model call. */
const CHUNK = 1000;

/** CSV by its name, else NDJSON (the export is NDJSON). */
const typeOf = (file: string): UploadType => (file.toLowerCase().endsWith('.csv') ? 'text/csv' : 'application/x-ndjson');

/**
 * Reads, checks and scores the file's rows a chunk at a time, then replays them: the report as the
 * service gives it for a job (with what was submitted and refused), and each refused row.
 */
export async function backtestFile(file: string, kind: Kind, score: Score, options: { today?: string; onProgress?: (done: number, total: number) => void } = {}): Promise<{ report: BacktestReportData; refused: RefusedRow[] }> {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const refused: RefusedRow[] = [];
  const scored: BacktestItemResult[] = [];
  let submitted = 0;
  let chunk: { line: number; item: ForwardedItem }[] = [];
  const refuse = (line: number, error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    refused.push({ line, code: error.code, field: error.field ?? null, message: error.message });
  };
  const flush = async () => {
    const results = await score(chunk.map((c) => c.item));
    results.forEach((result, i) => {
      if (result instanceof ApiError) return refuse(chunk[i].line, result);
      scored.push(backtestResultOf(kind, chunk[i].item, result));
    });
    chunk = [];
  };
  for await (const { line, item } of numberedObservations(createReadStream(file), typeOf(file))) {
    submitted++;
    try {
      // The REST door's reading (refusals kept as such), then the job's checks.
      chunk.push({ line, item: checkedBacktestObservation(backtestObservation(item, kind), kind, today) });
    } catch (error) {
      refuse(line, error);
    }
    if (chunk.length === CHUNK) await flush();
  }
  if (chunk.length > 0) await flush();
  refused.sort((a, b) => a.line - b.line);
  const report: BacktestReport = backtest(scored, { hierarchy: hierarchyOf(kind), onProgress: options.onProgress });
  const modelVersions = [...new Set(scored.map((o) => o.modelVersion))].sort();
  return { report: { ...report, kind, submitted, modelVersions, refused: { count: refused.length } }, refused };
}

/** The report as --format asks: JSON (with the refused rows), CSV (rows, a blank line, the summary), or the PDF. */
export async function formatted(format: string, report: BacktestReportData, refused: RefusedRow[]): Promise<Buffer | string> {
  if (format === 'pdf') return renderBacktestPdf(report);
  if (format === 'csv') return `${backtestRowsCsv(report)}\r\n${backtestSummaryCsv(report)}`;
  return `${JSON.stringify({ ...report, refused: { count: refused.length, rows: refused } }, null, 2)}\n`;
}

const pct = (share: number) => (Number.isFinite(share) ? `${(share * 100).toFixed(1)}%` : '—');

/** What the terminal shows: the statement, each refusal with its line, and the overall table. */
export function summaryText(report: BacktestReportData, refused: readonly RefusedRow[]): string {
  const lines = [backtestStatement(report), ''];
  for (const r of refused) lines.push(`line ${r.line}: ${r.code}${r.field ? ` (${r.field})` : ''}: ${r.message}`);
  if (refused.length) lines.push('');
  lines.push('               median APE  within ±10%  median bias [95% CI]     90% coverage  median width');
  for (const [name, m] of [['model alone', report.overall.modelAlone], ['re-anchored', report.overall.reanchored]] as const) {
    lines.push(`${name.padEnd(15)}${pct(m.medianApe).padStart(10)}  ${pct(m.within10).padStart(11)}  ${biasText(m).padEnd(23)}  ${pct(m.coverage.share).padStart(12)}  ${pct(m.medianWidth).padStart(12)}`);
  }
  return lines.join('\n');
}

const OPTIONS = { kind: { type: 'string' }, observations: { type: 'string' }, format: { type: 'string', default: 'json' }, out: { type: 'string' } } as const;
const USAGE = 'usage: npm run backtest -- --kind home|vehicle --observations FILE [--format json|csv|pdf] [--out FILE]';

async function main(argv: string[]): Promise<void> {
  let values: Partial<Record<keyof typeof OPTIONS, string>>;
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const { kind, observations, format = 'json', out } = values;
  if ((kind !== 'home' && kind !== 'vehicle') || !observations || !['json', 'csv', 'pdf'].includes(format) || (format === 'pdf' && !out)) {
    console.error(`${USAGE}\n  (--format pdf needs --out)`);
    process.exit(2);
  }
  const close: (() => Promise<void>)[] = [];
  let score: Score;
  if (kind === 'home') {
    const runtime = await ResidentialModelService.start({ pollMs: 60_000 });
    close.push(() => runtime.close());
    score = scoreHomes(runtime);
  } else {
    const runtime = await VehicleModelService.start(VEHICLE_DIR, {});
    if (!runtime) throw new Error(`no vehicle model is promoted in ${VEHICLE_DIR}`);
    close.push(() => runtime.close());
    score = scoreVehicles(() => runtime);
  }
  try {
    const { report, refused } = await backtestFile(observations, kind, score, { onProgress: (done, total) => process.stderr.write(`\rreplayed ${done} of ${total}`) });
    process.stderr.write('\n');
    console.log(summaryText(report, refused));
    const document = await formatted(format, report, refused);
    if (out) {
      writeFileSync(out, document);
      console.log(`\n${format.toUpperCase()} → ${out}`);
    } else {
      process.stdout.write(`\n${document}`);
    }
  } finally {
    for (const c of close) await c();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
