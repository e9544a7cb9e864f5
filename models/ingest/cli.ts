/**
 * `node .build/ingest/models/ingest/cli.js`: runs the ingestion, prints the report and writes it to
 * <ARTIFACTS_DIR>/residential/ingest-report.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../paths';
import { ingestListings } from './pipeline';
import { formatReport } from './report-table';

const { report } = ingestListings();
const directory = join(ARTIFACTS_DIR, 'residential');
mkdirSync(directory, { recursive: true });
const path = join(directory, 'ingest-report.json');
writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
process.stdout.write(formatReport(report) + `\nReport written to ${path}\n`);
