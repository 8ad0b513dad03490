/**
 * Drafts through the public API, on fake-indexeddb: a reply stored as it streams,
 * in coalesced chunks that hold only what is new, turned into its final event in
 * one transaction, found interrupted after its writer is gone (kept, resumed or
 * dropped), kept out of everything that reads events, bounded, and followed live
 * by another "tab" (a second store on the same database).
 */
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AlreadyExistsError,
  DRAFT_EXPIRY_MS,
  type Draft,
  DraftInUseError,
  DraftNotFoundError,
  exportSessionsToBlob,
  IndexedDbSessionService,
  InvalidInputError,
  MAX_DRAFTS_PER_SESSION,
  MAX_RECORD_SIZE,
  QuotaExceededError,
  type Session,
  type SessionStore,
  StaleSessionError,
  type StoreChange,
  watchDrafts,
  watchSession,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';
import { dumpedLayout } from '../fixtures/dumped-layout.js';
import { storeKinds } from './store-kinds.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 'today' };
const opened: SessionStore[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
});

let n = 0;
/** Two "tabs" on one fresh database. */
function twoTabs(): { a: IndexedDbSessionService; b: IndexedDbSessionService; indexedDB: IDBFactory; dbName: string } {
  const indexedDB = new IDBFactory();
  const dbName = `drafts-${n++}`;
  const a = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
  const b = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
  opened.push(a, b);
  return { a, b, indexedDB, dbName };
}

/** The raw chunk records of the database: what was written, byte for byte. */
async function rawChunks(indexedDB: IDBFactory, dbName: string): Promise<{ k: unknown[]; deltas: unknown[] }[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const all = db.transaction('draftChunks').objectStore('draftChunks').getAll();
  const records = await new Promise<{ k: unknown[]; deltas: unknown[] }[]>((resolve) => {
    all.onsuccess = () => resolve(all.result);
  });
  db.close();
  return records;
}

const text = (draft: Draft | undefined) => draft?.content.parts?.map((p) => p.text).join('');

