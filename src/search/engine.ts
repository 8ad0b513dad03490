/**
 * Search on a store engine's database (beside it, as src/artifacts is): one
 * index per app and user, loaded on its first search, then kept current from
 * the change notices (this engine's at once, other tabs' over the broadcast
 * channel) off the commit path, and saved when the store has been idle a while.
 * Trusts its input: the front and the worker host validate first.
 */

import { InvalidInputError } from '../core/errors.js';
import { DEFAULT_SEARCH_LIMIT } from '../core/limits.js';
import { analyse, type MatchMode, matchedRanges, matches, parseQuery, snippetOf } from '../core/text/match.js';
import type { StoreChange } from '../database/changes.js';
import { ChangeFeed } from '../database/changes.js';
import type { DatabaseOwner } from '../database/database.js';
import { bound } from '../database/idb/index.js';
import { keyString } from '../database/keys.js';
import { type EventRecord, eventOf } from '../database/records/index.js';
import type { SearchBackend } from './protocol.js';
import type { SearchEventsRequest, SearchEventsResponse, SearchHit } from './schema.js';
import { eventText } from './text.js';
import { type Candidate, UserIndex } from './user-index.js';

/** Whether a store keeps a search index (an option of `new IndexedDbSessionService`). */
export interface SearchOptions {
  /**
   * `false`: this store keeps no search index (nothing is indexed or saved) and
   * `searchEvents` rejects. Default `true`; an index is built only for the apps
   * and users that are searched.
   */
  search?: boolean;
}

/** How long the store must be quiet before changed shards are saved. */
const SAVE_AFTER_IDLE_MS = 2_000;
/**
 * How long the index waits for the changes to pause before it reads them, and
 * how long at most while they keep coming: a burst of appends is read in a few
 * passes after it, not one pass per commit competing with the burst for the
 * worker's thread. A search never waits: it reads what is pending first.
 */
const CATCH_UP_QUIET_MS = 100;
const CATCH_UP_MAX_LAG_MS = 1_000;

const engines = new WeakMap<DatabaseOwner, SearchBackend>();

/** The search of `engine`, made on first request: the first caller's options stay. */
export function searchEngineFor(engine: DatabaseOwner, options: SearchOptions = {}): SearchBackend {
  let found = engines.get(engine);
  if (!found) {
    found = options.search === false ? new NoSearch() : new SearchEngine(engine);
    engines.set(engine, found);
  }
  return found;
}

class NoSearch implements SearchBackend {
  async searchEvents(): Promise<SearchEventsResponse> {
    throw new InvalidInputError('searchEvents: search is turned off for this store (`search: false`)');
  }
}

