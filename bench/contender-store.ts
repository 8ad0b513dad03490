/**
 * Contenders 4 and 5: this store in the page's thread, and through its worker
 * client (the product as used). Both are driven only through the public API;
 * fixtures use un-awaited appends so group commit batches them.
 */
import { IndexedDbSessionService, openSessionStore, type Session, type SessionStore } from '../src/index.js';
import type { Contender, ListedRow, SessionAddress, SessionData } from './contender.js';
import { listingState, makeEvents } from './events.js';

/** Appends in flight at once while building a fixture. */
const FIXTURE_CHUNK = 1000;
/** Creates in flight at once while building a fixture. */
const CREATE_CHUNK = 500;

export class StoreContender implements Contender<Session> {
  private constructor(
    readonly id: 'store-in-thread' | 'store-worker',
    private readonly service: SessionStore,
  ) {}

  static inThread(dbName: string): StoreContender {
    return new StoreContender('store-in-thread', new IndexedDbSessionService({ dbName }));
  }

  static worker(dbName: string): StoreContender {
    return new StoreContender('store-worker', openSessionStore({ dbName, mode: 'dedicated' }));
  }

  /** Resolves once the worker has answered (the in-thread store is ready at once). */
  async ready(): Promise<void> {
    await this.service.ready;
  }

  createSession(address: SessionAddress, state?: Record<string, unknown>): Promise<Session> {
    return this.service.createSession({ ...address, ...(state ? { state } : {}) });
  }

  async append(session: Session, event: Session['events'][number]): Promise<void> {
    await this.service.appendEvent({ session, event });
  }

  async getSession(address: SessionAddress, recent?: number): Promise<SessionData> {
    const session = await this.service.getSession({
      ...address,
      ...(recent !== undefined ? { config: { numRecentEvents: recent } } : {}),
    });
    if (!session) throw new Error(`${this.id}: no session ${address.sessionId}`);
    return { events: session.events, state: session.state };
  }

  async listRecent(appName: string, userId: string, limit: number): Promise<ListedRow[]> {
    const { sessions } = await this.service.listSessions({ appName, userId, limit, order: 'desc' });
    return sessions.map((s) => ({ id: s.id, lastUpdateTime: s.lastUpdateTime, state: s.state }));
  }

  async buildSession(address: SessionAddress, sessionNo: number, count: number, t0: number): Promise<void> {
    const session = await this.service.createSession(address);
    for (let from = 0; from < count; from += FIXTURE_CHUNK) {
      const events = makeEvents(sessionNo, from, Math.min(count, from + FIXTURE_CHUNK), t0);
      await Promise.all(events.map((event) => this.service.appendEvent({ session, event })));
      // The in-place update looks for each event's id in `session.events`; an app
      // keeping 100,000 events in one object would pay that scan, a fixture need not.
      session.events.length = 0;
    }
  }

  /**
   * The store stamps a new session with the time of its creation, so sessions
   * created together would tie; one event each, with no state change, gives
   * them the distinct update times the other contenders' fixtures have. The
   * event is stamped after its session's creation, as real events are: an
   * update time moving backwards would leave the index's deleted entries at
   * the newest end, which IndexedDB (LevelDB underneath) skips over until it
   * compacts, and would slow the newest-first listing for that reason alone.
   */
  async buildSessions(appName: string, userId: string, count: number): Promise<void> {
    let stamp = 0;
    for (let from = 0; from < count; from += CREATE_CHUNK) {
      const ids = Array.from({ length: Math.min(count, from + CREATE_CHUNK) - from }, (_, k) => from + k);
      const sessions = await Promise.all(
        ids.map((i) => this.service.createSession({ appName, userId, sessionId: `s${i}`, state: listingState(i) })),
      );
      stamp = Math.max(stamp, Date.now());
      await Promise.all(
        sessions.map((session) =>
          this.service.appendEvent({
            session,
            event: { id: 'opened', invocationId: 'fixture', author: 'user', timestamp: ++stamp },
          }),
        ),
      );
    }
  }

  close(): Promise<void> {
    return this.service.close();
  }
}
