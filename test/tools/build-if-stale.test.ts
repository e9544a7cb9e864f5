/**
 * `npm start` builds only when the sources changed (tools/build-if-stale.js, issue 35): the digest
 * moves with a source's content, not with its time stamp, nor with run-time data (model artifacts),
 * and dist/ counts as current only with a build of exactly that digest.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// tools/ is plain JavaScript, run before anything is compiled: required from the project's root.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sourceDigest, isCurrent } = require(join(__dirname, '..', '..', '..', 'tools', 'build-if-stale.js')) as { sourceDigest(root: string): string; isCurrent(root: string): boolean };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
  for (const dir of ['gateway', 'models/artifacts/residential', 'dist/gateway']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'gateway', 'index.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('the digest moves with a source or the lock file, not with a time stamp or model artifacts', () => {
  const first = sourceDigest(root);
  utimesSync(join(root, 'gateway', 'index.ts'), new Date(), new Date(Date.now() + 60_000));
  writeFileSync(join(root, 'models', 'artifacts', 'residential', 'CURRENT'), '2026.11.25\n');
  expect(sourceDigest(root)).toBe(first);
  writeFileSync(join(root, 'gateway', 'index.ts'), 'export const a = 2;\n');
  const edited = sourceDigest(root);
  expect(edited).not.toBe(first);
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
  expect(sourceDigest(root)).not.toBe(edited);
});

test('dist/ is current only with a built service and the digest of these sources', () => {
  expect(isCurrent(root)).toBe(false); // nothing built
  writeFileSync(join(root, 'dist', '.source-digest'), `${sourceDigest(root)}\n`);
  expect(isCurrent(root)).toBe(false); // a digest without the service
  writeFileSync(join(root, 'dist', 'gateway', 'all-in-one.js'), '');
  expect(isCurrent(root)).toBe(true);
  writeFileSync(join(root, 'gateway', 'index.ts'), 'export const a = 3;\n');
  expect(isCurrent(root)).toBe(false);
});
