/**
 * What the database holds, one record type per object store. Shared scopes are
 * stored without their prefix; events are keyed by the session's `uid` (fresh for
 * every incarnation of a session id) and a sequence number assigned inside the
 * append transaction, so append order holds across tabs whatever the timestamps.
 */

import type { Event } from '../../types.js';
import type { ArtifactKey, ArtifactRecord } from './artifacts.js';
import type { DraftChunkKey, DraftChunkRecord, DraftHeadRecord, DraftKey } from './drafts.js';
import type { MemoryKey, MemoryRecord, MemoryVersionRecord } from './memory.js';
import type { SearchShardKey, SearchShardRecord } from './search.js';
import type { SessionHead, StateEntry } from './state.js';
import type { SyncMark, SyncUser } from './sync.js';

/**
 * A session's head: small whatever the session holds, so the append that
 * rewrites it costs the same at any size. It carries the session's light state
 * values; heavy ones are kept per key (./state.ts).
 */
export interface SessionRecord extends SessionHead {
  /** Unique per incarnation: a session deleted and created again gets a new one. */
  uid: string;
  createTime: number;
  lastUpdateTime: number;
  /** Bumped by every stored event; the stale check compares it. */
  revision: number;
  /**
   * Bumped by every `erase` that changed an event (absent: none did). Not the revision: an erase
   * leaves session objects current, but data derived from the events (the search index) is read again.
   */
  erasures?: number;
  /** The `seq` the next new event gets. */
  nextSeq: number;
  eventCount: number;
}

interface EventPlace {
  uid: string;
  seq: number;
  id: string;
  timestamp: number;
}

/**
 * A stored event. Written as its JSON text (`json`): a string is cloned into
 * and out of IndexedDB far faster than an object, and a worker hands a
 * session's events to the page as one text instead of cloning them a second
 * time. Records written before that hold the object (`event`); both are read.
 */
export type EventRecord = EventPlace & ({ json: string; event?: never } | { event: Event; json?: never });

/** The record that stores `event` at `seq` of incarnation `uid`. `event` must already be in its stored form. */
export function eventRecord(uid: string, seq: number, event: Event): EventRecord {
  return { uid, seq, id: event.id, timestamp: event.timestamp, json: JSON.stringify(event) };
}

/** The event a record holds, as a new object. */
export function eventOf(record: EventRecord): Event {
  return record.json !== undefined ? (JSON.parse(record.json) as Event) : record.event;
}

/** The event a record holds, as JSON text. */
export function eventTextOf(record: EventRecord): string {
  return record.json ?? JSON.stringify(record.event);
}

/** Records' events as the text of one JSON array. */
export function eventsText(records: readonly EventRecord[]): string {
  return `[${records.map(eventTextOf).join(',')}]`;
}

/** An app's session count; its state is kept per key (./state.ts). */
export interface AppRecord {
  appName: string;
  sessionCount: number;
}

/** A user's session count; its state is kept per key (./state.ts). */
export interface UserRecord {
  appName: string;
  userId: string;
  sessionCount: number;
}

/** The object stores, for the typed handles of ./idb. */
export type StoreSchema = {
  sessions: {
    key: [string, string, string];
    value: SessionRecord;
    indexes: {
      byAppTime: [string, number, string, string];
      byUserTime: [string, string, number, string];
    };
  };
  events: {
    key: [string, number];
    value: EventRecord;
    indexes: { byId: [string, string]; byTime: [string, number] };
  };
  appState: { key: string; value: AppRecord; indexes: Record<never, never> };
  userState: { key: [string, string]; value: UserRecord; indexes: Record<never, never> };
  state: { key: string[]; value: StateEntry; indexes: Record<never, never> };
  artifacts: { key: ArtifactKey; value: ArtifactRecord; indexes: Record<never, never> };
  searchShards: { key: SearchShardKey; value: SearchShardRecord; indexes: Record<never, never> };
  memories: { key: MemoryKey; value: MemoryRecord; indexes: Record<never, never> };
  memoryVersions: { key: [string, string]; value: MemoryVersionRecord; indexes: Record<never, never> };
  syncSessions: { key: [string, string, string]; value: SyncMark; indexes: Record<never, never> };
  syncUsers: { key: [string, string]; value: SyncUser; indexes: Record<never, never> };
  drafts: { key: DraftKey; value: DraftHeadRecord; indexes: Record<never, never> };
  draftChunks: { key: DraftChunkKey; value: DraftChunkRecord; indexes: Record<never, never> };
};

export type StoreName =
  | 'sessions'
  | 'events'
  | 'appState'
  | 'userState'
  | 'state'
  | 'artifacts'
  | 'searchShards'
  | 'memories'
  | 'memoryVersions'
  | 'syncSessions'
  | 'syncUsers'
  | 'drafts'
  | 'draftChunks';
/** The session stores. Not `artifacts`: a long Blob write there must not hold up session reads. */
export const ALL_STORES: StoreName[] = ['sessions', 'events', 'appState', 'userState', 'state'];
