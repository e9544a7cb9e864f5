/**
 * `npm run valuate -- --input requests.jsonl --output out.jsonl [--kind home|vehicle] [--valuation-date YYYY-MM-DD]`: values a file
 * of API-format requests (one JSON object per line: the body of POST /api/predict/home or of
 * POST /api/predict/vehicle) through the runtimes the service uses, and writes one result per line
 * in input order: the API's reply, or the API's error object for a line that fails (the run goes on;
 * a house the model refuses for too little market data is such a line: INSUFFICIENT_MARKET_DATA).
 * A line's own `"kind": "home" | "vehicle"` says which it is; without one, --kind does (default home),
 * so one file may mix homes and vehicles. A line's own `valuation_date` dates its value; without
 * one, --valuation-date does (default today). Lines are read and valued in chunks (one runtime call per
 * kind per chunk), so memory stays flat whatever the file's size; a model is loaded only once a line
 * needs it.
 */
import { parseArgs } from 'node:util';
import { ApiError } from '../../schema/errors';
import { parseDateForm } from '../../schema/valuation-date';
import { ResidentialModelService } from '../../models/residential/serving';
import { VALUATION_KINDS, valuateFile, type ValuateRuntimes, type ValuationKind } from '../../models/valuate-file';
import { VEHICLE_DIR, currentVersion as currentVehicleVersion } from '../../models/vehicle/manifest';
import { VehicleModelSet } from '../../models/vehicle/runtime';

const OPTIONS = { input: { type: 'string' }, output: { type: 'string' }, kind: { type: 'string', default: 'home' }, 'valuation-date': { type: 'string' } } as const;

async function main(argv: string[]): Promise<void> {
  const parsed = (() => {
    try {
      return parseArgs({ args: argv, options: OPTIONS, strict: true }).values;
    } catch (error) {
      console.error((error as Error).message); // an unknown or misspelt option: said, then the usage
      return undefined;
    }
  })();
  const { input, output, kind = 'home', 'valuation-date': valuationDate } = parsed ?? ({} as Partial<NonNullable<typeof parsed>>);
  if (!input || !output || !VALUATION_KINDS.includes(kind as ValuationKind)) {
    console.error('usage: npm run valuate -- --input requests.jsonl --output out.jsonl [--kind home|vehicle] [--valuation-date YYYY-MM-DD]');
    console.error('  (a line may carry its own "kind": "home" | "vehicle"; --kind is for lines without one)');
    console.error('  (a line may carry its own "valuation_date"; --valuation-date is for lines without one, default today)');
    process.exit(2);
  }
  // The option's form is checked once, before any line (its range depends on each line's kind, so lines check that).
  try {
    parseDateForm(valuationDate, '--valuation-date');
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const loaded: { home?: ResidentialModelService; vehicle?: VehicleModelSet } = {};
  const runtimes: ValuateRuntimes = {
    home: async () => (loaded.home = await ResidentialModelService.start({ pollMs: 60_000 })),
    vehicle: async () => {
      const version = currentVehicleVersion();
      if (!version) throw new ApiError('SERVICE_UNAVAILABLE', `no vehicle model is promoted in ${VEHICLE_DIR}`);
      return (loaded.vehicle = await VehicleModelSet.load(version, VEHICLE_DIR));
    },
  };
  const started = Date.now();
  const summary = await valuateFile(input, output, runtimes, { defaultKind: kind as ValuationKind, valuationDate });
  const versions = [loaded.home && `home model ${loaded.home.version}`, loaded.vehicle && `vehicle model ${loaded.vehicle.version}`].filter(Boolean).join(', ');
  await loaded.home?.close();
  await loaded.vehicle?.close();
  console.log(`${summary.lines} lines: ${summary.valued} valued, ${summary.failed} with errors${versions ? `, ${versions}` : ''}, ${((Date.now() - started) / 1000).toFixed(1)} s → ${output}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
