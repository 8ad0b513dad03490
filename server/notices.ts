/**
 * What a server process announces on the change channel after a commit (Postgres NOTIFY): whose
 * log moved, and to which cursor. Every process parses what it hears; a payload that is not one
 * (another writer on the channel) reads as `undefined`, never as an error in the driver's handler.
 */
import type { UserKey } from './log.js';

export const noticeOf = (user: UserKey, cursor: number): string => JSON.stringify([user.appName, user.userId, cursor]);

export function parseNotice(payload: string): { user: UserKey; cursor: number } | undefined {
  try {
    const [appName, userId, cursor] = JSON.parse(payload) as unknown[];
    if (typeof appName !== 'string' || typeof userId !== 'string' || typeof cursor !== 'number') return undefined;
    return { user: { appName, userId }, cursor };
  } catch {
    return undefined;
  }
}
