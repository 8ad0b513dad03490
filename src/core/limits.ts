/**
 * The store's size limits, in a module of their own: the page imports them
 * without the schemas that enforce them (those run where the engine runs).
 */

/** Longest accepted `appName`, `userId`, session id or event id, in UTF-16 code units. */
export const MAX_ID_LENGTH = 1024;
/** Largest accepted event or initial state, measured as JSON characters. */
export const MAX_RECORD_SIZE = 8 * 1024 * 1024;
/** Longest accepted artifact filename, in UTF-16 code units. */
export const MAX_FILENAME_LENGTH = 1024;
/** Largest accepted artifact `customMetadata`, in JSON characters. */
export const MAX_METADATA_SIZE = 64 * 1024;
/** Longest accepted `searchEvents` query, in UTF-16 code units (a search box's; memory takes a message of any length). */
export const MAX_QUERY_LENGTH = 1024;
/** Most hits one call returns. */
export const MAX_SEARCH_LIMIT = 100;
/** Hits a call returns unless it says otherwise. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Deepest page: hits are ranked, then checked one by one against the stored events, up to offset + limit. */
export const MAX_SEARCH_OFFSET = 10_000;
/** Most sessions' append batches one `appendMany` message may carry; a client splits larger rounds. */
export const MAX_BATCHES = 10_000;

/** How much of a stream (ms) a crash may lose unless `drafts.begin` says otherwise (`maxLossMs`). */
export const DEFAULT_MAX_LOSS_MS = 250;
/** Most drafts (src/drafts) one session holds: a reply streams into one, so this bounds replies streaming at once. */
export const MAX_DRAFTS_PER_SESSION = 16;
/** How long an interrupted draft is kept after its last write (a week); then it is left out of reads and removed. */
export const DRAFT_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

/** Most events one append batch may carry over the worker boundary. */
export const MAX_BATCH_EVENTS = 10_000;
