/**
 * A map key for a tuple of ids. Must be injective: ids may contain any
 * character (`\0` included), so joining with a separator would let
 * ['a\0b', 'c'] and ['a', 'b\0c'] share a key and one session's or user's
 * write land in another's records.
 */
export const keyString = (parts: readonly (string | number)[]): string => JSON.stringify(parts);
