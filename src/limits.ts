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
