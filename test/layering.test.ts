/**
 * The layering rules of .dependency-cruiser.cjs, run on the sources as `npm run layers` runs them:
 * models/ imports nothing from the service, subgraphs talk only through the graph, the service uses
 * the model libraries through their index.ts, and no serving
 * process loads a trainer. Any violation fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../models/paths';

const DEPCRUISE = join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise');
const SOURCES = ['models', 'subgraphs', 'gateway', 'schema'];

/** The violations depcruise reports (JSON). */
function violations(config: string): { from: string; to: string; rule: { name: string; severity: string } }[] {
  const args = ['--config', config, '--output-type', 'json', ...SOURCES];
  let out: string;
  try {
    out = execFileSync(DEPCRUISE, args, { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    // depcruise exits non-zero when it finds errors; the report is still on stdout.
    out = (error as { stdout: string }).stdout;
  }
  return JSON.parse(out).summary.violations;
}

describe('layering rules', () => {
  it('hold on the sources', () => {
    expect(violations('.dependency-cruiser.cjs')).toEqual([]);
  }, 60_000);

  it('would catch a serving process that loads a trainer', () => {
    // The same rules over a copy of the runtime that imports publishing again (which loads the ONNX writers and trainers).
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    const config = join(dir, 'rules.cjs');
    const rules = readFileSync(join(PROJECT_ROOT, '.dependency-cruiser.cjs'), 'utf8');
    writeFileSync(config, rules.replace("const SERVING = '", "const SERVING = '^models/ensemble/publish\\\\.ts$|"));
    const found = violations(config);
    expect(found.some((v) => v.rule.name === 'serving-loads-no-trainer' && v.rule.severity === 'error' && v.from === 'models/ensemble/publish.ts')).toBe(true);
  }, 60_000);

  it("would catch the service reaching past a model library's public surface", () => {
    // The same rules with index.ts no longer allowed: the subgraphs' imports of it then count as reaching inside.
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    const config = join(dir, 'rules.cjs');
    const rules = readFileSync(join(PROJECT_ROOT, '.dependency-cruiser.cjs'), 'utf8');
    const narrowed = rules.replace("'^models/(residential|vehicle|house|ensemble)/index\\\\.ts$', ", '');
    expect(narrowed).not.toBe(rules);
    writeFileSync(config, narrowed);
    const found = violations(config);
    expect(found.some((v) => v.rule.name === 'service-uses-model-surfaces' && v.from === 'subgraphs/residential/index.ts' && v.to === 'models/residential/index.ts')).toBe(true);
  }, 60_000);
});
