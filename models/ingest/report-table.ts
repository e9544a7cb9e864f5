/** The ingestion report as plain-text tables for the terminal. */
import { DISTRICT_IDS } from '../vocabulary';
import { CORRECTIONS, DROP_REASONS } from './reasons';
import type { IngestReport, LedgerReport } from './report';

export type Cell = string | number;

/** Columns padded to their widest cell: the first left-aligned, the rest right-aligned. */
export function table(header: Cell[], rows: Cell[][]): string {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** A count, or a dot for none. */
export const dash = (n: number | undefined): Cell => (n ? n : '·');

/** What the header and ledger tables need: the residential and the vehicle reports both have it. */
export interface LedgerSummary<D extends string, C extends string> {
  snapshot: { id: string };
  sources: readonly LedgerReport<string, D, C>[];
  totals: { rowsIn: number; rowsOut: number; dropped: Partial<Record<D, number>> };
  elapsedMs: number;
}

/**
 * The sections every ingestion report opens with: a header line, rows in and out per source, drops by
 * reason (explained), corrections by source (explained too when `explainCorrections`).
 */
export function ledgerSections<D extends string, C extends string>(
  title: string,
  report: LedgerSummary<D, C>,
  reasons: Readonly<Record<D, string>>,
  corrections: Readonly<Record<C, string>>,
  explainCorrections = false,
): string[] {
  const sources = report.sources.map((s) => s.source);
  const sections: string[] = [];

  sections.push(
    `${title}, data snapshot ${report.snapshot.id}: ${report.totals.rowsIn} rows in, ` +
      `${report.totals.rowsOut} records out, in ${(report.elapsedMs / 1000).toFixed(1)} s`,
  );
  sections.push(
    table(
      ['source', 'period', 'rows in', 'out', 'dropped'],
      [
        ...report.sources.map((s) => [s.source, s.period, s.rowsIn, s.rowsOut, s.rowsIn - s.rowsOut]),
        ['total', '', report.totals.rowsIn, report.totals.rowsOut, report.totals.rowsIn - report.totals.rowsOut],
      ],
    ),
  );

  const dropped = (Object.keys(reasons) as D[]).filter((reason) => report.totals.dropped[reason]);
  sections.push(
    'Dropped, by reason\n' +
      table(
        ['reason', ...sources, 'total'],
        dropped.map((reason) => [reason, ...report.sources.map((s) => dash(s.dropped[reason])), dash(report.totals.dropped[reason])]),
      ) +
      '\n' +
      dropped.map((reason) => `  ${reason}: ${reasons[reason]}`).join('\n'),
  );

  const corrected = (Object.keys(corrections) as C[]).filter((c) => report.sources.some((s) => s.corrections[c]));
  sections.push(
    'Corrected in records kept\n' +
      table(['correction', ...sources], corrected.map((c) => [c, ...report.sources.map((s) => dash(s.corrections[c]))])) +
      (explainCorrections ? '\n' + corrected.map((c) => `  ${c}: ${corrections[c]}`).join('\n') : ''),
  );
  return sections;
}

export function formatReport(report: IngestReport): string {
  const sources = report.sources.map((s) => s.source);
  const sections = ledgerSections('Listing ingestion', report, DROP_REASONS, CORRECTIONS);

  sections.push(
    'Same flat in two sources (dropped → kept in)\n' +
      table(['dropped from', 'kept in', 'records'], report.crossSourceMerges.map((m) => [m.dropped, m.keptIn, m.count])),
  );

  const fallbacks = Object.entries(report.fallbackDistricts);
  sections.push(
    'Fall-back district detected: ' + (fallbacks.length === 0 ? 'none' : fallbacks.map(([source, district]) => `${source} → ${district}`).join(', ')),
  );

  sections.push(
    'Records per district\n' +
      table(
        ['district', ...sources, 'total'],
        DISTRICT_IDS.map((d) => [d, ...sources.map((s) => dash(report.recordsBySourceAndDistrict[s][d])), report.recordsByDistrict[d]]),
      ),
  );

  sections.push(
    'Price fences, USD per m² (median, low, high)\n' +
      table(
        ['type', 'era', 'district', 'records', 'median', 'low', 'high'],
        report.priceFences.map((f) => [f.propertyType, f.era, f.district, f.records, f.medianUsdPerM2, f.lowUsdPerM2, f.highUsdPerM2]),
      ),
  );

  sections.push(personalDataSection('Personal data in free-text cells (never copied into records)', report.sources));
  return sections.join('\n\n') + '\n';
}

/** What the scan for phone numbers, e-mails and contact names found, per source. */
export function personalDataSection(heading: string, sources: readonly LedgerReport<string, string, string>[]): string {
  return (
    `${heading}\n` +
    table(
      ['source', 'phones', 'e-mails', 'contact names'],
      sources.map((s) => [s.source, s.personalData.phones, s.personalData.emails, s.personalData.contactNames]),
    )
  );
}
