/** A plans file for a test stack (PLANS_FILE): the service's plans plus `extra` (plan name → plan), in a folder of its own. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';

export function plansFileWith(extra: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'test-plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8')), ...extra }));
  return file;
}