export class SearchEngine implements SearchBackend {
  private readonly users = new Map<string, { index: UserIndex; loaded: Promise<void> }>();
  private feed: ChangeFeed | undefined;
  private readonly stopLocal: () => void;
  private catchUpTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest change not yet read arrived. */
  private firstPending: number | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly engine: DatabaseOwner) {
    this.stopLocal = engine.onCommitted((changes) => this.heard(changes));
    engine.onClose(() => this.stop());
  }

  private run = <T>(work: Parameters<DatabaseOwner['transact']>[0]): Promise<T> =>
    this.engine.transact(work) as Promise<T>;

  /** Notes which loaded indexes the changes touch; the work happens later (this runs on the commit path). */
  private heard(changes: readonly StoreChange[]): void {
    let touched = false;
    for (const change of changes) {
      // Drafts are never searched: only the events they become.
      if (change.type === 'drafted') continue;
      const user = this.users.get(keyString([change.appName, change.userId]));
      if (!user) continue;
      user.index.touch(change.sessionId);
      touched = true;
    }
    if (!touched || this.closed) return;
    const now = Date.now();
    this.firstPending ??= now;
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = later(
      () => {
        this.catchUpTimer = undefined;
        this.firstPending = undefined;
        void this.catchUpAll();
      },
      Math.max(0, Math.min(CATCH_UP_QUIET_MS, this.firstPending + CATCH_UP_MAX_LAG_MS - now)),
    );
    this.postponeSave(true);
  }

  /**
   * Saves once the store has been quiet (no change, no search) for a while:
   * serialising a shard holds the worker's thread, which a search or an append
   * arriving then would wait for. `start`: schedule a save if none is pending.
   */
  private postponeSave(start: boolean): void {
    if (this.closed || (!this.saveTimer && !start)) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = later(() => {
      this.saveTimer = undefined;
      void this.saveAll();
    }, SAVE_AFTER_IDLE_MS);
  }

  private async catchUpAll(): Promise<void> {
    for (const { index, loaded } of this.users.values()) {
      if (this.closed) return;
      // A failed read leaves the sessions marked: the next search or change tries again.
      await loaded.then(() => index.catchUp(this.run)).catch(() => {});
    }
  }

  /** Saves every changed shard, one per task: other calls are answered between them. */
  private saveAll(): Promise<void> {
    this.saving ??= (async () => {
      for (const { index, loaded } of this.users.values()) {
        if (
          !(await loaded.then(
            () => true,
            () => false,
          ))
        )
          continue;
        const { appName, userId } = index;
        await index.vacuum();
        const clear = index.clearSaved;
        for (let record = index.takeDirty(); record && !this.closed; record = index.takeDirty()) {
          const put = record;
          await this.run(async (db) => {
            const tx = db.transaction('searchShards', 'readwrite');
            const shards = tx.objectStore('searchShards');
            // Shards of an older format go in the transaction that writes the first new one.
            if (index.clearSaved) shards.delete(bound([appName, userId], [appName, userId, Infinity]));
            shards.put(put);
            await tx.done;
            index.clearSaved = false;
          }).catch(() => {
            index.markDirty(put.shard);
            index.clearSaved ||= clear;
          });
          await new Promise((resolve) => later(resolve, 0));
        }
      }
    })().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  /** The index of one app and user, loaded (and caught up with the events) on first use. */
  private async indexOf(appName: string, userId: string): Promise<UserIndex> {
    const key = keyString([appName, userId]);
    let user = this.users.get(key);
    if (!user) {
      const index = new UserIndex(appName, userId);
      const loaded = index.load(this.run);
      user = { index, loaded };
      this.users.set(key, user);
      // Other tabs' changes (their own workers) arrive over the channel; this engine's already came.
      this.feed ??= new ChangeFeed(this.engine.dbName);
      if (this.feed.size === 0) this.feed.subscribe({}, (change) => this.heard([change]));
      loaded.catch(() => {
        if (this.users.get(key) === user) this.users.delete(key);
      });
    }
    await user.loaded;
    const hadWork = user.index.behind;
    await user.index.catchUp(this.run);
    this.postponeSave(hadWork);
    return user.index;
  }

  async searchEvents(request: SearchEventsRequest): Promise<SearchEventsResponse> {
    const { appName, userId, query, sessionId } = request;
    const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
    const offset = request.offset ?? 0;
    const mode: MatchMode = request.match ?? 'all';
    const terms = parseQuery(query, {
      prefix: request.prefix ?? true,
      fuzzy: request.fuzzy ?? true,
      forms: request.forms ?? true,
    });
    if (terms.length === 0) return { hits: [] };
    const index = await this.indexOf(appName, userId);
    const candidates = index.candidates(terms, mode, sessionId);
    const hits: SearchHit[] = [];
    let skip = offset;
    for (let at = 0; at < candidates.length && hits.length < limit; ) {
      const take = candidates.slice(at, at + limit - hits.length + skip + 4);
      at += take.length;
      const records = await this.read(take);
      take.forEach((candidate, i) => {
        const record = records[i];
        if (!record || hits.length >= limit) return;
        // The index may lag the events (another tab's write not yet heard): a hit is checked against what is stored.
        const event = eventOf(record);
        const text = eventText(event);
        if (text === undefined) return;
        const doc = analyse(text);
        if (!matches(doc, terms, mode)) return;
        if (skip > 0) {
          skip--;
          return;
        }
        hits.push({
          sessionId: candidate.sessionId,
          eventId: record.id,
          author: event.author,
          timestamp: record.timestamp,
          score: candidate.score,
          snippet: snippetOf(text, matchedRanges(doc, terms, mode)),
        });
      });
    }
    return { hits };
  }

  private read(candidates: Candidate[]): Promise<(EventRecord | undefined)[]> {
    return this.run(async (db) => {
      const events = db.transaction('events', 'readonly').objectStore('events');
      return Promise.all(candidates.map((c) => events.get([c.uid, c.seq])));
    });
  }

  /**
   * Saves what changed now instead of after the idle delay; resolves when it is
   * saved. Tests and benchmarks use it; the store saves on its own.
   */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.catchUpAll();
    await this.saving;
    await this.saveAll();
  }

  private stop(): void {
    this.closed = true;
    this.stopLocal();
    this.feed?.close();
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.users.clear();
  }
}

/** A timer that does not keep a Node process alive (the store never does: see the README). */
function later(fn: (value?: unknown) => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(fn, ms);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
