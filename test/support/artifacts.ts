/** A throw-away artifacts folder of one kind holding its current version and a renamed copy of it. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentVersion, setCurrentVersion } from '../../models/ensemble/versions';
import { RESIDENTIAL_DIR } from '../../models/residential/manifest';

export function artifactsWithTwoVersions(copyName = '2099.01.0', sourceRoot = RESIDENTIAL_DIR): { root: string; original: string; copy: string } {
  const root = mkdtempSync(join(tmpdir(), 'artifacts-'));
  const original = currentVersion(sourceRoot)!;
  cpSync(join(sourceRoot, original), join(root, original), { recursive: true });
  cpSync(join(sourceRoot, original), join(root, copyName), { recursive: true });
  const manifestPath = join(root, copyName, 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), version: copyName }));
  setCurrentVersion(original, root);
  return { root, original, copy: copyName };
}
