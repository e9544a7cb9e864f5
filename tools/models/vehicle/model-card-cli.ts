/**
 * `node dist/tools/models/vehicle/model-card-cli.js [VERSION]`: writes docs/VEHICLE_MODEL_CARD.md and
 * docs/vehicle-model-card/*.svg for VERSION (default: the version in service, CURRENT) and prints
 * the paths. The vehicle training CLI calls `writeVehicleModelCard` after a promotion.
 */
import { runAsMain, runCardCli } from '../../cards/card-kit';
import { currentVersion, listVersions, VEHICLE_DIR } from '../../../models/vehicle/manifest';
import { readVehicleEvaluation, writeVehicleModelCard, type VehicleModelCardOptions } from '../../cards/vehicle';

export function runVehicleModelCardCli(argv: readonly string[], out: (line: string) => void = console.log, options: VehicleModelCardOptions = {}): Promise<number> {
  const root = options.artifactsRoot ?? VEHICLE_DIR;
  return runCardCli(argv, out, {
    versions: listVersions(root),
    current: currentVersion(root),
    hasEvaluation: (version) => readVehicleEvaluation(version, root) !== null,
    withoutEvaluation: 'the predicted-vs-actual figure, the direction of errors and the confidence check are',
    write: (version) => writeVehicleModelCard(version, options),
  });
}

if (require.main === module) runAsMain(() => runVehicleModelCardCli(process.argv.slice(2)));
