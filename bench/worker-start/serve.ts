/**
 * The worker-start benches' server: one HTML page, this repo's dist/ and node_modules/ (the page's
 * client, through an import map), and each worker folder under a prefix of its own. Files carry an
 * ETag and `no-cache`, as a deployed app's usually do: a worker started again revalidates its
 * scripts and runs them from the HTTP cache, with V8's code cache, as on a returning visit.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Where the page finds the library: its import map. */
export const importMapScript = `<script type="importmap">${JSON.stringify({
  imports: {
    'idb-adk-sessions': '/dist/index.js',
    comlink: '/node_modules/comlink/dist/esm/comlink.mjs',
    'zod/mini': '/node_modules/zod/mini/index.js',
  },
})}</script>`;

export interface Served {
  origin: string;
  close(): void;
}

/** Serves `page` at `/` and each of `folders` (URL prefix, such as `/w0/`, to directory). */
export async function serve(page: string, folders: Record<string, string>): Promise<Served> {
  const served: Record<string, string> = {
    '/dist/': path.join(root, 'dist'),
    '/node_modules/': path.join(root, 'node_modules'),
    ...folders,
  };
  const server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (pathname === '/empty.js') {
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end('postMessage(0)');
    }
    const prefix = Object.keys(served).find((p) => pathname.startsWith(p));
    try {
      if (!prefix) throw new Error('not served');
      const file = path.join(served[prefix] as string, pathname.slice(prefix.length));
      const { mtimeMs, size } = await stat(file);
      const etag = `"${size}-${Math.floor(mtimeMs)}"`;
      const headers = { 'content-type': 'text/javascript', 'cache-control': 'no-cache', etag };
      if (request.headers['if-none-match'] === etag) return response.writeHead(304, headers).end();
      response.writeHead(200, headers).end(await readFile(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}
