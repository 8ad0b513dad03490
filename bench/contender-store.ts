/**
 * Contenders 4 and 5: this store in the page's thread, and through its worker
 * client (the product as used). Both are driven only through the public API;
 * fixtures are written by `importSessions`, the store's bulk path.
 */
import {
  IndexedDbSessionService,
  openSessionStore,
  type Session,
  type SessionStore,
  SessionStoreClient,
} from '../src/index.js';
import type { Contender, ListedRow, SessionAddress, SessionData } from './contender.js';
import { listingState, makeEvents, stateAfter } from './events.js';

export class StoreContender implements Contender<Session> {
  private constructor(
    readonly id: 'store-in-thread' | 'store-worker',
    private readonly service: IndexedDbSessionService | SessionStore,
  ) {}

  static inThread(dbName: string): StoreContender {
    return new StoreContender('store-in-thread', new IndexedDbSessionService({ dbName }));
  }

  static worker(dbName: string): StoreContender {
    return new StoreContender('store-worker', openSessionStore({ dbName, mode: 'dedicated' }));
  }

  /** Resolves once the worker has answered (the in-thread store is ready at once). */
  async ready(): Promise<void> {
    if (this.service instanceof SessionStoreClient) await this.service.ready;
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

  /** The store's bulk path: one import, one transaction, as an app restoring a backup would. */
  async buildSession(address: SessionAddress, sessionNo: number, count: number, t0: number): Promise<void> {
    await this.service.importSessions([
      {
        id: address.sessionId,
        appName: address.appName,
        userId: address.userId,
        state: stateAfter(sessionNo, count, t0),
        events: makeEvents(sessionNo, 0, count, t0),
        lastUpdateTime: t0 + count - 1,
      },
    ]);
  }

  /**
   * One import of sessions stamped one millisecond apart, in creation order, as
   * the other contenders' fixtures are: an update time moving backwards would
   * leave the listing index's deleted entries at its newest end, which
   * IndexedDB (LevelDB underneath) skips over until it compacts.
   */
  async buildSessions(appName: string, userId: string, count: number, t0: number): Promise<void> {
    await this.service.importSessions(
      Array.from({ length: count }, (_, i) => ({
        id: `s${i}`,
        appName,
        userId,
        state: listingState(i),
        events: [],
        lastUpdateTime: t0 + i,
      })),
    );
  }

  close(): Promise<void> {
    return this.service.close();
  }
}
