/**
 * `node dist/tools/models/residential/model-card-cli.js [VERSION]`: writes docs/MODEL_CARD.md and
 * docs/model-card/*.svg for VERSION (default: the version in service, CURRENT) and prints the paths.
 * The training CLI calls `writeModelCard` after a promotion.
 */
import { runAsMain, runCardCli } from '../../cards/card-kit';
import { currentVersion, listVersions, RESIDENTIAL_DIR } from '../../../models/residential/manifest';
import { readHeldOutEvaluation, writeModelCard, type ModelCardOptions } from '../../cards/residential';

export function runModelCardCli(argv: readonly string[], out: (line: string) => void = console.log, options: ModelCardOptions = {}): Promise<number> {
  const root = options.artifactsRoot ?? RESIDENTIAL_DIR;
  return runCardCli(argv, out, {
    versions: listVersions(root),
    current: currentVersion(root),
    hasEvaluation: (version) => readHeldOutEvaluation(version, root) !== null,
    withoutEvaluation: 'the predicted-vs-actual figure and the confidence check are',
    write: (version) => writeModelCard(version, options),
  });
}

if (require.main === module) runAsMain(() => runModelCardCli(process.argv.slice(2)));
