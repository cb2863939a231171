/**
 * `npm run bench`: every benchmark, one JSON line per figure on stdout:
 * {"name","value","unit","baseline","ratio"} where baseline is the same work measured in the same
 * run without our layer (bare Koa, plain Temporal workflow, raw better-sqlite3). Progress on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'figures.ts'].includes(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

for (const file of files) {
  process.stderr.write(`[bench] ${file}\n`);
  const mod = (await import(path.join(dir, file))) as { run?: () => Promise<void> };
  if (typeof mod.run !== 'function') {
    process.stderr.write(`[bench] ${file} exports no run(); skipped\n`);
    continue;
  }
  await mod.run();
}
process.exit(0);
