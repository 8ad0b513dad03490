/**
 * `npm run server`: the sync server from the environment.
 *   PORT (default 8787), HOST (default 127.0.0.1),
 *   DATABASE_URL=postgres://... for Postgres, else SYNC_DB_FILE (default ./sync.db, libsql),
 *   SYNC_TOKENS="token=userId[@appName][+app-state],..." the bearer tokens, whom each acts for, and
 *     (with +app-state) that it may write `app:` state, which every user of the app sees,
 *   SYNC_MAX_BODY_BYTES (default 4 MiB) the largest request body,
 *   SYNC_MAX_STREAMS_PER_USER (default 16) the change streams one user may hold open,
 *   SYNC_CORS_ORIGINS="https://app.example,..." the pages that may call it (default any).
 * Without SYNC_TOKENS it runs for development only: token `dev-token` acts for user `demo-user` of any app
 * and may write app state. A setting it cannot read stops it with a message naming it (exit code 1), and so
 * does a libsql file another server process holds (several processes need DATABASE_URL, Postgres).
 */
import { readConfig } from './config.js';
import { DatabaseInUseError } from './database.js';
import { startSyncServer } from './start.js';

const config = readConfig(process.env);
if ('errors' in config) {
  for (const error of config.errors) console.error(`sync server: ${error}`);
  process.exit(1);
}
if (config.development) {
  console.warn('SYNC_TOKENS is not set: development mode, token "dev-token" acts for user "demo-user" of any app');
}
const { tokens } = config;
const server = await startSyncServer({ ...config.options, authenticate: (token) => tokens.get(token) }).catch(
  (error: unknown) => {
    // The one start failure an operator causes by running a second process: its message is the whole story.
    if (error instanceof DatabaseInUseError) console.error(`sync server: ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
console.log(`sync server listening on ${server.url}`);
const stop = (): void => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
