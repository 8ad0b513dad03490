/**
 * The search bench page: one user's conversations (sessions × events from the
 * chat corpus) in the store's dedicated worker, searched through it (the
 * product as used), against a brute-force scan of the same events (read them
 * all, match each) in this page over the same database, same queries, same run.
 */

import { analyse, matches, parseQuery } from '../../src/core/text/match.js';
import { type EventRecord, eventOf } from '../../src/database/records/index.js';
import { openSessionStore, type Session } from '../../src/index.js';
import { eventText } from '../../src/search/text.js';
import type { Event } from '../../src/types.js';
import { request } from '../raw-idb.js';
import { messageText, QUERIES, random, TYPED_QUERIES } from './corpus.js';

const DB = 'bench-search';
const appName = 'bench';
/** The searched user, and one never searched (no index), for the cost of indexing to appends. */
const INDEXED = 'u';
const PLAIN = 'v';

declare global {
  interface Window {
    searchBench: {
      fill(sessions: number, events: number): Promise<number>;
      rebuild(): Promise<number>;
      /** `typed`: the typing queries; `exact`: prefix, typo and word-form matching off. */
      query(repetitions: number, set: 'words' | 'typed', exact: boolean): Promise<{ times: number[]; hits: number }>;
      scan(): Promise<{ times: number[]; hits: number }>;
      indexSize(): Promise<{ bytes: number; shards: number }>;
      appends(count: number): Promise<{ indexed: number[]; plain: number[] }>;
      burst(sessions: number, events: number): Promise<{ indexed: number; plain: number }>;
    };
  }
}

const store = openSessionStore({ dbName: DB, mode: 'dedicated' });
const next = random(11);
let stamp = Date.UTC(2026, 0, 1);

function event(id: string): Event {
  stamp += 1000;
  const text = messageText(next);
  const author = next() < 0.5 ? 'user' : 'model';
  return { id, invocationId: `i-${id}`, author, timestamp: stamp, content: { role: author, parts: [{ text }] } };
}

let raw: Promise<IDBDatabase> | undefined;
/** The store's own database, opened here too: the scan reads the events as any code without an index would. */
const rawDb = (): Promise<IDBDatabase> => {
  raw ??= request(indexedDB.open(DB));
  return raw;
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

window.searchBench = {
  async fill(sessions, events) {
    return timed(async () => {
      for (let from = 0; from < sessions; from += 50) {
        const batch: Session[] = [];
        for (let s = from; s < Math.min(sessions, from + 50); s++) {
          const list = Array.from({ length: events }, (_, e) => event(`e${s}-${e}`));
          batch.push({ appName, userId: INDEXED, id: `s${s}`, state: {}, events: list, lastUpdateTime: stamp });
        }
        await store.importSessions(batch);
      }
    });
  },

  /** The first search builds the index from the events: the rebuild-from-scratch time. */
  rebuild() {
    return timed(() => store.searchEvents({ appName, userId: INDEXED, query: 'visa' }));
  },

  async query(repetitions, set, exact) {
    const times: number[] = [];
    let hits = 0;
    const loose = exact ? { prefix: false, fuzzy: false, forms: false } : {};
    for (let rep = 0; rep < repetitions; rep++) {
      for (const query of set === 'typed' ? TYPED_QUERIES : QUERIES) {
        times.push(
          await timed(async () => {
            hits += (await store.searchEvents({ appName, userId: INDEXED, query, ...loose })).hits.length;
          }),
        );
      }
    }
    return { times, hits };
  },

  /**
   * Queries as a scan: read every event of the user's sessions, keep those whose text matches, rank
   * none. A scan's time is its reads, whatever the query: every third query (Latin and CJK, one word
   * and two) gives its median at a third of the minute all of them took.
   */
  async scan() {
    const db = await rawDb();
    const times: number[] = [];
    let hits = 0;
    for (const query of QUERIES.filter((_, i) => i % 3 === 0)) {
      // As the store matches by default: the last word by prefix, longer words within an edit.
      const terms = parseQuery(query, { prefix: true, fuzzy: true });
      times.push(
        await timed(async () => {
          const tx = db.transaction(['sessions', 'events']);
          const sessions = await request(
            tx.objectStore('sessions').getAll(IDBKeyRange.bound([appName, INDEXED], [appName, INDEXED, []])),
          );
          const found: string[] = [];
          for (const s of sessions as { uid: string }[]) {
            const events = await request(
              tx.objectStore('events').getAll(IDBKeyRange.bound([s.uid, 0], [s.uid, Number.POSITIVE_INFINITY])),
            );
            for (const e of events as EventRecord[]) {
              const text = eventText(eventOf(e));
              if (text !== undefined && matches(analyse(text), terms, 'all')) found.push(e.id);
            }
          }
          hits += Math.min(found.length, 10);
        }),
      );
    }
    return { times, hits };
  },

  /** The saved shards, once the store has saved them (2 s after the last change, one shard per task). */
  async indexSize() {
    const db = await rawDb();
    let last = -1;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const shards = (await request(db.transaction('searchShards').objectStore('searchShards').getAll())) as {
        index: string;
        sessions: unknown[];
      }[];
      const bytes = shards.reduce((sum, s) => sum + s.index.length * 2 + JSON.stringify(s.sessions).length * 2, 0);
      if (bytes > 0 && bytes === last) return { bytes, shards: shards.length };
      last = bytes;
    }
  },

  async appends(count) {
    const indexed: number[] = [];
    const plain: number[] = [];
    const [a, b] = await Promise.all([
      store.getOrCreateSession({ appName, userId: INDEXED, sessionId: 'appends' }),
      store.getOrCreateSession({ appName, userId: PLAIN, sessionId: 'appends' }),
    ]);
    for (let i = 0; i < count; i++) {
      // Alternate, so neither meets a busier moment of the worker more often.
      indexed.push(await timed(() => store.appendEvent({ session: a, event: event(`a${i}`) })));
      plain.push(await timed(() => store.appendEvent({ session: b, event: event(`b${i}`) })));
    }
    return { indexed, plain };
  },

  async burst(sessions, events) {
    const round = async (userId: string) => {
      const list = await Promise.all(
        Array.from({ length: sessions }, (_, s) =>
          store.getOrCreateSession({ appName, userId, sessionId: `burst${s}` }),
        ),
      );
      return timed(() =>
        Promise.all(
          list.flatMap((session, s) =>
            Array.from({ length: events }, (_, e) => store.appendEvent({ session, event: event(`x${s}-${e}`) })),
          ),
        ),
      );
    };
    const plain = await round(PLAIN);
    const indexed = await round(INDEXED);
    return { indexed, plain };
  },
};
