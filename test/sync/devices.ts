/** Devices for sync tests: in-thread stores over their own fake-indexeddb, each with a sync engine stepped by hand. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { engineOf } from '../../src/host/engine-of.js';
import { type Event, IndexedDbSessionService, type Session } from '../../src/index.js';
import { SyncEngine, type SyncOptions } from '../../src/sync/index.js';

let devices = 0;

export interface Device {
  store: IndexedDbSessionService;
  sync: SyncEngine;
  /** Closes the store and opens it again over the same database (a reload or a crash after commit). */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export function device(url: string, token: string, options: Partial<SyncOptions> = {}): Device {
  const indexedDB = new IDBFactory();
  const dbName = `device-${++devices}`;
  const make = () => {
    const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
    const sync = new SyncEngine(engineOf(store), {
      url,
      token,
      appName: 'chat',
      userId: 'alice',
      live: false,
      retry: { minMs: 60_000, maxMs: 60_000 },
      ...options,
    });
    return { store, sync };
  };
  let current = make();
  const d: Device = {
    get store() {
      return current.store;
    },
    get sync() {
      return current.sync;
    },
    async reload() {
      await current.sync.stop();
      await current.store.close();
      current = make();
    },
    async close() {
      await current.sync.stop();
      await current.store.close();
    },
  };
  return d;
}

let events = 0;
/** A user turn or a model reply with a state write, as an agent app appends them. */
export function turn(text: string, invocationId: string, delta: Record<string, unknown> = {}): Event {
  events += 1;
  return {
    id: `ev-${events}-${Math.random().toString(36).slice(2, 8)}`,
    invocationId,
    author: 'user',
    timestamp: Date.now(),
    content: { role: 'user', parts: [{ text }] },
    actions: { stateDelta: delta },
  };
}

export async function say(store: IndexedDbSessionService, sessionId: string, ...texts: string[]): Promise<Session> {
  const session = (await store.getSession({ appName: 'chat', userId: 'alice', sessionId })) as Session;
  const invocation = `inv-${Math.random().toString(36).slice(2, 8)}`;
  for (const text of texts) await store.appendEvent({ session, event: turn(text, invocation, { last: text }) });
  return session;
}

/** The texts of a session's events, in its order. */
export async function textsOf(store: IndexedDbSessionService, sessionId: string): Promise<string[]> {
  const session = await store.getSession({ appName: 'chat', userId: 'alice', sessionId });
  return (session?.events ?? []).map((e) => e.content?.parts?.[0]?.text ?? '?');
}
