#!/usr/bin/env node
/**
 * `npm start` and `npm test` build only when the sources changed since dist/ was built (issue 35):
 * a digest of every source file the build reads (TypeScript, the dashboard, the lock file and
 * configs; not data or model artifacts, which the service reads at run time) is kept beside the
 * build in dist/.source-digest. Same digest and a built service: no build (a start took 27 s of
 * rebuilding before). Anything else: `npm run build`, then the digest is written.
 * Plain JavaScript, so it runs before anything is compiled.
 */
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = join(__dirname, '..');
/** Folders the build compiles or bundles, and the files that configure it. */
const SOURCE_DIRS = ['gateway', 'subgraphs', 'platform', 'models', 'schema', 'tools', 'test', 'bench'];
const CONFIG_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
const SOURCE_FILE = /\.(ts|mts|js|json|html|css)$/;
/** Read at run time, not built: changing them needs no build. */
const NOT_BUILT = new Set([join('models', 'artifacts'), 'node_modules', 'dist']);

function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (NOT_BUILT.has(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && SOURCE_FILE.test(entry.name)) files.push(path);
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(dir);
  for (const file of CONFIG_FILES) if (existsSync(join(root, file))) files.push(file);
  return files.sort();
}

/** SHA-256 over every source file's path and content: what the build would read. */
function sourceDigest(root = ROOT) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root)) hash.update(file.split(sep).join('/')).update('\0').update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

const digestFile = (root) => join(root, 'dist', '.source-digest');

/** Whether dist/ holds a build of exactly these sources. */
function isCurrent(root = ROOT) {
  const file = digestFile(root);
  return existsSync(file) && existsSync(join(root, 'dist', 'gateway', 'all-in-one.js')) && readFileSync(file, 'utf8').trim() === sourceDigest(root);
}

function main() {
  if (isCurrent()) {
    console.error(`dist/ is a build of these sources: not rebuilt (${relative(process.cwd(), digestFile(ROOT)) || digestFile(ROOT)})`);
    return 0;
  }
  const digest = sourceDigest();
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) return build.status ?? 1;
  writeFileSync(digestFile(ROOT), `${digest}\n`);
  return 0;
}

module.exports = { sourceDigest, isCurrent };
if (require.main === module) process.exit(main());
