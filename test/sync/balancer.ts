/**
 * A round-robin load balancer for tests: each request goes to the next server process in turn,
 * change streams included. A process that refuses the connection (killed) is passed over for the
 * next; a request that already reached a process which then dies is not sent again (the client sees
 * the connection drop, as behind a real balancer that does not retry non-idempotent requests).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** Requests each target received, by its index. */
  served: number[];
  close(): Promise<void>;
}

export interface BalancerOptions {
  /** Always the first target that takes the connection (failover only), not round-robin. */
  sticky?: boolean;
  /** Called as a request is sent on to target `index`. */
  forwarded?: (index: number, method: string, path: string) => void;
}

export async function startBalancer(targets: () => string[], options: BalancerOptions = {}): Promise<Balancer> {
  let turn = 0;
  const served: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const list = targets();
      const first = options.sticky ? 0 : turn++;
      const attempt = (tried: number): void => {
        const index = (first + tried) % list.length;
        const target = new URL(list[index] as string);
        const up = request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            // A connection per request: `forwarded` fires on its connect, and a killed target is noticed at once.
            agent: false,
          },
          (answer) => {
            served[index] = (served[index] ?? 0) + 1;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('error', () => res.destroy());
            answer.on('aborted', () => res.destroy());
          },
        );
        res.on('close', () => up.destroy());
        up.on('socket', (socket) =>
          socket.once('connect', () => options.forwarded?.(index, req.method ?? 'GET', req.url ?? '/')),
        );
        up.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && tried + 1 < list.length) attempt(tried + 1);
          else res.destroy();
        });
        up.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
