import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project root (the folder holding package.json), found from this file so compiled code works from any outDir. */
function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'data'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`project root not found above ${start}`);
    dir = up;
  }
}

export const PROJECT_ROOT = process.env.PROJECT_ROOT ?? findRoot(__dirname);
export const DATA_DIR = join(PROJECT_ROOT, 'data');
export const ARTIFACTS_DIR = process.env.ARTIFACTS_DIR ?? join(PROJECT_ROOT, 'models', 'artifacts');

/** The service's own state folder (keys, secrets, records, the collector's store): VALUATION_HOME, else `.local` in the project (gitignored). */
export function valuationHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.VALUATION_HOME || join(PROJECT_ROOT, '.local');
}
