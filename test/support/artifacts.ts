/** A throw-away residential artifacts folder holding the current version and a renamed copy of it. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentVersion, RESIDENTIAL_DIR, setCurrentVersion } from '../../models/residential/manifest';

export function artifactsWithTwoVersions(copyName = '2099.01.0'): { root: string; original: string; copy: string } {
  const root = mkdtempSync(join(tmpdir(), 'artifacts-'));
  const original = currentVersion()!;
  cpSync(join(RESIDENTIAL_DIR, original), join(root, original), { recursive: true });
  cpSync(join(RESIDENTIAL_DIR, original), join(root, copyName), { recursive: true });
  const manifestPath = join(root, copyName, 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), version: copyName }));
  setCurrentVersion(original, root);
  return { root, original, copy: copyName };
}
