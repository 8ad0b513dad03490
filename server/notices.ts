/**
 * What a server process announces on the change channel after a commit (Postgres NOTIFY): whose
 * log moved, and to which cursor. Every process parses what it hears; a payload that is not one
 * (another writer on the channel) reads as `undefined`, never as an error in the driver's handler.
 */

/**
 * The payload as SQL, `[appName, userId, cursor]` as JSON text, for the statement that writes the
 * change (log.ts `append`): its two `?` take the app's and the user's names; `cursor` is an
 * expression of that statement.
 */
export const noticeSql = (cursor: string): string => `json_build_array(?::text, ?::text, ${cursor})::text`;

export function parseNotice(
  payload: string,
): { user: { appName: string; userId: string }; cursor: number } | undefined {
  try {
    const [appName, userId, cursor] = JSON.parse(payload) as unknown[];
    if (typeof appName !== 'string' || typeof userId !== 'string' || typeof cursor !== 'number') return undefined;
    return { user: { appName, userId }, cursor };
  } catch {
    return undefined;
  }
}
