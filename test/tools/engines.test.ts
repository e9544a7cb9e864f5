/**
 * Issue 35, item 12: every package the service installs runs on the Node the project targets
 * (package.json engines, Node 20): none declares an engines range that leaves it out, as
 * @whatwg-node/promise-helpers 2 and cookie 2 (Node >= 22) did. Development-only packages are
 * left out: their platform binaries and build tools are not what the service runs on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const root = join(__dirname, '..', '..', '..');
const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; dev?: boolean; engines?: unknown }> };

it("every installed runtime package accepts the lowest Node the project's engines allow", () => {
  const lowest = semver.minVersion(project.engines.node);
  expect(lowest?.major).toBe(20);
  const refusing = Object.entries(lock.packages)
    .filter(([name, entry]) => name !== '' && !entry.dev)
    .map(([name, entry]) => ({ name, version: entry.version, node: (entry.engines as { node?: unknown } | undefined)?.node }))
    .filter((entry): entry is { name: string; version: string | undefined; node: string } => typeof entry.node === 'string' && semver.validRange(entry.node) !== null)
    .filter((entry) => !semver.satisfies(lowest!, entry.node));
  expect(refusing).toEqual([]);
});
