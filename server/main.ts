/**
 * `npm run server`: the sync server from the environment.
 *   PORT (default 8787), HOST (default 127.0.0.1),
 *   DATABASE_URL=postgres://... for Postgres, else SYNC_DB_FILE (default ./sync.db, libsql),
 *   SYNC_TOKENS="token=userId[@appName][+app-state],..." the bearer tokens, whom each acts for, and
 *     (with +app-state) that it may write `app:` state, which every user of the app sees,
 *   SYNC_MAX_BODY_BYTES (default 4 MiB) the largest request body,
 *   SYNC_CORS_ORIGINS="https://app.example,..." the pages that may call it (default any).
 * Without SYNC_TOKENS it runs for development only: token `dev-token` acts for user `demo-user` of any app
 * and may write app state.
 */
import type { Principal } from './app.js';
import { startSyncServer } from './start.js';

function parseTokens(spec: string): Map<string, Principal> {
  const tokens = new Map<string, Principal>();
  for (const entry of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^([^=]+)=([^@+]+)(?:@([^+]+))?(\+app-state)?$/.exec(entry);
    if (!match) throw new Error(`SYNC_TOKENS: "${entry}" is not token=userId[@appName][+app-state]`);
    const [, token, userId, appName, appState] = match as unknown as [string, string, string, string?, string?];
    tokens.set(token, {
      userId,
      ...(appName === undefined ? {} : { appName }),
      ...(appState === undefined ? {} : { appStateWrites: true }),
    });
  }
  return tokens;
}

const spec = process.env.SYNC_TOKENS;
if (spec === undefined) {
  console.warn('SYNC_TOKENS is not set: development mode, token "dev-token" acts for user "demo-user" of any app');
}
const tokens = parseTokens(spec ?? 'dev-token=demo-user+app-state');
const server = await startSyncServer({
  authenticate: (token) => tokens.get(token),
  port: Number(process.env.PORT ?? 8787),
  host: process.env.HOST ?? '127.0.0.1',
  ...(process.env.SYNC_MAX_BODY_BYTES ? { maxBodyBytes: Number(process.env.SYNC_MAX_BODY_BYTES) } : {}),
  ...(process.env.SYNC_CORS_ORIGINS ? { corsOrigins: process.env.SYNC_CORS_ORIGINS.split(',') } : {}),
  ...(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : {}),
  ...(process.env.SYNC_DB_FILE ? { file: process.env.SYNC_DB_FILE } : {}),
});
console.log(`sync server listening on ${server.url}`);
const stop = (): void => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
