/** Starting the sync server in this process: the database, the service and the HTTP listener. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type Authenticate, createSyncApp } from './app.js';
import { type DatabaseOptions, openDatabase } from './database.js';
import { SyncService } from './sync-service.js';

export interface SyncServerOptions extends DatabaseOptions {
  /** Maps a bearer token to the user (and app) it acts for; `undefined` refuses it. */
  authenticate: Authenticate;
  /**
   * The TCP port to listen on. Default 8787. `0` takes a free port, which the
   * result's `port` and `url` then give (what tests do).
   */
  port?: number;
  /**
   * The interface to listen on. Default `127.0.0.1`: this machine only, for a
   * server behind a reverse proxy on the same host. `0.0.0.0` (or `::`) listens
   * on every interface. The result's `url` is built from it.
   */
  host?: string;
  /** Largest request body accepted, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Origins whose pages may call the server (CORS). Default any: requests carry a bearer token, never cookies. */
  corsOrigins?: string[];
  /** How often an idle change stream sends a keep-alive comment. Default 15 s. */
  keepAliveMs?: number;
  /** Change streams one user may hold open at once (tabs, devices); more get 429. Default 16. */
  maxStreamsPerUser?: number;
}

export interface RunningSyncServer {
  /** `http://<host>:<port>`, the base URL devices are given. */
  url: string;
  /** The port listened on: the one asked for, or the one taken for `port: 0`. */
  port: number;
  /** The sync rules over ADK's `DatabaseSessionService` (`service.sessions`), for server-side agents. */
  service: SyncService;
  /** Closes open change streams, the listener and the database. */
  close(): Promise<void>;
}

export async function startSyncServer(options: SyncServerOptions): Promise<RunningSyncServer> {
  const database = await openDatabase(options);
  const service = new SyncService(database);
  let server: ReturnType<typeof serve>;
  try {
    // Before listening for requests: a change stream opened at once must hear other processes' changes.
    await service.listen();
    const app = createSyncApp({
      service,
      authenticate: options.authenticate,
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
      ...(options.keepAliveMs ? { keepAliveMs: options.keepAliveMs } : {}),
      ...(options.maxStreamsPerUser ? { maxStreamsPerUser: options.maxStreamsPerUser } : {}),
    });
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: options.port ?? 8787, hostname: host(options) }, () => resolve(s));
      // A port in use: without this the start waited for ever.
      s.once('error', reject);
    });
  } catch (error) {
    // A failed start lets go of what it took: the libsql file's owner file above all, which a retry needs.
    await service.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
  // Longer than clients keep idle connections (undici: 4 s), so a client never reuses one the server just closed.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host(options)}:${port}`,
    port,
    service,
    async close() {
      // Open change streams would hold the listener open for ever.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
      await database.close();
    },
  };
}

const host = (options: SyncServerOptions): string => options.host ?? '127.0.0.1';
