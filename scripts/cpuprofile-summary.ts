/**
 * Where a V8 CPU profile (`node --cpu-prof`) spent its time: the heaviest functions by self time,
 * and self time summed per package or project file, as shares of the samples.
 *
 *   npx tsx scripts/cpuprofile-summary.ts <file.cpuprofile> [top=25]
 */
import fs from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpuprofile-summary <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return url;
  const p = /\/work\/[^/]+\/(.*)$/.exec(url);
  return p ? p[1]! : url || '(native)';
};
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const fns = new Map<string, number>();
const places = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  add(fns, `${f.functionName || '(anonymous)'}  ${where(f.url)}:${f.lineNumber + 1}`, t);
  add(places, where(f.url), t);
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
show('self time by function', fns);
show('self time by package / file', places);
