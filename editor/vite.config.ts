import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { nodeConfigValidators } from './validators-plugin.js';

/**
 * The entry (main.tsx) is small and loads the editor's UI chunk by `import()`, so the workflow's
 * reads start before that chunk runs. A dynamic import alone would fetch the chunk only then and
 * compile it on the main thread; listed as a modulepreload in the page, the browser fetches it
 * with the entry and compiles it off the main thread meanwhile (docs/editor.md, Performance).
 */
function preloadChunk(name: string): Plugin {
  let base = '/';
  return {
    name: 'vc-preload-chunk',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === name);
        if (!chunk) throw new Error(`no chunk named "${name}" to preload`);
        return [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${chunk.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}

export default defineConfig({
  root: path.resolve(import.meta.dirname),
  base: '/editor/',
  plugins: [react(), nodeConfigValidators(), preloadChunk('mount')],
  build: { outDir: path.resolve(import.meta.dirname, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
