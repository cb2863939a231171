/**
 * The editor's floor (bench/editor.ts): the page in `editor-floor/` (bare React Flow, no editor),
 * built by Vite into a temporary directory and served with the graphs it reads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import type { Page } from 'playwright-core';
import serveStatic from 'koa-static';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import type { Graph } from '../../engine/graph/types.js';
import { serve } from './serve.js';

const NODE_WIDTH = 220;
const NODE_HEIGHT = 64;

/** The floor's nodes and edges for React Flow; its pane and view come from the editor (`frame`). */
export function floorGraph(graph: Graph) {
  const nodes = graph.nodes.map((n) => ({ id: n.id, position: n.position ?? { x: 0, y: 0 }, data: { label: n.type }, style: { width: NODE_WIDTH, height: NODE_HEIGHT } }));
  const edges = graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target }));
  return { nodes, edges, pane: null as Pane | null };
}

/** A React Flow pane's size (px) and its view, as the editor opened it. */
export interface Pane {
  width: number;
  height: number;
  viewport: { x: number; y: number; zoom: number };
}

/**
 * The editor's pane as a loaded page shows it (its React Flow's size and view), for `frame`, and
 * how many nodes React Flow drew there (the floor's page answers the same).
 */
export async function paneOf(page: Page): Promise<Pane & { drawn: number }> {
  return page.evaluate(() => {
    const flow = document.querySelector<HTMLElement>('.react-flow')!;
    const m = /translate\(([-\d.e]+)px, ?([-\d.e]+)px\) scale\(([\d.e]+)\)/.exec(document.querySelector<HTMLElement>('.react-flow__viewport')!.style.transform);
    if (!m) throw new Error('no React Flow viewport transform on the page');
    return { width: flow.clientWidth, height: flow.clientHeight, viewport: { x: Number(m[1]), y: Number(m[2]), zoom: Number(m[3]) }, drawn: document.querySelectorAll('.react-flow__node').length };
  });
}

/**
 * Builds the floor page and serves it with the graph it reads (`floorGraph`), at `url`; `dir` is
 * the build (`sourcemap`: with source maps, for bench/support/editor-profile.ts).
 */
export async function startFloor(graph: ReturnType<typeof floorGraph>, opts: { sourcemap?: boolean } = {}) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-editor-floor-'));
  await build({
    root: path.join(import.meta.dirname, 'editor-floor'),
    base: '/',
    plugins: [react()],
    logLevel: 'warn',
    configFile: false,
    build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 2000, sourcemap: opts.sourcemap ?? false },
  });
  // As the product serves the editor: the page itself uncached, its assets cached for an hour.
  const assets = serveStatic(out, { index: false, maxage: 3600_000 });
  const page = fs.readFileSync(path.join(out, 'index.html'));
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/assets/')) return assets(ctx, next);
    if (ctx.path === '/graph') {
      ctx.body = graph;
      return;
    }
    if (ctx.path !== '/') return next();
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page;
  });
  const server = await serve(app);
  return {
    url: `${server.origin}/`,
    dir: out,
    /** Draws in the editor's pane size at the editor's view (`paneOf`); the page needs it before its first load. */
    frame(pane: Pane) {
      graph.pane = pane;
    },
    async close() {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    },
  };
}
