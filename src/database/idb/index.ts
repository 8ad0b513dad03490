/**
 * The store's own promise layer over IndexedDB, in place of `idb`: `idb`
 * recognises IndexedDB's objects by the global classes of its realm, so it
 * cannot drive a factory passed in where those globals are absent.
 */
export { type Bounds, bound, Cursor, type Query, type Realm, realmOf } from './cursor.js';
export { Db, Index, type Schema, Store, Tx } from './handles.js';
export { completion, handled, settle } from './requests.js';
