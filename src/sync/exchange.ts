/**
 * What one sync round exchanges with the server (the engine, sync-engine.ts,
 * decides when rounds run): it pushes what is pending (deletions, creations,
 * each session's events after its server position, then erasures of events the
 * server holds) and pulls the user's change feed from the stored cursor. Every
 * step re-reads what it needs from the database and writes its outcome in one
 * transaction, so a crash at any point only repeats work.
 */

import { SessionNotFoundError, SyncError } from '../core/errors.js';
import { EventNotFoundError } from '../core/event-not-found.js';
import type { StateRecord } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import type { Db } from '../database/idb/index.js';
import type { StoreSchema } from '../database/records/index.js';
import type { DeleteSessionRequest, EraseRequest, EraseResult, Event } from '../types.js';
import {
  erasureApplied,
  erasureBatches,
  erasureCount,
  erasuresSent,
  erasuresToSend,
  sortErasures,
} from './erasures.js';
import {
  adoptCreated,
  integrate,
  type Key,
  type PendingScan,
  readPending,
  scanPending,
  type UserKey,
} from './local.js';
import { dropMark, localSharedWrites, markCreated, markOf, replaceShared, saveCursor } from './marks.js';
import { decide, type SyncConflictPolicy } from './policy.js';
import { fitting, inOrder, refusable, SessionRefused } from './round-steps.js';
import type { SyncStatus } from './status.js';
import type { SyncTransport } from './transport.js';
import { type Change, type Erasure, MAX_PUSH_EVENTS, type Positioned, type ServerLimits } from './wire.js';

/** What sync needs of the store: `StoreEngine` is one. */
export interface SyncHost {
  readonly dbName: string;
  transact<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T>;
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  /** The store's erase, its marks dated `at`, each event keeping the state delta `kept` names for it. */
  erase(request: EraseRequest, at?: number, kept?: ReadonlyMap<string, StateRecord>): Promise<EraseResult>;
  announce(changes: readonly StoreChange[]): void;
}

export class Exchange {
  constructor(
    private readonly host: SyncHost,
    private readonly transport: SyncTransport,
    private readonly user: UserKey,
    private readonly conflict: SyncConflictPolicy | undefined,
  ) {}

  scan(): Promise<PendingScan> {
    return this.host.transact((db) => scanPending(db, this.user));
  }

  private key(sessionId: string): Key {
    return [this.user.appName, this.user.userId, sessionId];
  }

  /**
   * Pushes deletions, creations and events. `deferred`: a session the server had already needs a pull first.
   * A session the server refuses is noted in `refused` and skipped; the others go on.
   */
  async push(refused: SyncStatus['refused']): Promise<{ conflicted: boolean; deferred: boolean }> {
    const limits = await this.transport.limits();
    let scan = await this.scan();
    let deferred = false;
    let conflicted = false;
    for (const mark of scan.deletes) {
      await this.transport.remove(mark.id);
      await this.host.transact((db) => dropMark(db, this.key(mark.id), mark.uid));
    }
    const shared = scan.creates.length > 0 ? await this.host.transact((db) => localSharedWrites(db, this.user)) : {};
    for (const record of scan.creates) {
      // The creation also carries this device's unreported `app:`/`user:` writes: no event does.
      const state = { ...shared, ...record.state };
      const outcome = await refusable(record.id, refused, () => this.transport.create(record.id, state));
      if (outcome === undefined) continue;
      await this.host.transact((db) =>
        markCreated(db, this.key(record.id), record.uid, outcome === 'created' ? { state: record.state } : 'exists'),
      );
    }
    if (scan.deletes.length > 0 || scan.creates.length > 0) scan = await this.scan();
    for (const { record, mark } of scan.appends) {
      if (Object.hasOwn(refused, record.id)) continue;
      if (mark.awaitingCreated) {
        // The server's creation and events come with the pull; the local events then go after them.
        deferred = true;
        continue;
      }
      if (await refusable(record.id, refused, () => this.pushSession(record.id, limits))) conflicted = true;
    }
    // After the events, and even for a session whose events were refused: an erasure names only
    // events the server holds, and what they said must leave it.
    for (const sessionId of scan.erasures) await refusable(sessionId, refused, () => this.pushErasures(sessionId));
    return { conflicted, deferred };
  }

  /** Pushes one session's pending events until none are left; resolves true if the server's overtook some. */
  private async pushSession(sessionId: string, limits: ServerLimits): Promise<boolean> {
    const key = this.key(sessionId);
    let conflicted = false;
    // Accepted pushes always advance; conflicts are bounded so a busy session cannot hold the round.
    for (let conflicts = 0; conflicts < 8; ) {
      const pending = await this.host.transact((db) =>
        readPending(db, key, Math.min(MAX_PUSH_EVENTS, limits.maxPushEvents)),
      );
      if (!pending || pending.events.length === 0) return conflicted;
      const after = pending.mark.serverPos;
      const events = fitting(after, pending.events, limits.maxBodyBytes);
      if (events.length === 0) {
        const first = pending.events[0] as Event;
        throw new SessionRefused(
          sessionId,
          `event ${first.id} of session ${sessionId} is larger than the server accepts (${limits.maxBodyBytes} bytes a request)`,
          413,
        );
      }
      const answer = await this.transport.push(sessionId, after, events);
      if (answer.status === 'missing') return conflicted;
      if (answer.status === 'accepted') {
        await this.apply(key, { placed: answer.answer.placed });
        continue;
      }
      conflicted = true;
      conflicts += 1;
      await this.applyIncoming(sessionId, answer.events, events);
    }
    return conflicted;
  }

