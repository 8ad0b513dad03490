/** The database a store uses when none is named. Its own module: the page-side client needs it, not the engine. */
export const DEFAULT_DB_NAME = 'adk-sessions';
