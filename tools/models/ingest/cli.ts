/**
 * `node .build/ingest/tools/models/ingest/cli.js [--vehicles | --all]`: runs the ingestion, prints the report
 * and writes it to <ARTIFACTS_DIR>/residential/ingest-report.json. With --vehicles the vehicle
 * listings instead (report in <ARTIFACTS_DIR>/vehicle/ingest-report.json); with --all both.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ARTIFACTS_DIR } from '../../../models/paths';
import { formatVehicleReport, ingestVehicles } from '../../../models/vehicle/ingest';
import { ingestListings } from '../../../models/ingest/pipeline';
import { formatReport } from '../../../models/ingest/report-table';

function writeReport(family: string, report: object, text: string): void {
  const directory = join(ARTIFACTS_DIR, family);
  mkdirSync(directory, { recursive: true });
  const path = join(directory, 'ingest-report.json');
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(text + `\nReport written to ${path}\n`);
}

// strict: a misspelt flag is an error, not a silent residential run.
const { values } = (() => {
  try {
    return parseArgs({ options: { vehicles: { type: 'boolean', default: false }, all: { type: 'boolean', default: false } }, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: npm run ingest [-- --vehicles | --all]`);
    process.exit(2);
  }
})();
const residential = !values.vehicles || values.all;
const vehicles = values.vehicles || values.all;

if (residential) {
  const { report } = ingestListings();
  writeReport('residential', report, formatReport(report));
}
if (vehicles) {
  if (residential) process.stdout.write('\n');
  const { report } = ingestVehicles();
  writeReport('vehicle', report, formatVehicleReport(report));
}
