/**
 * Key ranges over the `artifacts` store. Keys are
 * `[appName, userId, scope, filename, version]`; an array sorts after every
 * string and number, so `[..., x, []]` closes the range of everything under `x`
 * (and `doc`'s range never reaches `doc/nested`).
 */

import { type Bounds, bound, type Store } from '../database/idb/index.js';
import type { ArtifactKey } from '../database/records/artifacts.js';
import type { StoreSchema } from '../database/records/index.js';

export type ArtifactStore = Store<StoreSchema['artifacts']>;

/** Every version of one artifact. */
export const versionsRange = (appName: string, userId: string, scope: string, filename: string): Bounds<ArtifactKey> =>
  bound([appName, userId, scope, filename] as unknown as ArtifactKey, [appName, userId, scope, filename, []]);

/** Every artifact of one scope (a session's, or the user's). */
export const scopeRange = (appName: string, userId: string, scope: string): Bounds<ArtifactKey> =>
  bound([appName, userId, scope] as unknown as ArtifactKey, [appName, userId, scope, []]);

/** Everything under a key prefix (an app, a user of it, a session of that user). */
export const prefixRange = (prefix: string[]): Bounds<ArtifactKey> =>
  bound(prefix as unknown as ArtifactKey, [...prefix, []]);
