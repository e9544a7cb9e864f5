/**
 * A V8 .cpuprofile (node --cpu-prof) drawn as a flame graph in one static SVG, for docs/: the call
 * tree with each frame as wide as the time spent in it and what it called, callers below callees,
 * coloured by where the code lives (ours, node, a package). The interactive viewers (Chrome
 * DevTools, speedscope) read the same file; this gives a picture that a markdown page can show.
 *
 * Usage: node dist/bench/flame-graph.js FILE.cpuprofile OUT.svg [--title TEXT] [--min-percent 0.2] [--drop REGEX]
 * (idle time is left out: the widths are shares of the time the process was busy; so is module
 * loading, `--drop` 'Module\._load' by default: a profile of a whole process run starts with it)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { option } from './cli';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

interface Frame {
  name: string;
  where: string;
  total: number;
  children: Map<string, Frame>;
}

const [file, out] = process.argv.slice(2);
if (!file || !out) throw new Error('usage: flame-graph FILE.cpuprofile OUT.svg [--title TEXT] [--min-percent 0.2]');
const title = option('title', file);
const minShare = Number(option('min-percent', '0.2')) / 100;
const drop = new RegExp(`^(?:${option('drop', 'Module\\._load')})$`);

const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const isChild = new Set(profile.nodes.flatMap((n) => n.children ?? []));
const OFF_CPU = new Set(['(idle)']);

const whereOf = (url: string) =>
  url === '' ? '' : url.includes('node_modules/') ? url.split('node_modules/').pop()! : url.startsWith('node:') ? url : url.replace(/^file:\/\/.*\/dist\//, '');

/** The profile's tree folded by function under each caller (V8 may split one function's node in two). */
function fold(node: ProfileNode, into: Frame): number {
  let total = node.hitCount;
  for (const id of node.children ?? []) {
    const child = nodes.get(id)!;
    if (OFF_CPU.has(child.callFrame.functionName) || drop.test(child.callFrame.functionName)) continue;
    const where = whereOf(child.callFrame.url);
    const key = `${child.callFrame.functionName}\u0000${where}:${child.callFrame.lineNumber}`;
    let frame = into.children.get(key);
    if (!frame) into.children.set(key, (frame = { name: child.callFrame.functionName || '(anonymous)', where, total: 0, children: new Map() }));
    const spent = fold(child, frame);
    frame.total += spent;
    total += spent;
  }
  return total;
}

const root: Frame = { name: 'all (busy)', where: '', total: 0, children: new Map() };
for (const node of profile.nodes) if (!isChild.has(node.id)) root.total += fold(node, root);
root.total -= profile.nodes.filter((n) => !isChild.has(n.id)).reduce((s, n) => s + n.hitCount, 0); // the (root) node's own hits are none of the process's work

const WIDTH = 1200;
const ROW = 16;
const CHAR = 6.2;
const colour = (where: string): string => {
  if (where === '') return '#c8c8c8'; // native, GC, program
  if (where.startsWith('node:')) return '#b5c7d3';
  if (!where.includes('/') || /^(gateway|subgraphs|models|schema|bench)\//.test(where)) return '#7fb3e0';
  const pkg = where.startsWith('@') ? where.split('/').slice(0, 2).join('/') : where.split('/')[0];
  let hash = 0;
  for (const c of pkg) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${20 + (hash % 40)}, 80%, ${60 + (hash % 15)}%)`;
};
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const rects: string[] = [];
let depthMax = 0;
function draw(frame: Frame, x: number, depth: number): void {
  const width = (frame.total / root.total) * WIDTH;
  depthMax = Math.max(depthMax, depth);
  const share = ((frame.total / root.total) * 100).toFixed(1);
  const label = `${frame.name} ${frame.where}`.trim();
  const fits = Math.floor((width - 4) / CHAR);
  const text = fits >= 4 ? (label.length <= fits ? label : `${label.slice(0, fits - 1)}…`) : '';
  rects.push(
    `<g><title>${escape(label)}: ${share}%</title><rect x="${x.toFixed(2)}" y="${-(depth + 1) * ROW}" width="${Math.max(0.5, width - 0.5).toFixed(2)}" height="${ROW - 1}" fill="${colour(frame.where)}"/>` +
      (text ? `<text x="${(x + 2).toFixed(2)}" y="${-(depth + 1) * ROW + 11.5}">${escape(text)}</text>` : '') +
      '</g>',
  );
  let at = x;
  for (const child of [...frame.children.values()].sort((a, b) => b.total - a.total)) {
    if (child.total / root.total >= minShare) draw(child, at, depth + 1);
    at += (child.total / root.total) * WIDTH;
  }
}
draw(root, 0, 0);

const height = (depthMax + 1) * ROW + 56;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 ${-height + 10} ${WIDTH} ${height}" font-family="DejaVu Sans Mono, monospace" font-size="10">
<text x="0" y="${-height + 26}" font-size="13">${escape(title)}</text>
<text x="0" y="${-height + 42}" fill="#555">blue: ours · grey-blue: node · orange: packages · grey: native, GC · frames under ${(minShare * 100).toFixed(1)}% not drawn; idle and ${escape(drop.source)} left out</text>
${rects.join('\n')}
</svg>
`;
writeFileSync(out, svg);
console.log(`${out}: ${rects.length} frames, ${depthMax + 1} levels`);