describe.each(storeKinds('drafts'))('drafts, %s', (_kind, open) => {
  const store = () => {
    const s = open();
    opened.push(s);
    return s;
  };

  it('streams a reply into a draft and finishes it as one event, the draft gone in the same transaction', async () => {
    const s = store();
    const session = await s.createSession({ ...key, state: { turns: 0 } });
    const heard: StoreChange[] = [];
    s.subscribe(key, (change) => heard.push(change));
    const draft = await s.drafts.begin({ session, id: 'r1', invocationId: 'inv-1' });
    draft.append({ thought: 'The user wants ' });
    draft.append({ thought: 'a greeting.' });
    draft.append({ text: 'Hel' });
    draft.append({ text: 'lo' });
    draft.append({ parts: [{ functionCall: { id: 'c1', name: 'wave', args: { times: 2 } } }] });
    await draft.flush();
    const [stored] = await s.drafts.list(key);
    const content = {
      role: 'model',
      parts: [
        { text: 'The user wants a greeting.', thought: true },
        { text: 'Hello' },
        { functionCall: { id: 'c1', name: 'wave', args: { times: 2 } } },
      ],
    };
    expect(stored).toMatchObject({ id: 'r1', author: 'model', invocationId: 'inv-1', interrupted: false, content });
    expect(draft.content).toEqual(content);
    // The draft is not an event: the session reads as before.
    expect((await s.getSession(key))?.events).toEqual([]);

    const event = await draft.finish({
      event: { ...makeEvent({ id: 'final', stateDelta: { turns: 1 } }), invocationId: 'inv-1', content },
    });
    expect(event.id).toBe('final');
    expect(session.events.map((e) => e.id)).toEqual(['final']);
    expect(session.state).toEqual({ turns: 1 });
    expect(await s.drafts.list(key)).toEqual([]);
    const reread = (await s.getSession(key)) as Session;
    expect(reread.events.map((e) => e.content)).toEqual([content]);
    expect(reread.state).toEqual({ turns: 1 });
    await expect.poll(() => heard.at(-1)).toMatchObject({ type: 'appended', eventIds: ['final'], draftId: 'r1' });
    expect(() => draft.append({ text: 'late' })).toThrow(InvalidInputError);
  });

  it('makes the final event from the draft when none is given, with the draft as it reads', async () => {
    const s = store();
    const session = await s.createSession(key);
    const draft = await s.drafts.begin({ session, author: 'helper', branch: 'root.helper', invocationId: 'i9' });
    for (const word of ['One ', 'two ', 'three.']) draft.append({ text: word });
    const event = await draft.finish();
    expect(event).toMatchObject({
      id: draft.id,
      author: 'helper',
      branch: 'root.helper',
      invocationId: 'i9',
      content: { role: 'model', parts: [{ text: 'One two three.' }] },
    });
    expect(event.interrupted).toBeUndefined();
    expect((await s.getSession(key))?.events).toEqual([event]);
  });

  it('keeps the draft when the final append is refused (a stale session), and finishes it with a fresh copy', async () => {
    const s = store();
    const session = await s.createSession(key);
    const other = structuredClone(session);
    await s.appendEvent({ session: other, event: makeEvent({ id: 'elsewhere' }) });
    const draft = await s.drafts.begin({ session });
    draft.append({ text: 'kept' });
    await expect(draft.finish()).rejects.toBeInstanceOf(StaleSessionError);
    // What finish did not store is written at once: the draft is current for a reader.
    await expect.poll(async () => text((await s.drafts.list(key))[0])).toBe('kept');
    const fresh = (await s.getSession(key)) as Session;
    await draft.finish({ session: fresh });
    expect(fresh.events.map((e) => e.id)).toEqual(['elsewhere', draft.id]);
    expect(await s.drafts.list(key)).toEqual([]);
  });

  it('abandons a draft: nothing of it becomes an event', async () => {
    const s = store();
    const session = await s.createSession(key);
    const draft = await s.drafts.begin({ session });
    draft.append({ text: 'never mind' });
    await draft.flush();
    await draft.abandon();
    expect(await s.drafts.list(key)).toEqual([]);
    expect((await s.getSession(key))?.events).toEqual([]);
    await expect(draft.finish()).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('refuses what it cannot store, typed, before anything is written', async () => {
    const s = store();
    const session = await s.createSession(key);
    await expect(s.drafts.begin({ session: { ...session, id: 'missing' } })).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    await expect(s.drafts.begin({ session, maxLossMs: -1 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(s.drafts.begin({ session, id: ' padded ' })).rejects.toBeInstanceOf(InvalidInputError);
    const draft = await s.drafts.begin({ session, id: 'd' });
    await expect(s.drafts.begin({ session, id: 'd' })).rejects.toBeInstanceOf(AlreadyExistsError);
    expect(() => draft.append({ text: 3 } as never)).toThrow(InvalidInputError);
    expect(() => draft.append({ parts: 'no' } as never)).toThrow(InvalidInputError);
    expect(() => draft.append(null as never)).toThrow(InvalidInputError);
    // Not JSON: no write could hold it, so append refuses it, and the draft goes on without it.
    expect(() => draft.append({ parts: [{ text: 'x', extra: Number.NaN } as never] })).toThrow(
      /delta\.parts\[0\]\.extra/,
    );
    draft.append({ text: 'after' });
    await draft.flush();
    expect(draft.error).toBeUndefined();
    expect(draft.content.parts).toEqual([{ text: 'after' }]);
  });
});

describe('drafts across tabs', () => {
  it('writes coalesced chunks that hold only what is new: bytes grow with the reply, not with its chunks', async () => {
    const { a, indexedDB, dbName } = twoTabs();
    const session = await a.createSession(key);
    const draft = await a.drafts.begin({ session, maxLossMs: 60_000 });
    const tokens = Array.from({ length: 300 }, (_, i) => `t${i} `);
    for (const [i, token] of tokens.entries()) {
      draft.append({ text: token });
      if (i % 100 === 99) await draft.flush();
    }
    const chunks = await rawChunks(indexedDB, dbName);
    // Three writes for 300 appends, each holding its own hundred tokens as one joined text.
    expect(chunks.map((c) => c.k.at(-1))).toEqual([1, 2, 3]);
    expect(chunks.map((c) => c.deltas)).toEqual(
      [0, 1, 2].map((w) => [{ text: tokens.slice(w * 100, w * 100 + 100).join('') }]),
    );
    expect(text((await a.drafts.list(key))[0])).toBe(tokens.join(''));
  });

  it('splits what piled up beyond the size of one write into several, and refuses a delta no write could hold', async () => {
    const { a, indexedDB, dbName } = twoTabs();
    const session = await a.createSession(key);
    const draft = await a.drafts.begin({ session, maxLossMs: 60_000 });
    const third = MAX_RECORD_SIZE / 3;
    const pieces = ['a', 'b', 'c'].map((c) => c.repeat(third));
    for (const piece of pieces) draft.append({ text: piece });
    expect(() => draft.append({ text: 'd'.repeat(MAX_RECORD_SIZE) })).toThrow(InvalidInputError);
    await draft.flush();
    expect(draft.error).toBeUndefined();
    // Two of the three fit one write with room to spare; the third alone makes the second.
    const chunks = await rawChunks(indexedDB, dbName);
    expect(chunks.map((c) => c.deltas)).toEqual([[{ text: pieces.slice(0, 2).join('') }], [{ text: pieces[2] }]]);
    expect(text((await a.drafts.list(key))[0])).toBe(pieces.join(''));
  });

  it('writes within maxLossMs of an append without a flush', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const draft = await a.drafts.begin({ session, maxLossMs: 20 });
    draft.append({ text: 'soon' });
    await expect.poll(async () => text((await b.drafts.list(key))[0]), { timeout: 2000 }).toBe('soon');
  });

  it('after its writer is gone (its store closed, writing what it held), the draft is interrupted; keep stores it marked interrupted', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const draft = await a.drafts.begin({ session, id: 'cut', invocationId: 'inv' });
    draft.append({ text: 'The answer is' });
    await draft.flush();
    draft.append({ text: ' never written' });
    expect((await b.drafts.list(key))[0]?.interrupted).toBe(false);
    await expect(
      b.drafts.resume({ session: (await b.getSession(key)) as Session, draftId: 'cut' }),
    ).rejects.toBeInstanceOf(DraftInUseError);
    // The tab's store closes: it writes what its writer held, and lets the draft go.
    await a.close();
    const [left] = await b.drafts.list(key);
    expect(left).toMatchObject({ id: 'cut', interrupted: true });
    expect(text(left)).toBe('The answer is never written');
    const reloaded = (await b.getSession(key)) as Session;
    const kept = await b.drafts.keep({ session: reloaded, draftId: 'cut' });
    expect(kept).toMatchObject({
      id: 'cut',
      invocationId: 'inv',
      interrupted: true,
      content: { role: 'model', parts: [{ text: 'The answer is never written' }] },
    });
    expect(reloaded.events).toEqual([kept]);
    expect(await b.drafts.list(key)).toEqual([]);
  });

  it('resumes an interrupted draft from what was stored, then finishes it; a dropped one is gone', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const first = await a.drafts.begin({ session, id: 'long' });
    first.append({ text: 'Once upon' });
    await first.flush();
    const second = await a.drafts.begin({ session, id: 'other' });
    second.append({ text: 'dropped' });
    await second.flush();
    await a.close();

    const fresh = (await b.getSession(key)) as Session;
    const resumed = await b.drafts.resume({ session: fresh, draftId: 'long' });
    expect(resumed.content).toEqual({ role: 'model', parts: [{ text: 'Once upon' }] });
    resumed.append({ text: ' a time.' });
    await resumed.flush();
    expect((await b.drafts.list(key)).map((d) => [d.id, text(d), d.interrupted])).toEqual([
      ['long', 'Once upon a time.', false],
      ['other', 'dropped', true],
    ]);
    expect(await b.drafts.drop({ ...key, draftId: 'other' })).toBe(true);
    expect(await b.drafts.drop({ ...key, draftId: 'other' })).toBe(false);
    await resumed.finish();
    expect(fresh.events.map((e) => e.content?.parts)).toEqual([[{ text: 'Once upon a time.' }]]);
    expect(await b.drafts.list(key)).toEqual([]);
    await expect(b.drafts.resume({ session: fresh, draftId: 'long' })).rejects.toBeInstanceOf(DraftNotFoundError);
  });

  it('a writer whose draft another tab dropped gets DraftNotFoundError, keeping what it holds', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const draft = await a.drafts.begin({ session, id: 'gone' });
    await b.drafts.drop({ ...key, draftId: 'gone' });
    draft.append({ text: 'still here' });
    await expect(draft.flush()).rejects.toBeInstanceOf(DraftNotFoundError);
    expect(draft.content.parts).toEqual([{ text: 'still here' }]);
    // The final event does not need the draft: it is stored whole.
    expect((await draft.finish()).content?.parts).toEqual([{ text: 'still here' }]);
  });

  it('a full disk fails a write with QuotaExceededError; what was written stays, and the rest is written once there is room', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const draft = await a.drafts.begin({ session, maxLossMs: 60_000 });
    draft.append({ text: 'written. ' });
    await draft.flush();
    const put = IDBObjectStore.prototype.put;
    const full = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'draftChunks') throw new DOMException('the disk is full', 'QuotaExceededError');
      return put.apply(this, args as Parameters<typeof put>);
    });
    draft.append({ text: 'refused, ' });
    await expect(draft.flush()).rejects.toBeInstanceOf(QuotaExceededError);
    expect(draft.error).toBeInstanceOf(QuotaExceededError);
    draft.append({ text: 'then more.' });
    expect(text((await b.drafts.list(key))[0])).toBe('written. ');
    full.mockRestore();
    await draft.flush();
    expect(draft.error).toBeUndefined();
    expect(text((await b.drafts.list(key))[0])).toBe('written. refused, then more.');
  });

  it('holds at most MAX_DRAFTS_PER_SESSION drafts; interrupted ones expire after DRAFT_EXPIRY_MS', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    for (let i = 0; i < MAX_DRAFTS_PER_SESSION; i++) await a.drafts.begin({ session, id: `d${i}` });
    await expect(a.drafts.begin({ session, id: 'one-more' })).rejects.toBeInstanceOf(InvalidInputError);
    await a.close();
    // Interrupted now, but not expired: still counted.
    const fresh = (await b.getSession(key)) as Session;
    await expect(b.drafts.begin({ session: fresh, id: 'one-more' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(await b.drafts.list(key)).toHaveLength(MAX_DRAFTS_PER_SESSION);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + DRAFT_EXPIRY_MS + 1000);
    expect(await b.drafts.list(key)).toEqual([]);
    const next = await b.drafts.begin({ session: fresh, id: 'one-more' });
    vi.useRealTimers();
    expect((await b.drafts.list(key)).map((d) => d.id)).toEqual([next.id]);
  });

  it('goes with its session (delete, import replacing it) and never reaches export or search', async () => {
    const { a } = twoTabs();
    const session = await a.createSession(key);
    await a.appendEvent({ session, event: makeEvent({ id: 'e1', content: { parts: [{ text: 'harbour' }] } }) });
    const draft = await a.drafts.begin({ session });
    draft.append({ text: 'lighthouse harbour' });
    await draft.flush();
    expect((await a.searchEvents({ ...key, query: 'lighthouse' })).hits).toEqual([]);
    const exported = await (await exportSessionsToBlob(a, { appName: key.appName })).text();
    expect(exported).not.toContain('lighthouse');
    await a.importSessions((JSON.parse(exported) as { sessions: Session[] }).sessions, { onConflict: 'replace' });
    expect(await a.drafts.list(key)).toEqual([]);
    const again = await a.drafts.begin({ session: (await a.getSession(key)) as Session });
    again.append({ text: 'x' });
    await again.flush();
    await a.deleteSession(key);
    expect(await a.drafts.list(key)).toEqual([]);
  });

  it('keeps a __proto__ key in customMetadata and in parts as a plain key', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const customMetadata = JSON.parse('{"__proto__": {"polluted": true}, "messageId": "m1"}') as Record<
      string,
      unknown
    >;
    const draft = await a.drafts.begin({ session, customMetadata });
    draft.append({ parts: [JSON.parse('{"functionCall": {"name": "f", "args": {"__proto__": 1}}}')] });
    await draft.flush();
    const [read] = await b.drafts.list(key);
    expect(Object.hasOwn(read?.customMetadata ?? {}, '__proto__')).toBe(true);
    expect(Object.hasOwn(read?.content.parts?.[0]?.functionCall?.args ?? {}, '__proto__')).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('another tab watches the draft grow and leave, and the finished event arrive in its session', async () => {
    const { a, b } = twoTabs();
    const session = await a.createSession(key);
    const seen: string[][] = [];
    const stopDrafts = watchDrafts(b, key).watch((drafts) => seen.push(drafts.map((d) => text(d) ?? '')));
    let events: string[] = [];
    const stopSession = watchSession(b, key).watch((s) => {
      events = s?.events.map((e) => e.id) ?? [];
    });
    await expect.poll(() => seen.at(-1)).toEqual([]);
    const draft = await a.drafts.begin({ session, id: 'live' });
    for (const word of ['a', 'b', 'c']) {
      draft.append({ text: word });
      await draft.flush();
      await expect.poll(() => seen.at(-1)?.[0]?.endsWith(word)).toBe(true);
    }
    await draft.finish();
    await expect.poll(() => seen.at(-1)).toEqual([]);
    await expect.poll(() => events).toEqual(['live']);
    expect(seen.flat()).toContain('abc');
    stopDrafts();
    stopSession();
  });
});

it('a version-5 database written by the previous release takes drafts and reads as it did', async () => {
  const v5 = dumpedLayout(5);
  const indexedDB = new IDBFactory();
  await v5.build(indexedDB, 'written-by-release-5');
  const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'written-by-release-5' });
  opened.push(store);
  const trip = { appName: 'chat', userId: 'ada', sessionId: 'trip' };
  const session = (await store.getSession(trip)) as Session;
  expect(JSON.parse(JSON.stringify(session))).toEqual(JSON.parse(JSON.stringify(v5.read['chat/ada/trip'])));
  const draft = await store.drafts.begin({ session });
  draft.append({ text: 'after the upgrade' });
  await draft.finish();
  expect((await store.getSession(trip))?.events.at(-1)?.content?.parts).toEqual([{ text: 'after the upgrade' }]);
});
