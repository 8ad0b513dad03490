/**
 * A live session. An append to it is read narrowly: the change notice names
 * the stored event ids, so only the last that-many events (and the session's
 * state) are read and laid over the held session, not its whole history.
 * Changes to other sessions of the app can touch only the shared `app:` and
 * `user:` scopes: those are re-read alone, and nothing is published when they
 * did not change.
 */

import { setOwn } from '../core/json.js';
import { jsonEqual } from '../core/json-equal.js';
import { APP_PREFIX, mergeState, USER_PREFIX } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import type { Event, GetSessionRequest, Session } from '../types.js';
import { LiveQueryBase, UNCHANGED } from './query.js';
import { scopesOf } from './scopes.js';
import type { LiveOptions, LiveStore } from './types.js';

/** A narrow read that finds newer events than it expected tries again this many times, then reads everything. */
const NARROW_ATTEMPTS = 3;

/** What a live session holds, and how it reads it again: the logic of `LiveSession`, shared with `LiveSessionDrafts`. */
export class SessionReader {
  private full = true;
  /** Ids of stored events not yet laid over the held session, in commit order. */
  private pending: string[] = [];
  private appDirty = false;
  private userDirty = false;

  constructor(
    private readonly store: LiveStore,
    private readonly request: GetSessionRequest,
  ) {}

  reset(): void {
    this.full = true;
    this.pending = [];
    this.appDirty = this.userDirty = false;
  }

  /** The next refresh reads the whole session: it changed without a notice heard yet. */
  force(): void {
    this.full = true;
  }

  accept(change: StoreChange): boolean {
    const { userId, sessionId } = this.request;
    // A draft's write leaves the session as it was (watchDrafts follows drafts).
    if (change.type === 'drafted') return false;
    if (change.userId === userId && change.sessionId === sessionId) {
      if (change.type === 'appended') this.pending.push(...change.eventIds);
      else this.full = true;
      return true;
    }
    const scopes = scopesOf(change);
    const user = scopes.user && change.userId === userId;
    if (scopes.app) this.appDirty = true;
    if (user) this.userDirty = true;
    return scopes.app || user;
  }

  async refresh(held: Session | undefined): Promise<Session | undefined | typeof UNCHANGED> {
    if (this.full || held === undefined) return this.readAll(held);
    if (this.pending.length > 0) return this.readTail(held);
    if (this.appDirty || this.userDirty) return this.readScopes(held);
    return UNCHANGED;
  }

  private async readAll(held: Session | undefined): Promise<Session | undefined | typeof UNCHANGED> {
    this.reset();
    this.full = false;
    const session = await this.store.getSession(this.request);
    return jsonEqual(session, held) ? UNCHANGED : session;
  }

  private async readTail(held: Session): Promise<Session | undefined | typeof UNCHANGED> {
    let expected = this.takePending();
    // The tail read carries the whole merged state: scope changes noted so far are covered.
    this.appDirty = this.userDirty = false;
    const { appName, userId, sessionId } = this.request;
    for (let attempt = 0; attempt < NARROW_ATTEMPTS; attempt++) {
      const tail = await this.store.getSession({
        appName,
        userId,
        sessionId,
        config: { numRecentEvents: expected.length },
      });
      if (tail === undefined) return this.readAll(held);
      // A new compaction moves where a `fromLatestCompaction` session starts: read it again.
      if (this.request.config?.fromLatestCompaction && tail.events.some(isCompaction)) return this.readAll(held);
      if (sameIds(tail.events, expected)) {
        const next = { ...tail, events: this.window(overlay(held.events, tail.events)) };
        return jsonEqual(next, held) ? UNCHANGED : next;
      }
      // Newer appends landed during the read: their notices explain the difference.
      if (this.pending.length === 0) break;
      expected = dedupe([...expected, ...this.takePending()]);
    }
    // An event replaced further back, or notices missed: read it all.
    return this.readAll(held);
  }

  private async readScopes(held: Session): Promise<Session | typeof UNCHANGED> {
    const readApp = this.appDirty;
    const readUser = this.userDirty;
    this.appDirty = this.userDirty = false;
    const { appName, userId } = this.request;
    const [app, user] = await Promise.all([
      readApp ? this.store.getAppState({ appName }) : undefined,
      readUser ? this.store.getUserState({ appName, userId }) : undefined,
    ]);
    const own: Record<string, unknown> = {};
    const heldApp: Record<string, unknown> = {};
    const heldUser: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(held.state)) {
      if (key.startsWith(USER_PREFIX)) setOwn(heldUser, key.slice(USER_PREFIX.length), value);
      else if (key.startsWith(APP_PREFIX)) setOwn(heldApp, key.slice(APP_PREFIX.length), value);
      else setOwn(own, key, value);
    }
    const state = mergeState(app ?? heldApp, user ?? heldUser, own);
    return jsonEqual(state, held.state) ? UNCHANGED : { ...held, state };
  }

  private takePending(): string[] {
    const ids = dedupe(this.pending);
    this.pending = [];
    return ids;
  }

  /** The request's own event filters, applied to the overlaid list as `getSession` applies them to storage. */
  private window(events: Event[]): Event[] {
    const { afterTimestamp, numRecentEvents } = this.request.config ?? {};
    let kept = afterTimestamp === undefined ? events : events.filter((e) => e.timestamp >= afterTimestamp);
    if (numRecentEvents !== undefined) kept = numRecentEvents === 0 ? [] : kept.slice(-numRecentEvents);
    return kept;
  }
}

export class LiveSession extends LiveQueryBase<Session | undefined> {
  private readonly reader: SessionReader;

  constructor(store: LiveStore, request: GetSessionRequest, options?: LiveOptions) {
    // App-wide: another session's append may write `app:` (any user) or `user:` (same user) keys.
    super(store, { appName: request.appName }, options);
    this.reader = new SessionReader(store, request);
  }

  protected reset(): void {
    this.reader.reset();
  }

  protected accept(change: StoreChange): boolean {
    return this.reader.accept(change);
  }

  protected refresh(held: Session | undefined): Promise<Session | undefined | typeof UNCHANGED> {
    return this.reader.refresh(held);
  }
}

/** The stored tail laid over the held list: events it names drop out of their place, and it goes last. */
function overlay(held: Event[], tail: Event[]): Event[] {
  const named = new Set(tail.map((e) => e.id));
  return [...held.filter((e) => !named.has(e.id)), ...tail];
}

/** Either shape of compaction event (sessions/compaction.ts reads them in the store). */
const isCompaction = (e: Event): boolean =>
  (e as { isCompacted?: unknown }).isCompacted === true || e.actions?.compaction != null;

/** First occurrence wins: an event replaced after its append keeps its place. */
function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}

function sameIds(events: Event[], ids: string[]): boolean {
  return events.length === ids.length && events.every((e, i) => e.id === ids[i]);
}
