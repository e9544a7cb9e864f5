/** Prints the functions with the most self time in a V8 .cpuprofile: `node dist/bench/profile-top.js FILE [N]`. */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number }
const [file, limit = '40'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[] };
const total = profile.nodes.reduce((s, n) => s + n.hitCount, 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const n of profile.nodes) {
  const where = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|\.build\/\w+)\//, '');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + n.hitCount);
  const pkg = n.callFrame.url.includes('node_modules/') ? n.callFrame.url.split('node_modules/')[1].split('/').slice(0, n.callFrame.url.includes('node_modules/@') ? 2 : 1).join('/') : n.callFrame.url ? (n.callFrame.url.startsWith('node:') ? 'node core' : 'project') : n.callFrame.functionName;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n.hitCount);
}
const show = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).forEach(([name, hits]) => console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${name}`));
console.log('by package:');
show(byPackage, 20);
console.log('\nby function (self time):');
show(byFunction, Number(limit));
