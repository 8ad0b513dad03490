/**
 * Model-based: after random appends, replacements, deletions, imports, writes
 * from a second store over the same database (another tab) and restarts (a
 * store closed before its index caught up, with or without a save), a search
 * finds exactly the events whose text matches the query (with and without
 * prefix, typo and word-form matching), checked against a brute-force scan of every event
 * of the user.
 */
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { analyse, type MatchMode, matches, parseQuery } from '../../src/core/text/match.js';
import type { TypingOptions } from '../../src/core/text/typing.js';
import { engineOf } from '../../src/host/engine-of.js';
import type { IndexedDbSessionService, Session } from '../../src/index.js';
import { type SearchEngine, searchEngineFor } from '../../src/search/engine.js';
import { eventText } from '../../src/search/text.js';
import { freshDatabase, textEvent } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const words = [
  'visa',
  'Café',
  'cafe',
  'hotel',
  '東京',
  'ホテル',
  '予約',
  '北京',
  '酒店',
  '서울',
  'naïve',
  'the',
  'hotels',
  'passport',
  'running',
  'run',
];
const sessions = ['s1', 's2', 's3'];
const eventIds = ['a', 'b', 'c'];

const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' '));
const cjkJoined = fc.array(fc.constantFrom('東京', 'ホテル', '予約', '北京', '酒店'), { minLength: 1, maxLength: 3 });
const op = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      session: fc.constantFrom(...sessions),
      id: fc.constantFrom(...eventIds),
      text,
      other: fc.boolean(),
    }),
  },
  fc.record({
    kind: fc.constant('appendJoined' as const),
    session: fc.constantFrom(...sessions),
    id: fc.constantFrom(...eventIds),
    parts: cjkJoined,
  }),
  fc.record({ kind: fc.constant('delete' as const), session: fc.constantFrom(...sessions) }),
  fc.record({
    kind: fc.constant('import' as const),
    session: fc.constantFrom(...sessions),
    texts: fc.array(text, { maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('restart' as const), save: fc.boolean() }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('search' as const),
      query: fc.oneof(
        fc.constantFrom(
          ...words,
          '京',
          '東京ホ',
          'hotel visa',
          '北京 酒店',
          'CAFE',
          'hot',
          'hote',
          'hotels',
          'naive ',
          'visa caf',
          'pasport',
          'pass',
          'runs',
          'run hotels',
        ),
        text,
        cjkJoined.map((parts) => parts.join('')),
      ),
      mode: fc.constantFrom<MatchMode>('all', 'any'),
      typing: fc.record({ prefix: fc.boolean(), fuzzy: fc.boolean(), forms: fc.boolean() }),
    }),
  },
);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Every event of the user whose text matches: the brute-force answer. */
async function scan(
  store: IndexedDbSessionService,
  query: string,
  mode: MatchMode,
  typing: TypingOptions,
): Promise<string[]> {
  const terms = parseQuery(query, typing);
  const found: string[] = [];
  for (const key of await store.listSessionKeys(ids)) {
    const session = (await store.getSession(key)) as Session;
    for (const event of session.events) {
      const t = eventText(event);
      if (t !== undefined && matches(analyse(t), terms, mode)) found.push(`${key.sessionId}/${event.id}`);
    }
  }
  return found.sort();
}

it('finds exactly the events a brute-force scan finds, through every kind of change', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
      const db = freshDatabase();
      let store = db.open();
      const other = db.open();
      closers.push(async () => {
        await store.close();
        await other.close();
      });
      const sessionOf = async (via: IndexedDbSessionService, id: string) =>
        via.getOrCreateSession({ ...ids, sessionId: id });
      for (const o of ops) {
        switch (o.kind) {
          case 'append': {
            const via = o.other ? other : store;
            await via.appendEvent({ session: await sessionOf(via, o.session), event: textEvent(o.id, o.text) });
            break;
          }
          case 'appendJoined':
            await store.appendEvent({
              session: await sessionOf(store, o.session),
              event: textEvent(o.id, o.parts.join('')),
            });
            break;
          case 'delete':
            await store.deleteSession({ ...ids, sessionId: o.session });
            break;
          case 'import':
            await store.importSessions(
              [
                {
                  ...ids,
                  id: o.session,
                  state: {},
                  lastUpdateTime: 1,
                  events: o.texts.map((t, i) => textEvent(`i${i}`, t)),
                },
              ],
              { onConflict: 'replace' },
            );
            break;
          case 'restart':
            if (o.save) await (searchEngineFor(engineOf(store)) as SearchEngine).flush();
            await store.close();
            store = db.open();
            break;
          case 'search': {
            const found = async () =>
              (await store.searchEvents({ ...ids, query: o.query, match: o.mode, limit: 100, ...o.typing })).hits
                .map((h) => `${h.sessionId}/${h.eventId}`)
                .sort();
            const first = await found();
            const expected = await scan(store, o.query, o.mode, o.typing);
            // Never a wrong hit, even before another store's writes have been heard...
            expect(expected).toEqual(expect.arrayContaining(first));
            // ...and every right one once they have (they come over the broadcast channel).
            await expect.poll(found, { timeout: 5_000, interval: 20 }).toEqual(expected);
          }
        }
      }
    }),
    { numRuns: 100 },
  );
}, 120_000);
