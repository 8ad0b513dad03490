/**
 * The catalog's public data types: what the store holds, for tools that browse it (the demo
 * inspector, admin pages). Beyond ADK's shapes. Plain declarations checked against their zod
 * schemas by test/types/named-types.test-d.ts; this module imports nothing.
 */

/** Which sessions' keys to list: every app's (nothing given), one app's, or one user's (`userId` needs `appName`). */
export type ListSessionKeysRequest = {
  /** The app; every app when absent. */
  appName?: string;
  /** The user of `appName`; every user when absent. */
  userId?: string;
};

/** Users of one app, by `userId` ascending; `offset` and `limit` page through them. */
export type ListUsersRequest = {
  /** The app whose users to list. */
  appName: string;
  /** At most this many users; all of them when absent. */
  limit?: number;
  /** How many users to skip first. */
  offset?: number;
};

/** An app the store holds state or sessions for. */
export interface AppSummary {
  /** The app's name. */
  appName: string;
  /** Sessions the app has now, over all its users; 0 once they are all deleted (its app state remains). */
  sessionCount: number;
}

/** A user of an app. */
export interface UserSummary {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
  /** Sessions the user has now in that app; 0 once they are all deleted (the user state remains). */
  sessionCount: number;
}
