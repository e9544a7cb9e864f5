/**
 * The version store of one kind of model: `<root>/<version>/manifest.json` beside its ONNX files,
 * and a `CURRENT` file naming the version in service. Versions are YYYY.MM.N.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function versionDir(version: string, root: string): string {
  return join(root, version);
}

export function readManifest<Manifest>(version: string, root: string): Manifest {
  return JSON.parse(readFileSync(join(versionDir(version, root), 'manifest.json'), 'utf8')) as Manifest;
}

/** The promoted version, or null before the first training. */
export function currentVersion(root: string): string | null {
  const file = join(root, 'CURRENT');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

/** Promotion is one atomic rename, so a running service never reads a half-written pointer. */
export function setCurrentVersion(version: string, root: string): void {
  const tmp = join(root, `.CURRENT.${process.pid}`);
  writeFileSync(tmp, `${version}\n`);
  renameSync(tmp, join(root, 'CURRENT'));
}

export function listVersions(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, e.name, 'manifest.json')))
    .map((e) => e.name)
    .sort(compareVersions);
}

/** Versions are YYYY.MM.N. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

export function nextVersion(existing: readonly string[], now = new Date()): string {
  const prefix = `${now.getUTCFullYear()}.${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const taken = existing.filter((v) => v.startsWith(`${prefix}.`)).map((v) => Number(v.split('.')[2]));
  return `${prefix}.${taken.length ? Math.max(...taken) + 1 : 0}`;
}

/** Writes a new version's files: the ONNX ensemble, the manifest and the held-out predictions. */
export function writeVersion(dir: string, files: { onnxFile: string; onnx: Uint8Array; manifest: object; evaluation: object }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, files.onnxFile), files.onnx);
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(files.manifest, null, 1)}\n`);
  writeFileSync(join(dir, 'evaluation.json'), `${JSON.stringify(files.evaluation)}\n`);
}
