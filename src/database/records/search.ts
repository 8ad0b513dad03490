/**
 * What the search index keeps in the database: per app and user, a few shards,
 * each a serialised MiniSearch index with the marker of exactly what it holds
 * (which incarnation of which session, at which revision). A shard is written
 * whole in one put, so its index and its marker always agree.
 */

/** Bump when what is indexed, or how, changes: shards of another format are dropped and rebuilt. */
export const SEARCH_FORMAT = 2;

/** What a shard holds of one session. */
export interface SessionMark {
  uid: string;
  sessionId: string;
  /** The session record's revision the indexed events were read at. */
  revision: number;
  /** Its `nextSeq` then: events from there on are new. */
  nextSeq: number;
  /** The record's `erasures` then (absent: none): an erase since means the session is read again whole. */
  erasures?: number;
  /** The `seq`s of its events that have text (the indexed ones). */
  seqs: number[];
}

export interface SearchShardRecord {
  appName: string;
  userId: string;
  shard: number;
  format: number;
  sessions: SessionMark[];
  /** `JSON.stringify` of the shard's MiniSearch index. */
  index: string;
}

export type SearchShardKey = [string, string, number];
