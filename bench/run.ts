/**
 * `npm run bench` (or `npm run bench -- post-call api` for some): every benchmark, each in its own
 * Node process (so each figure's peak RSS is its own benchmark's), one JSON line per figure on
 * stdout: {"name","value","unit","baseline","ratio","spread","rounds","rssMb","load",...} where
 * baseline is the same work measured in the same run without our layer (bare Koa, plain Temporal
 * workflow, raw better-sqlite3, bare Temporal starts, the empty editor), in alternating rounds.
 * Progress on stderr.
 *
 * Every line also goes to bench/results/<time>.jsonl (git-ignored), with a first and a last
 * `{"meta": ...}` line (machine, load, duration, which files ran); `npm run bench:readme` rewrites
 * the table in bench/README.md from the newest full run. At the end, a summary against the
 * issue's goals (bench/goals.ts) on stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { verdicts } from './goals.js';
import type { Figure } from './figures.js';

const dir = import.meta.dirname;
const NOT_BENCHES = ['run.ts', 'figures.ts', 'goals.ts', 'readme.ts'];

export const ALL_FILES = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !NOT_BENCHES.includes(f))
  .sort();

async function child(file: string) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { run?: () => Promise<void> };
  if (typeof mod.run !== 'function') {
    process.stderr.write(`[bench] ${file} exports no run(); skipped\n`);
    return;
  }
  await mod.run();
}

async function main() {
  const only = process.argv.slice(2);
  const files = ALL_FILES.filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
  const resultsDir = path.join(dir, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const started = new Date();
  const file = path.join(resultsDir, `${started.toISOString().replace(/[:.]/g, '-')}.jsonl`);
  const meta = (extra: object) => fs.appendFileSync(file, JSON.stringify({ meta: { ...extra, load: os.loadavg().map((x) => Number(x.toFixed(2))) } }) + '\n');
  meta({ startedAt: started.toISOString(), files, full: files.length === ALL_FILES.length, node: process.version, cpus: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), rounds: Number(process.env.BENCH_ROUNDS ?? 5) });
  process.stderr.write(`[bench] results -> ${path.relative(process.cwd(), file)}\n`);
  const figures: Figure[] = [];
  for (const f of files) {
    process.stderr.write(`[bench] ${f} (load ${os.loadavg()[0]!.toFixed(2)})\n`);
    const t0 = performance.now();
    const proc = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--child', f], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_RESULTS: '' } });
    for await (const line of readline.createInterface({ input: proc.stdout! })) {
      process.stdout.write(line + '\n');
      try {
        const fig = JSON.parse(line) as Figure;
        if (typeof fig.name === 'string') {
          figures.push(fig);
          fs.appendFileSync(file, line + '\n');
        }
      } catch {
        // not a figure
      }
    }
    const code: number = await new Promise((r) => (proc.exitCode !== null ? r(proc.exitCode) : proc.once('exit', (c) => r(c ?? 1))));
    process.stderr.write(`[bench] ${f}: ${((performance.now() - t0) / 1000).toFixed(0)} s${code ? `, exit ${code}` : ''}\n`);
    if (code) meta({ failed: f, code });
  }
  const seconds = Math.round((Date.now() - started.getTime()) / 1000);
  meta({ finishedAt: new Date().toISOString(), seconds });
  if (files.length === ALL_FILES.length) fs.copyFileSync(file, path.join(resultsDir, 'latest-full.jsonl'));
  process.stderr.write(`\n[bench] ${figures.length} figures in ${seconds} s; against the goals of issue 14:\n${verdicts(figures)}\n`);
}

const i = process.argv.indexOf('--child');
if (i > 0) {
  await child(process.argv[i + 1]!);
  process.exit(0);
} else if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith('bench/run.ts')) {
  await main();
  process.exit(0);
}
