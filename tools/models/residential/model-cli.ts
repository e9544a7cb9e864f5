/**
 * `npm run model -- list | promote VERSION | rollback`: which residential version is in service.
 * A running service picks the change up without a restart (it watches CURRENT).
 */
import { currentVersion, listVersions, readManifest, setCurrentVersion, RESIDENTIAL_DIR } from '../../../models/residential/manifest';

export function runModelCli(argv: string[], out: (line: string) => void = console.log, root = RESIDENTIAL_DIR): number {
  const [command, arg] = argv;
  const versions = listVersions(root);
  const current = currentVersion(root);
  switch (command) {
    case 'list':
      for (const v of versions) {
        const m = readManifest(v, root).evaluation.headline.overall;
        out(`${v === current ? '*' : ' '} ${v}  MAPE ${(m.mape * 100).toFixed(1)}%  R² ${m.r2.toFixed(3)}  coverage ${(m.intervalCoverage * 100).toFixed(1)}%`);
      }
      return 0;
    case 'promote':
      if (!arg || !versions.includes(arg)) {
        out(`unknown version ${arg ?? '(none)'}; have: ${versions.join(', ')}`);
        return 2;
      }
      setCurrentVersion(arg, root);
      out(`promoted ${arg} (was ${current ?? 'none'})`);
      return 0;
    case 'rollback': {
      const older = versions.filter((v) => current === null || versions.indexOf(v) < versions.indexOf(current));
      const previous = older.at(-1);
      if (!previous) {
        out(`no version older than ${current} to roll back to`);
        return 1;
      }
      setCurrentVersion(previous, root);
      out(`rolled back from ${current} to ${previous}`);
      return 0;
    }
    default:
      out('usage: npm run model -- list | promote VERSION | rollback');
      return 2;
  }
}

if (require.main === module) process.exitCode = runModelCli(process.argv.slice(2));
