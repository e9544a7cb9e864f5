/** The vehicle ingestion report as plain-text tables for the terminal. */
import { dash, ledgerSections, personalDataSection, table } from '../../ingest/report-table';
import { VEHICLE_FENCE } from './limits';
import { FENCE_YEAR_WINDOWS } from './outliers';
import { VEHICLE_CORRECTIONS, VEHICLE_DROP_REASONS } from './reasons';
import type { VehicleIngestReport } from './report';

/** Models with at least this many records count as modelled on their own data. */
export const WELL_COVERED_MODEL = 30;
const TOP = 15;

export function formatVehicleReport(report: VehicleIngestReport): string {
  const sources = report.sources.map((s) => s.source);
  const sections = ledgerSections('Vehicle ingestion', report, VEHICLE_DROP_REASONS, VEHICLE_CORRECTIONS, true);

  const wellCovered = report.recordsByModel.filter((m) => m.records >= WELL_COVERED_MODEL).length;
  sections.push(
    `Records per make (top ${TOP} of ${report.recordsByMake.length})\n` +
      table(['make', 'records'], report.recordsByMake.slice(0, TOP).map((m) => [m.make, m.records])),
  );
  sections.push(
    `Records per model (top ${TOP} of ${report.recordsByModel.length}; ${wellCovered} with ${WELL_COVERED_MODEL} or more)\n` +
      table(
        ['make', 'model', ...sources, 'total'],
        report.recordsByModel.slice(0, TOP).map((m) => [m.make, m.model, ...sources.map((s) => dash(m.bySource[s])), m.records]),
      ),
  );

  const windows = FENCE_YEAR_WINDOWS.map((w) => `${report.priceFences.filter((f) => f.yearsAround === w).length} from ±${w} years`);
  sections.push(
    `Price fences per model and model year: ${windows.join(', ')}; ${report.unfencedRecords} records in no group of ` +
      `${VEHICLE_FENCE.minGroup} (kept unfenced)\n` +
      table(
        ['source', 'make', 'model', 'year', '±', 'records', 'median $', 'low $', 'high $'],
        [...report.priceFences]
          .sort((a, b) => b.records - a.records)
          .slice(0, TOP)
          .map((f) => [f.source, f.make, f.model, f.year, f.yearsAround, f.records, f.medianUsd, f.lowUsd, f.highUsd]),
      ),
  );

  sections.push(
    'City or district cells no region was found for (records kept, region unknown)\n' +
      table(
        ['source', 'cell', 'records'],
        report.sources.flatMap((s) => Object.entries(s.unresolvedRegions).map(([cell, n]) => [s.source, cell, n])),
      ),
  );
  sections.push(personalDataSection('Personal data in any cell (never copied into records)', report.sources));
  return sections.join('\n\n') + '\n';
}
