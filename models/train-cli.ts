/**
 * `npm run train`: the monthly refresh of every kind of model, one after the other.
 * `--kind residential|house|vehicle` trains one; `--no-promote` writes versions without promoting them;
 * `--with-observations FILE` adds an organisation's observation export (GET /api/observations) as a
 * dated source of its own: homes to the flat model, vehicles to the vehicle model.
 * The collected homes export (`npm run collect -- --export`) is read when there is one: the newest
 * `exports/collected-homes-<day>.ndjson` of the collect folder (COLLECT_DIR, else
 * <VALUATION_HOME>/collect), or the file or collect folder given as `--collected PATH`; its flats
 * and houses join the listings as sources of their own (models/ingest/collected-homes.ts).
 * `--no-collected` trains on the listing files alone. Without an export, training is as before.
 * Exit code 3 when a version was written but not promoted.
 */
import { parseArgs } from 'node:util';
import { checkRatesAgainstListings, describeRateCheck } from './currency/rates-check';
import { readObservationExport } from './ingest/observation-export';
import { collectedHomesFile, describeCollected, readCollectedHomes } from './ingest/collected-homes';
import { trainResidentialVersion } from './residential/train-cli';
import { trainVehicleVersion } from './vehicle/train-cli';
import { trainHouseVersion } from './house/train-cli';

const KINDS = { residential: trainResidentialVersion, house: trainHouseVersion, vehicle: trainVehicleVersion } as const;

async function main(argv: string[]): Promise<void> {
  // strict: an unknown or misspelt option is an error before hours of training, not ignored.
  const { values } = parseArgs({ args: argv, options: { kind: { type: 'string' }, 'no-promote': { type: 'boolean' }, 'with-observations': { type: 'string' }, collected: { type: 'string' }, 'no-collected': { type: 'boolean' } }, strict: true });
  const only = values.kind;
  if (only !== undefined && !(only in KINDS)) throw new Error(`--kind must be one of ${Object.keys(KINDS).join(', ')}`);
  // Read and checked before any training: a bad line stops the run at once.
  const observations = values['with-observations'] === undefined ? null : readObservationExport(values['with-observations']);
  const collectedFile = values['no-collected'] ? null : collectedHomesFile(values.collected);
  const collected = collectedFile === null ? null : readCollectedHomes(collectedFile);
  if (collected) console.log(describeCollected(collected.report));
  // The refresh checks the soʻm rate table against the listing files that state both currencies.
  for (const check of checkRatesAgainstListings()) console.log(describeRateCheck(check));
  let exitCode = 0;
  for (const [kind, train] of Object.entries(KINDS)) {
    if (only && kind !== only) continue;
    exitCode = Math.max(exitCode, await train(argv, observations, collected));
  }
  process.exitCode = exitCode;
}

main(process.argv.slice(2)).catch((error) => {
  // A bad option is the user's to fix: its message, not a stack.
  const usage = error instanceof Error && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(usage ? `${error.message}\nusage: npm run train [-- --kind residential|house|vehicle] [--no-promote] [--with-observations FILE] [--collected FILE|DIR | --no-collected]` : error);
  process.exit(usage ? 2 : 1);
});
