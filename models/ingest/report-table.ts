/** The ingestion report as plain-text tables for the terminal. */
import { DISTRICT_IDS } from '../vocabulary';
import { CORRECTIONS, DROP_REASONS, type Correction, type DropReason } from './reasons';
import type { IngestReport } from './report';

type Cell = string | number;

function table(header: Cell[], rows: Cell[][]): string {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

const dash = (n: number | undefined) => (n ? n : '·');

export function formatReport(report: IngestReport): string {
  const sources = report.sources.map((s) => s.source);
  const sections: string[] = [];

  sections.push(
    `Listing ingestion, data snapshot ${report.snapshot.id}: ${report.totals.rowsIn} rows in, ` +
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

  const reasons = (Object.keys(DROP_REASONS) as DropReason[]).filter((reason) => report.totals.dropped[reason]);
  sections.push(
    'Dropped, by reason\n' +
      table(
        ['reason', ...sources, 'total'],
        reasons.map((reason) => [reason, ...report.sources.map((s) => dash(s.dropped[reason])), dash(report.totals.dropped[reason])]),
      ) +
      '\n' +
      reasons.map((reason) => `  ${reason}: ${DROP_REASONS[reason]}`).join('\n'),
  );

  const corrections = (Object.keys(CORRECTIONS) as Correction[]).filter((c) => report.sources.some((s) => s.corrections[c]));
  sections.push(
    'Corrected in records kept\n' +
      table(['correction', ...sources], corrections.map((c) => [c, ...report.sources.map((s) => dash(s.corrections[c]))])),
  );

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

  sections.push(
    'Personal data in free-text cells (never copied into records)\n' +
      table(
        ['source', 'phones', 'e-mails', 'contact names'],
        report.sources.map((s) => [s.source, s.personalData.phones, s.personalData.emails, s.personalData.contactNames]),
      ),
  );
  return sections.join('\n\n') + '\n';
}