  /** Sends the session's erasures (see erasures.ts), in pieces a push may carry. */
  private async pushErasures(sessionId: string): Promise<void> {
    const key = this.key(sessionId);
    const owed = await this.host.transact((db) => erasuresToSend(db, key));
    if (!owed) return;
    const limits = await this.transport.limits();
    for (const batch of erasureBatches(owed.erasures, MAX_PUSH_EVENTS, limits.maxBodyBytes)) {
      const answer = await this.transport.erase(sessionId, batch);
      if (answer === 'missing') break;
      if (answer === 'unsupported') {
        const why = `the sync server does not take erasures (an earlier release): events of session ${sessionId} erased here keep their content there`;
        throw new SessionRefused(sessionId, why, 404);
      }
    }
    await this.host.transact((db) => erasuresSent(db, key, owed.uid, owed.count));
  }

  private async applyIncoming(sessionId: string, incoming: Positioned[], pending?: Event[]): Promise<void> {
    const key = this.key(sessionId);
    let decision: 'rebase' | 'fork' | 'drop' = 'rebase';
    if (this.conflict !== undefined && this.conflict !== 'rebase') {
      const local = pending ?? (await this.host.transact((db) => readPending(db, key, MAX_PUSH_EVENTS)))?.events ?? [];
      const arrived = new Set(incoming.map((e) => e.event.id));
      const still = local.filter((e) => !arrived.has(e.id));
      if (still.length > 0) {
        decision = await decide(this.conflict, {
          ...this.user,
          sessionId,
          server: incoming.map((e) => e.event),
          pending: still,
        });
      }
    }
    const done = await this.apply(key, { incoming, decision });
    if (done.gap)
      throw new SyncError(`the server's events for session ${sessionId} did not continue this device's`, 'server', 0);
  }

  private async apply(key: Key, work: Parameters<typeof integrate>[2]) {
    const done = await this.host.transact((db) => integrate(db, key, work));
    this.host.announce(done.changes);
    return done;
  }

  /** Reads the feed from the stored cursor to its end, storing the cursor after each page; resolves the cursor reached. */
  async pull(): Promise<number> {
    const scan = await this.scan();
    let cursor = scan.cursor?.cursor ?? 0;
    let resynced = false;
    for (;;) {
      const answer = await this.transport.pull(cursor);
      const gap = await this.applyChanges(inOrder(answer.changes, cursor));
      if (gap) {
        // The feed and a session's mark disagree (a bug, or a server restored from a backup):
        // read the whole feed again, once; every step of it is idempotent.
        if (resynced) throw new SyncError("the server's change feed does not continue this device's copy", 'server');
        resynced = true;
        cursor = 0;
        await this.host.transact((db) => saveCursor(db, this.user, 0, undefined));
        continue;
      }
      cursor = answer.cursor;
      await this.host.transact((db) =>
        saveCursor(db, this.user, cursor, { app: answer.appState, user: answer.userState }),
      );
      if (!answer.more) {
        const after = await this.scan();
        if (after.creates.length === 0 && after.deletes.length === 0 && after.appends.length === 0) {
          await this.host.transact((db) => replaceShared(db, this.user, answer.appState, answer.userState));
        }
        return cursor;
      }
    }
  }

  /**
   * The server's erasures, by the store's own erase (its hooks clear memory and search), each at its
   * time and keeping the state delta the server's names (absent, from an earlier release: none).
   */
  private async applyErasures(key: Key, erasures: Erasure[]): Promise<void> {
    const { changes, toApply } = await this.host.transact((db) => sortErasures(db, key, erasures));
    this.host.announce(changes);
    const byTime = new Map<number, string[]>();
    const kept = new Map<string, StateRecord>();
    for (const { id, at, stateDelta } of toApply) {
      byTime.set(at, [...(byTime.get(at) ?? []), id]);
      kept.set(id, stateDelta ?? {});
    }
    for (const [at, eventIds] of byTime) {
      const request = { appName: key[0], userId: key[1], sessionId: key[2], eventIds };
      try {
        const from = await this.host.transact((db) => erasureCount(db, key));
        const { erasedNow } = await this.host.erase(request, at, kept);
        if (erasedNow.length > 0) await this.host.transact((db) => erasureApplied(db, key, from));
      } catch (error) {
        // Deleted or rewritten here meanwhile (a local delete, a rebase): nothing of it left to erase.
        if (!(error instanceof SessionNotFoundError || error instanceof EventNotFoundError)) throw error;
      }
    }
  }

  /** Applies a page of changes in order; consecutive events of one session in one transaction. Resolves true on a gap. */
  private async applyChanges(changes: Change[]): Promise<boolean> {
    let run: { sessionId: string; events: Positioned[] } | undefined;
    const flush = async (): Promise<boolean> => {
      if (!run) return false;
      const { sessionId, events } = run;
      run = undefined;
      try {
        await this.applyIncoming(sessionId, events);
        return false;
      } catch (error) {
        if (error instanceof SyncError) return true;
        throw error;
      }
    };
    for (const change of changes) {
      if (change.type === 'event') {
        if (run && run.sessionId !== change.sessionId && (await flush())) return true;
        run ??= { sessionId: change.sessionId, events: [] };
        run.events.push({ pos: change.pos, event: change.event });
        continue;
      }
      if (await flush()) return true;
      const key = this.key(change.sessionId);
      if (change.type === 'erased') {
        await this.applyErasures(key, change.erasures);
      } else if (change.type === 'created') {
        this.host.announce(await this.host.transact((db) => adoptCreated(db, key, change.state)));
      } else {
        const { mark, current } = await this.host.transact((db) => markOf(db, key));
        if (mark && current) await this.host.deleteSession({ ...this.user, sessionId: change.sessionId });
        if (mark) await this.host.transact((db) => dropMark(db, key, mark.uid));
      }
    }
    return flush();
  }
}
