/** The sync server, for an app that runs it inside its own Node process. `npm run server` runs main.ts. */
export { type Authenticate, createSyncApp, type Principal, type SyncAppOptions } from './app.js';
export { type Database, DatabaseInUseError, type DatabaseOptions, openDatabase } from './database.js';
export { type RunningSyncServer, type SyncServerOptions, startSyncServer } from './start.js';
export { type PullResult, type PushResult, SyncService } from './sync-service.js';
