/**
 * `npm run train`: the monthly refresh of every kind of model, one after the other.
 * `--kind residential|house|vehicle` trains one; `--no-promote` writes versions without promoting them;
 * `--with-observations FILE` adds an organisation's observation export (GET /api/observations) as a
 * dated source of its own: homes to the flat model, vehicles to the vehicle model.
 * The collected exports (`npm run collect -- --export`) are read when there are some: the newest
 * `exports/collected-homes-<day>.ndjson` and `exports/collected-cars-<day>.ndjson` of the collect
 * folder (COLLECT_DIR, else <VALUATION_HOME>/collect), or of the collect folder given as
 * `--collected DIR`, or the one file given as `--collected FILE` (a `collected-cars-…` file is the
 * cars', any other the homes'); the flats and houses join the listings as sources of their own
 * (models/ingest/collected-homes.ts), the cars the vehicle listings (models/vehicle/ingest/collected-cars.ts).
 * `--no-collected` trains on the listing files alone. Without an export, training is as before.
 * Exit code 3 when a version was written but not promoted.
 */
import { parseArgs } from 'node:util';
import { checkRatesAgainstListings, describeRateCheck } from '../../models/currency/rates-check';
import { readObservationExport } from '../../models/ingest/observation-export';
import { describeCollected, readCollectedHomes } from '../../models/ingest/collected-homes';
import { ingestVehicles } from '../../models/vehicle/ingest';
import { collectedExportFiles, describeCollectedCars, readCollectedCars } from '../../models/vehicle/ingest/collected-cars';
import { trainResidentialVersion } from './residential/train-cli';
import { trainVehicleVersion } from './vehicle/train-cli';
import { trainHouseVersion } from './house/train-cli';

const KINDS = ['residential', 'house', 'vehicle'] as const;

async function main(argv: string[]): Promise<void> {
  // strict: an unknown or misspelt option is an error before hours of training, not ignored.
  const { values } = parseArgs({ args: argv, options: { kind: { type: 'string' }, 'no-promote': { type: 'boolean' }, 'with-observations': { type: 'string' }, collected: { type: 'string' }, 'no-collected': { type: 'boolean' } }, strict: true });
  const only = values.kind;
  if (only !== undefined && !(KINDS as readonly string[]).includes(only)) throw new Error(`--kind must be one of ${KINDS.join(', ')}`);
  const homesTrained = only !== 'vehicle';
  // Read and checked before any training: a bad line stops the run at once.
  const observations = values['with-observations'] === undefined ? null : readObservationExport(values['with-observations']);
  const files = values['no-collected'] ? { homes: null, cars: null } : collectedExportFiles(values.collected);
  const collected = files.homes === null || !homesTrained ? null : readCollectedHomes(files.homes);
  if (collected) console.log(describeCollected(collected.report));
  // The collected cars' engine sizes are judged against the listing files' medians of their model.
  const collectedCars = files.cars === null || (only !== undefined && only !== 'vehicle') ? null : readCollectedCars(files.cars, ingestVehicles().records);
  if (collectedCars) console.log(describeCollectedCars(collectedCars.report));
  // The refresh checks the soʻm rate table against the listing files that state both currencies.
  for (const check of checkRatesAgainstListings()) console.log(describeRateCheck(check));
  let exitCode = 0;
  for (const kind of KINDS) {
    if (only && kind !== only) continue;
    const trained = kind === 'vehicle' ? trainVehicleVersion(argv, observations, collectedCars) : (kind === 'house' ? trainHouseVersion : trainResidentialVersion)(argv, observations, collected);
    exitCode = Math.max(exitCode, await trained);
  }
  process.exitCode = exitCode;
}

main(process.argv.slice(2)).catch((error) => {
  // A bad option is the user's to fix: its message, not a stack.
  const usage = error instanceof Error && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(usage ? `${error.message}\nusage: npm run train [-- --kind residential|house|vehicle] [--no-promote] [--with-observations FILE] [--collected FILE|DIR | --no-collected]` : error);
  process.exit(usage ? 2 : 1);
});
