/** Starting the sync server in this process: the database, the service and the HTTP listener. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type Authenticate, createSyncApp } from './app.js';
import { type DatabaseOptions, openDatabase } from './database.js';
import { SyncService } from './sync-service.js';

export interface SyncServerOptions extends DatabaseOptions {
  authenticate: Authenticate;
  port?: number;
  host?: string;
  maxBodyBytes?: number;
  corsOrigins?: string[];
  keepAliveMs?: number;
  maxStreamsPerUser?: number;
}

export interface RunningSyncServer {
  url: string;
  port: number;
  service: SyncService;
  close(): Promise<void>;
}

export async function startSyncServer(options: SyncServerOptions): Promise<RunningSyncServer> {
  const database = await openDatabase(options);
  const service = new SyncService(database);
  const app = createSyncApp({
    service,
    authenticate: options.authenticate,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.keepAliveMs ? { keepAliveMs: options.keepAliveMs } : {}),
    ...(options.maxStreamsPerUser ? { maxStreamsPerUser: options.maxStreamsPerUser } : {}),
  });
  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 8787, hostname: host }, () => resolve(s));
  });
  // Longer than clients keep idle connections (undici: 4 s), so a client never reuses one the server just closed.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    service,
    async close() {
      // Open change streams would hold the listener open for ever.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  };
}
