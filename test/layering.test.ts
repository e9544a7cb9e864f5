/**
 * The layering rules of .dependency-cruiser.cjs, run on the sources as `npm run layers` runs them:
 * each floor (schema → models → platform → subgraphs → gateway → tools) imports only the floors
 * below it, no import cycle, type-only imports counted, subgraphs talk only through the graph, the
 * service uses the model libraries through their index.ts, and no serving process loads a trainer.
 * Any violation fails.
 *
 * One cruise of the sources serves every test (a cruise takes most of a minute on two busy cores):
 * the real rules, and beside them three probes under names of their own: two real rules loosened or
 * narrowed as a mistake would, and one rule narrowed to a single type-only import. Rules are judged
 * independently of one another, so the probes' violations are those a cruise with the changed rule
 * alone would report.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../models/paths';

const DEPCRUISE = join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise');
const SOURCES = ['schema', 'models', 'platform', 'subgraphs', 'gateway', 'tools'];
/** One rule per floor, and no cycle (issue 36). */
const FLOOR_RULES = ['schema-imports-nothing', 'models-import-only-schema', 'platform-stays-below-the-service', 'subgraphs-talk-through-the-graph', 'subgraph-runners-stay-below-the-gateway', 'gateway-imports-no-tools', 'no-circular'];

interface Rule {
  name: string;
  severity: string;
  from: { path?: string };
  to: { path?: string; pathNot?: string[]; reachable?: boolean; circular?: boolean };
}
interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

const config = require(join(PROJECT_ROOT, '.dependency-cruiser.cjs')) as { forbidden: Rule[]; options: { tsPreCompilationDeps?: boolean } };
const rule = (name: string): Rule => {
  const found = config.forbidden.find((r) => r.name === name);
  if (!found) throw new Error(`no rule ${name} in .dependency-cruiser.cjs`);
  return found;
};

/** The runtime imports publishing again (which loads the ONNX writers and trainers): counted as a serving process. */
const SERVING_PROBE = 'probe: serving-loads-no-trainer, publish.ts serving';
/** index.ts no longer allowed: the subgraphs' imports of it then count as reaching inside. */
const SURFACES_PROBE = 'probe: service-uses-model-surfaces, without index.ts';
const SURFACE_INDEX = '^models/(residential|vehicle|house|ensemble)/index\\.ts$';
/**
 * A floor rule narrowed to one import that is type-only (the flat runtime's contract names the house
 * model's summary type): reported only while type-only imports count.
 */
const TYPE_ONLY_PROBE = 'probe: a type-only import counts';

function probes(): Rule[] {
  const serving = rule('serving-loads-no-trainer');
  const surfaces = rule('service-uses-model-surfaces');
  return [
    { ...serving, name: SERVING_PROBE, from: { path: `^models/ensemble/publish\\.ts$|${serving.from.path}` } },
    { ...surfaces, name: SURFACES_PROBE, to: { ...surfaces.to, pathNot: surfaces.to.pathNot!.filter((p) => p !== SURFACE_INDEX) } },
    { name: TYPE_ONLY_PROBE, severity: 'error', from: { path: '^models/residential/valuation\\.ts$' }, to: { path: '^models/house/valuation\\.ts$' } },
  ];
}

/** The violations depcruise reports (JSON) with the real rules and the probes. */
function cruise(): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  const file = join(dir, 'rules.cjs');
  writeFileSync(file, `module.exports = ${JSON.stringify({ ...config, forbidden: [...config.forbidden, ...probes()] })};\n`);
  let out: string;
  try {
    out = execFileSync(DEPCRUISE, ['--config', file, '--output-type', 'json', ...SOURCES], { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    // depcruise exits non-zero when it finds errors; the report is still on stdout.
    out = (error as { stdout: string }).stdout;
  }
  return JSON.parse(out).summary.violations;
}

describe('layering rules', () => {
  let found: Violation[];
  beforeAll(() => {
    found = cruise();
  }, 120_000);

  it('hold on the sources', () => {
    expect(found.filter((v) => !v.rule.name.startsWith('probe: '))).toEqual([]);
  });

  it('would catch a serving process that loads a trainer', () => {
    expect(found.some((v) => v.rule.name === SERVING_PROBE && v.rule.severity === 'error' && v.from === 'models/ensemble/publish.ts')).toBe(true);
  });

  it('has one rule per floor and forbids cycles, counting type-only imports', () => {
    for (const name of FLOOR_RULES) expect(rule(name).severity).toBe('error');
    expect(rule('no-circular').to.circular).toBe(true);
    expect(config.options.tsPreCompilationDeps).toBe(true);
    expect(found.some((v) => v.rule.name === TYPE_ONLY_PROBE && v.from === 'models/residential/valuation.ts' && v.to === 'models/house/valuation.ts')).toBe(true);
  });

  it("would catch the service reaching past a model library's public surface", () => {
    expect(rule('service-uses-model-surfaces').to.pathNot).toContain(SURFACE_INDEX);
    expect(found.some((v) => v.rule.name === SURFACES_PROBE && v.from === 'subgraphs/residential/index.ts' && v.to === 'models/residential/index.ts')).toBe(true);
  });
});
