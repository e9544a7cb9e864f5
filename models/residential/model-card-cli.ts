/**
 * `node dist/models/residential/model-card-cli.js [VERSION]`: writes docs/MODEL_CARD.md and
 * docs/model-card/*.svg for VERSION (default: the version in service, CURRENT) and prints the paths.
 * The training CLI calls `runModelCardCli` (or `writeModelCard`) after writing a version.
 */
import { relative } from 'node:path';
import { PROJECT_ROOT } from '../paths';
import { currentVersion, listVersions, RESIDENTIAL_DIR } from './manifest';
import { readHeldOutEvaluation, writeModelCard, type ModelCardOptions } from './model-card';

export async function runModelCardCli(argv: readonly string[], out: (line: string) => void = console.log, options: ModelCardOptions = {}): Promise<number> {
  const root = options.artifactsRoot ?? RESIDENTIAL_DIR;
  const version = argv.find((a) => !a.startsWith('-')) ?? currentVersion(root);
  if (!version) {
    out('no version given and no CURRENT version; usage: model-card-cli [VERSION]');
    return 2;
  }
  if (!listVersions(root).includes(version)) {
    out(`unknown version ${version}; have: ${listVersions(root).join(', ') || 'none'}`);
    return 2;
  }
  if (!readHeldOutEvaluation(version, root)) out(`warning: ${version} has no evaluation.json; the predicted-vs-actual figure and the confidence check are left out`);
  const written = await writeModelCard(version, options);
  for (const path of [written.markdown, ...written.figures]) out(relative(PROJECT_ROOT, path) || path);
  return 0;
}

if (require.main === module) {
  runModelCardCli(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
