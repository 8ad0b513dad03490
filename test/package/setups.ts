/**
 * The consumer app (app/main.js) built and served the way each kind of user does
 * it. Each setup returns the page's URL and how to stop its server. What a setup
 * does beyond its bundler's defaults is exactly what the README's "Use it" asks of
 * that bundler's users.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { build as esbuild } from 'esbuild';
import { rollup } from 'rollup';
import { createServer, type Plugin, preview, build as viteBuild } from 'vite';
import webpack from 'webpack';

export interface Served {
  url: string;
  close(): Promise<void>;
}

const html = (script: string, extraHead = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title>${extraHead}</head><body><script ${script}></script></body></html>`;

/**
 * Serves a folder as a plain static server would (Vite's preview, no transforms). `port`: a fixed
 * one (a server started again after a stop is the same origin, with the same IndexedDB); `plugins`
 * add the app's own routes.
 */
export async function serveStatic(dir: string, options: { port?: number; plugins?: Plugin[] } = {}): Promise<Served> {
  const server = await preview({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    build: { outDir: dir },
    plugins: options.plugins ?? [],
    preview: { host: '127.0.0.1', port: options.port ?? 0, strictPort: options.port !== undefined },
  });
  return { url: server.resolvedUrls?.local[0] ?? '', close: () => server.close() };
}

/**
 * What an app does when its bundler leaves `new URL('./worker/store.js', import.meta.url)` as it is
 * (esbuild, Rollup): the worker folder, its entry and the chunks it loads on first use, beside the bundle.
 */
function copyWorker(app: string, outDir: string): void {
  cpSync(path.join(app, 'node_modules/idb-adk-sessions/dist/worker'), path.join(outDir, 'worker'), { recursive: true });
}

export const setups: Record<string, (app: string) => Promise<Served>> = {
  async 'vite dev'(app) {
    const server = await createServer({
      root: app,
      configFile: false,
      logLevel: 'silent',
      cacheDir: path.join(app, 'node_modules/.vite-dev'),
      server: { host: '127.0.0.1', port: 0 },
      // The fixture folder holds other pages too (the ADK app needs its plugin): scan this app's page only.
      optimizeDeps: { entries: ['index.html'] },
    });
    await server.listen();
    return { url: server.resolvedUrls?.local[0] ?? '', close: () => server.close() };
  },

  async 'vite build'(app) {
    const outDir = path.join(app, 'out-vite');
    await viteBuild({ root: app, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    return serveStatic(outDir);
  },

  /** Module workers can split: search, memory and sync become chunks the worker fetches on first use. */
  async 'vite build, worker.format es'(app) {
    const outDir = path.join(app, 'out-vite-es');
    await viteBuild({
      root: app,
      configFile: false,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
      worker: { format: 'es' },
    });
    return serveStatic(outDir);
  },

  async 'webpack 5'(app) {
    const outDir = path.join(app, 'out-webpack');
    await new Promise<void>((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          context: app,
          entry: './main.js',
          output: { path: outDir, filename: 'main.js', clean: true },
          performance: { hints: false },
        },
        (error, stats) =>
          error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString('errors-only'))) : resolve(),
      ),
    );
    writeFileSync(path.join(outDir, 'index.html'), html('src="./main.js"'));
    return serveStatic(outDir);
  },

  async 'rollup + copied worker'(app) {
    const outDir = path.join(app, 'out-rollup');
    const bundle = await rollup({
      input: path.join(app, 'main.js'),
      plugins: [nodeResolve({ browser: true })],
      onwarn: () => {},
    });
    await bundle.write({ dir: outDir, format: 'es' });
    await bundle.close();
    copyWorker(app, outDir);
    writeFileSync(path.join(outDir, 'index.html'), html('type="module" src="./main.js"'));
    return serveStatic(outDir);
  },

  async 'esbuild + copied worker'(app) {
    const outDir = path.join(app, 'out-esbuild');
    await esbuild({
      absWorkingDir: app,
      entryPoints: ['main.js'],
      bundle: true,
      format: 'esm',
      outdir: outDir,
      logLevel: 'silent',
    });
    copyWorker(app, outDir);
    writeFileSync(path.join(outDir, 'index.html'), html('type="module" src="./main.js"'));
    return serveStatic(outDir);
  },

  async 'no bundler (import map)'(app) {
    const importMap = {
      imports: {
        'idb-adk-sessions': './node_modules/idb-adk-sessions/dist/index.js',
        comlink: './node_modules/comlink/dist/esm/comlink.mjs',
        'zod/mini': './node_modules/zod/mini/index.js',
      },
    };
    writeFileSync(
      path.join(app, 'static.html'),
      html('type="module" src="./main.js"', `<script type="importmap">${JSON.stringify(importMap)}</script>`),
    );
    const served = await serveStatic(app);
    return { url: new URL('static.html', served.url).href, close: served.close };
  },
};
