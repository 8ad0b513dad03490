/**
 * Drafts read live by another "tab" (a second store on the same database, on
 * fake-indexeddb; BroadcastChannel is Node's): the writer's previews show text
 * it has not stored yet, marked `previewed`; reads after the first fetch only the
 * chunks not yet held and still fold to the writer's text; and `watchSession`
 * with `drafts: true` delivers the draft beside the events, its finished event
 * replacing it in one value.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import {
  type Draft,
  IndexedDbSessionService,
  InvalidInputError,
  type SessionWithDrafts,
  watchDrafts,
  watchSession,
} from '../../src/index.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 'today' };
const opened: IndexedDbSessionService[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
});

let n = 0;
function twoTabs(): { a: IndexedDbSessionService; b: IndexedDbSessionService } {
  const indexedDB = new IDBFactory();
  const dbName = `drafts-live-${n++}`;
  const a = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
  const b = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
  opened.push(a, b);
  return { a, b };
}

const text = (draft: Draft | undefined): string => draft?.content.parts?.map((p) => p.text ?? '').join('') ?? '';

it('shows another tab what the writer appended before it is stored, marked previewed, then as stored', async () => {
  const { a, b } = twoTabs();
  const session = await a.createSession(key);
  const seen: Draft[][] = [];
  const stop = watchDrafts(b, key).watch((drafts) => seen.push(drafts));
  // A window no test outlasts: nothing is stored until `flush`.
  const draft = await a.drafts.begin({ session, id: 'reply', maxLossMs: 60_000 });
  await expect.poll(() => seen.at(-1)?.length).toBe(1);
  draft.append({ text: 'The tide ' });
  draft.append({ text: 'turns at six.' });
  await expect.poll(() => text(seen.at(-1)?.[0])).toBe('The tide turns at six.');
  expect(seen.at(-1)?.[0]?.previewed).toBe(true);
  expect(text((await b.drafts.list(key))[0])).toBe('');

  await draft.flush();
  await expect.poll(() => seen.at(-1)?.[0]?.previewed).toBeUndefined();
  expect(text(seen.at(-1)?.[0])).toBe('The tide turns at six.');
  // Text only ever grows, and is a prefix of the writer's.
  const texts = seen.map((d) => text(d[0]));
  texts.forEach((t, i) => {
    expect('The tide turns at six.'.startsWith(t)).toBe(true);
    if (i > 0) expect(t.length).toBeGreaterThanOrEqual((texts[i - 1] as string).length);
  });
  stop();
});

it('reads only the chunks it lacks, and still folds to the writer text across many writes and parts', async () => {
  const { a, b } = twoTabs();
  const session = await a.createSession(key);
  const seen: Draft[][] = [];
  const stop = watchDrafts(b, key).watch((drafts) => seen.push(drafts));
  const draft = await a.drafts.begin({ session, id: 'reply', maxLossMs: 60_000 });
  for (let i = 0; i < 30; i++) {
    if (i % 10 === 5) draft.append({ parts: [{ functionCall: { name: 'look', args: { i } } }] });
    draft.append(i % 7 === 3 ? { thought: `t${i} ` } : { text: `w${i} ` });
    await draft.flush();
  }
  await expect.poll(() => seen.at(-1)?.[0]?.previewed).toBeUndefined();
  await expect.poll(() => seen.at(-1)?.[0]?.content).toEqual(draft.content);
  expect((await b.drafts.list(key))[0]?.content).toEqual(draft.content);
  stop();
});

it('watchSession with drafts: true delivers the draft beside the events, and its event in its place in one value', async () => {
  const { a, b } = twoTabs();
  const session = await a.createSession(key);
  const values: (SessionWithDrafts | undefined)[] = [];
  const stop = watchSession(b, key, { drafts: true }).watch((value) => values.push(value));
  await expect.poll(() => values.at(-1)?.drafts).toEqual([]);
  const draft = await a.drafts.begin({ session, id: 'reply' });
  for (const word of ['North ', 'coast ', 'ferry']) {
    draft.append({ text: word });
    await expect.poll(() => text(values.at(-1)?.drafts[0]).endsWith(word)).toBe(true);
  }
  await draft.finish();
  await expect.poll(() => values.at(-1)?.events.map((e) => e.id)).toEqual(['reply']);
  expect(values.at(-1)?.drafts).toEqual([]);
  // From the draft's first sight on, every value holds the reply once: as a draft or as the event.
  const from = values.findIndex((v) => (v?.drafts.length ?? 0) > 0);
  expect(from).toBeGreaterThan(0);
  for (const value of values.slice(from)) {
    const asDraft = value?.drafts.filter((d) => d.id === 'reply').length ?? 0;
    const asEvent = value?.events.filter((e) => e.id === 'reply').length ?? 0;
    expect(asDraft + asEvent).toBe(1);
  }
  expect(text(values.at(-1)?.events[0] as Draft | undefined)).toBe('North coast ferry');
  stop();
});

it('watchSession with drafts: true needs a store with drafts, and refuses one without, typed', () => {
  const { subscribe, getSession, listSessions, getUserState, getAppState } = new IndexedDbSessionService({
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    dbName: `drafts-live-${n++}`,
  });
  const bare = { subscribe, getSession, listSessions, getUserState, getAppState };
  expect(() => watchSession(bare as never, key, { drafts: true })).toThrow(InvalidInputError);
});
