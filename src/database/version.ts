/**
 * The schema's version: the count of upgrade steps in ./open.ts, which refuses to load
 * when they differ. Its own module so that the page's first reads can check a database's
 * version without loading the steps.
 */
export const SCHEMA_VERSION = 6;
