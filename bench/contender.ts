/**
 * What every contender offers the workloads. Reads return the same data from
 * all of them (every requested event in append order, plus the session's state),
 * and each read is checked against what was written, so no contender can win by
 * returning less.
 */
import type { Event } from '../src/index.js';

export type ContenderId = 'raw-one-tx' | 'raw-tx-per-event' | 'dexie' | 'store-in-thread' | 'store-worker';

export interface SessionData {
  events: Event[];
  state: Record<string, unknown>;
}

export interface ListedRow {
  id: string;
  lastUpdateTime: number;
  state: Record<string, unknown>;
}

export interface SessionAddress {
  appName: string;
  userId: string;
  sessionId: string;
}

/** A set of appends to one session, for `writeAll`. */
export interface SessionWrites<H> {
  handle: H;
  events: Event[];
}

export interface Contender<H = unknown> {
  readonly id: ContenderId;
  createSession(address: SessionAddress, state?: Record<string, unknown>): Promise<H>;
  /** One awaited append: resolves once it is committed. */
  append(handle: H, event: Event): Promise<void>;
  /** Only the physical-limit contender has it: every write of a workload in one transaction. */
  writeAll?(writes: SessionWrites<H>[]): Promise<void>;
  /** Only the physical-limit contender has it: sessions `s0 .. s{count-1}`, each with `listingState(i)`, in one transaction. */
  createAll?(appName: string, userId: string, count: number): Promise<void>;
  /** The whole session, or with `recent` only its last `recent` events; always with its state. */
  getSession(address: SessionAddress, recent?: number): Promise<SessionData>;
  /** The `limit` most recently updated sessions of a user, newest first, each with its state. */
  listRecent(appName: string, userId: string, limit: number): Promise<ListedRow[]>;
  /** Fixture: a session holding events `0 .. count - 1` of `makeEvents(sessionNo, ...)`, by the fastest path this contender has. */
  buildSession(address: SessionAddress, sessionNo: number, count: number, t0: number): Promise<void>;
  /** Fixture: `count` sessions `s0 .. s{count-1}` of one user, each with `listingState(i)`. */
  buildSessions(appName: string, userId: string, count: number, t0: number): Promise<void>;
  close(): Promise<void>;
}
