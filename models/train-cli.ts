/**
 * `npm run train`: the monthly refresh of every kind of model, one after the other.
 * `--kind residential|house|vehicle` trains one; `--no-promote` writes versions without promoting them.
 * Exit code 3 when a version was written but not promoted.
 */
import { trainResidentialVersion } from './residential/train-cli';
import { trainVehicleVersion } from './vehicle/train-cli';
import { trainHouseVersion } from './house/train-cli';

const KINDS = { residential: trainResidentialVersion, house: trainHouseVersion, vehicle: trainVehicleVersion } as const;

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--kind');
  const only = at >= 0 ? argv[at + 1] : undefined;
  if (only !== undefined && !(only in KINDS)) throw new Error(`--kind must be one of ${Object.keys(KINDS).join(', ')}`);
  let exitCode = 0;
  for (const [kind, train] of Object.entries(KINDS)) {
    if (only && kind !== only) continue;
    exitCode = Math.max(exitCode, await train(argv));
  }
  process.exitCode = exitCode;
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
