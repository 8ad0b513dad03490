/**
 * `appName`, `userId` and session ids must be well-formed UTF-16: they become
 * parts of URIs (an artifact's `canonicalUri`), which cannot hold a lone
 * surrogate, and ADK's artifact services throw a `URIError` on one. Every place
 * such an id enters (sessions, events, artifacts, memory, search, import) refuses
 * it with `InvalidInputError`, in-thread and through a client, and stores
 * nothing. Event ids carry no such rule: they are never written into a URI.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isWellFormedId } from '../../src/core/ids.js';
import { MAX_ID_LENGTH } from '../../src/core/limits.js';
import { idSchema } from '../../src/core/schema.js';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService, InvalidInputError, importSessions } from '../../src/index.js';

type Store = IndexedDbSessionService | ReturnType<typeof connectSessionStore>;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let n = 0;
const stores: [string, () => Store][] = [
  [
    'in-thread',
    () => {
      const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `ids-${n++}` });
      closers.push(() => store.close());
      return store;
    },
  ],
  [
    'through a client',
    () => {
      const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `ids-${n++}` });
      const { port1, port2 } = new MessageChannel();
      exposeEngine(engine, port1);
      const client = connectSessionStore(port2, { dbName: engine.dbName });
      closers.push(async () => {
        await client.close();
        await engine.close();
      });
      return client;
    },
  ],
];

/** An id with a lone surrogate somewhere (a high one without its low half, or the reverse). */
const broken = fc
  .tuple(
    fc.string({ maxLength: 4 }),
    fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
    fc.string({ maxLength: 4 }),
  )
  .map(([a, lone, b]) => `a${a}${lone}${b}z`);
const which = fc.constantFrom('appName', 'userId', 'sessionId');

const good = { appName: 'app', userId: 'ada', sessionId: 's1' };
const event = { id: 'e1', timestamp: 1, author: 'user', content: { parts: [{ text: 'hello there' }] } };

/** Every entry point, called with `key`; each must refuse it. */
const calls = (store: Store, key: typeof good): [string, () => Promise<unknown>][] => {
  const session = {
    id: key.sessionId,
    appName: key.appName,
    userId: key.userId,
    state: {},
    events: [],
    lastUpdateTime: 1,
  };
  return [
    ['createSession', () => store.createSession(key)],
    ['getSession', () => store.getSession(key)],
    ['listSessions', () => store.listSessions({ appName: key.appName, userId: key.userId })],
    ['deleteSession', () => store.deleteSession(key)],
    ['appendEvent', () => store.appendEvent({ session: { ...session, events: [] }, event })],
    ['saveArtifact', () => store.artifacts.saveArtifact({ ...key, filename: 'f', artifact: { text: 'x' } })],
    ['loadArtifact', () => store.artifacts.loadArtifact({ ...key, filename: 'f' })],
    ['listArtifactKeys', () => store.artifacts.listArtifactKeys(key)],
    ['addSessionToMemory', () => store.memory.addSessionToMemory({ ...session, events: [event] })],
    ['searchMemory', () => store.memory.searchMemory({ appName: key.appName, userId: key.userId, query: 'hello' })],
    ['searchEvents', () => store.searchEvents({ ...key, query: 'hello' })],
    ['importSessions', () => importSessions(store, JSON.stringify([{ ...session, events: [event] }]))],
  ];
};

describe.each(stores)('ids with a lone surrogate, %s', (_, open) => {
  it('are refused with InvalidInputError wherever they enter, and nothing is stored', async () => {
    const store = open();
    await store.createSession(good);
    await fc.assert(
      fc.asyncProperty(broken, which, async (id, field) => {
        const key = { ...good, [field]: id };
        for (const [name, call] of calls(store, key)) {
          // These two take no session id.
          if (field === 'sessionId' && (name === 'listSessions' || name === 'searchMemory')) continue;
          const error = await call().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error, `${name} with ${field} ${JSON.stringify(id)}`).toBeInstanceOf(InvalidInputError);
        }
      }),
      { numRuns: 15 },
    );
    expect(await store.listApps()).toEqual([{ appName: 'app', sessionCount: 1 }]);
    expect((await store.listSessions({ appName: 'app' })).sessions.map((s) => s.id)).toEqual(['s1']);
  });

  it('are fine paired, and an event id keeps its lone surrogate', async () => {
    const store = open();
    const key = { appName: '\uD83D\uDE00', userId: 'ada\uD83D\uDE00', sessionId: 's\uD83D\uDE00' };
    const session = await store.createSession(key);
    await store.appendEvent({ session, event: { ...event, id: 'e\uD800' } });
    expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['e\uD800']);
    await store.memory.addSessionToMemory((await store.getSession(key)) as never);
    expect((await store.memory.searchMemory({ ...key, query: 'hello' })).memories).toHaveLength(1);
    expect(await store.artifacts.saveArtifact({ ...key, filename: 'f\uD83D\uDE00', artifact: { text: 'x' } })).toBe(0);
  });
});

// The page's first reads check ids without zod (`isWellFormedId`); a drift from the boundary's schema
// would read in the page what the worker refuses, or the reverse.
it('the zod-free check accepts exactly what the boundary’s id schema accepts', () => {
  const edges = fc.constantFrom('', ' ', '\t', '\u00A0', '\uFEFF', '\u2028', '\uD800', '\uDC00', '\uD83D\uDE00', 'a');
  const id = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.array(edges, { maxLength: 6 }).map((parts) => parts.join('')),
    fc.tuple(edges, fc.nat(4), edges).map(([a, n, b]) => `${a}${'x'.repeat(MAX_ID_LENGTH - 1 + n)}${b}`),
  );
  fc.assert(
    fc.property(id, (value) => {
      expect(isWellFormedId(value), JSON.stringify(value)).toBe(idSchema.safeParse(value).success);
    }),
    { numRuns: 2000 },
  );
  for (const value of [undefined, null, 7, {}, ['a']]) expect(isWellFormedId(value)).toBe(false);
});
