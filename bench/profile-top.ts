/**
 * Where a V8 .cpuprofile spends its time: `node dist/bench/profile-top.js FILE [N]`. Prints the self
 * time by package and by function, then the inclusive time (the function and all it calls) of the
 * project's own functions: the stages of a request, as a flame graph would show their widths.
 */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] }
const [file, limit = '40'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[] };
const total = profile.nodes.reduce((s, n) => s + n.hitCount, 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
const keyOf = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|\.build\/\w+)\//, '')}:${n.callFrame.lineNumber}`;
for (const n of profile.nodes) {
  const key = keyOf(n);
  byFunction.set(key, (byFunction.get(key) ?? 0) + n.hitCount);
  const pkg = n.callFrame.url.includes('node_modules/') ? n.callFrame.url.split('node_modules/')[1].split('/').slice(0, n.callFrame.url.includes('node_modules/@') ? 2 : 1).join('/') : n.callFrame.url ? (n.callFrame.url.startsWith('node:') ? 'node core' : 'project') : n.callFrame.functionName;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n.hitCount);
}

// Inclusive time: a node's hits and its subtree's, counted once per function on a path (recursion).
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const n of profile.nodes) {
  if (n.hitCount === 0) continue;
  const seen = new Set<string>();
  for (let at: Node | undefined = n; at; at = nodes.get(parent.get(at.id) ?? -1)) {
    const isProject = at.callFrame.url !== '' && !at.callFrame.url.includes('node_modules/') && !at.callFrame.url.startsWith('node:');
    const key = keyOf(at);
    if (!isProject || seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + n.hitCount);
  }
}

const show = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).forEach(([name, hits]) => console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${name}`));
console.log('by package:');
show(byPackage, 20);
console.log('\nby function (self time):');
show(byFunction, Number(limit));
console.log("\nthe project's functions, inclusive (themselves and what they call):");
show(inclusive, Number(limit));
