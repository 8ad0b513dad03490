/**
 * The whole public surface of `SessionStore`, run against every way of getting
 * a store (each mode of `openSessionStore`, `connectSessionStore`, `new
 * IndexedDbSessionService`): the same members, the same lifecycle (`ready`,
 * `closed`, `onClose`, `close()`), and each capability answering. Three
 * hand-assembled store classes once drifted apart (in-thread had no
 * `onClose`); with this run against each, a member one of them lacks fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  InvalidInputError,
  type SessionStore,
  type StoreChange,
  StoreClosedError,
  type StoreKind,
} from '../../src/index.js';
import { makeEvent } from './contract.js';

/** Every member of `SessionStore`; the type below fails to compile if one is missing here. */
export const STORE_MEMBERS = [
  'mode',
  'artifacts',
  'memory',
  'drafts',
  'ready',
  'closed',
  'onClose',
  'subscribe',
  'sync',
  'createSession',
  'getSession',
  'getOrCreateSession',
  'listSessions',
  'deleteSession',
  'appendEvent',
  'appendEvents',
  'getUserState',
  'getAppState',
  'listApps',
  'listUsers',
  'listSessionKeys',
  'sealInterrupted',
  'rewind',
  'erase',
  'importSessions',
  'searchEvents',
  'close',
] as const satisfies readonly (keyof SessionStore)[];
type Unlisted = Exclude<keyof SessionStore, (typeof STORE_MEMBERS)[number]>;
// A compile error names the member added to `SessionStore` but not to the list.
export const everyMemberListed: [Unlisted] extends [never] ? true : Unlisted = true;

const VALUES = new Set<string>(['mode', 'artifacts', 'memory', 'drafts', 'ready', 'closed']);
const ARTIFACT_METHODS = ['saveArtifact', 'loadArtifact', 'saveArtifactBlob', 'loadArtifactBlob', 'listArtifactKeys'];
const MEMORY_METHODS = ['addSessionToMemory', 'addEventsToMemory', 'searchMemory', 'deleteMemory', 'deleteMemories'];
const DRAFT_METHODS = ['begin', 'list', 'resume', 'keep', 'drop'];

export interface SurfaceSetup {
  /** A store on a fresh database of its own. */
  open(): SessionStore | Promise<SessionStore>;
  /** What its `mode` says. */
  mode: StoreKind;
  /** Removes what the test made (the database, a host). */
  dispose?(): Promise<void> | void;
  /** Deletes the store's database as another tab would, from outside the store. */
  takeAway(): Promise<void>;
}

const key = { appName: 'surface', userId: 'u1' };

export function describeStoreSurface(label: string, setup: () => SurfaceSetup): void {
  describe(`SessionStore surface: ${label}`, () => {
    const withStore = async (test: (store: SessionStore, mode: StoreKind) => Promise<void>) => {
      const { open, mode, dispose } = setup();
      const store = await open();
      try {
        await test(store, mode);
      } finally {
        await store.close().catch(() => {});
        await dispose?.();
      }
    };

    it('has every member of the type, methods as functions, and says its mode', () =>
      withStore(async (store, mode) => {
        for (const member of STORE_MEMBERS) {
          expect(member in store, member).toBe(true);
          if (!VALUES.has(member)) expect(typeof store[member], member).toBe('function');
        }
        expect(store.mode).toBe(mode);
        expect(store.ready).toBeInstanceOf(Promise);
        for (const method of ARTIFACT_METHODS) {
          expect(typeof (store.artifacts as unknown as Record<string, unknown>)[method], method).toBe('function');
        }
        for (const method of MEMORY_METHODS) {
          expect(typeof (store.memory as unknown as Record<string, unknown>)[method], method).toBe('function');
        }
        for (const method of DRAFT_METHODS) {
          expect(typeof (store.drafts as unknown as Record<string, unknown>)[method], method).toBe('function');
        }
      }));

    it('is ready and open, and every capability answers on the one database', () =>
      withStore(async (store) => {
        await expect(store.ready).resolves.toBeUndefined();
        expect(store.closed).toBe(false);
        const heard: StoreChange[] = [];
        const unsubscribe = store.subscribe(key, (change) => heard.push(change));
        const session = await store.createSession({ ...key, sessionId: 's1' });
        await store.appendEvent({ session, event: makeEvent({ content: { parts: [{ text: 'harbour lights' }] } }) });
        await store.appendEvents({ session, events: [makeEvent({ stateDelta: { 'user:seen': true } })] });
        expect((await store.getSession({ ...key, sessionId: 's1' }))?.events).toHaveLength(2);
        expect(await store.getUserState(key)).toEqual({ seen: true });
        expect(await store.listSessionKeys({ appName: key.appName })).toEqual([{ ...key, sessionId: 's1' }]);
        expect((await store.searchEvents({ ...key, query: 'harbour' })).hits.map((h) => h.sessionId)).toEqual(['s1']);
        expect(
          await store.artifacts.saveArtifact({ ...key, sessionId: 's1', filename: 'a.txt', artifact: { text: 'hi' } }),
        ).toBe(0);
        expect(await store.artifacts.loadArtifact({ ...key, sessionId: 's1', filename: 'a.txt' })).toEqual({
          text: 'hi',
        });
        await store.memory.addSessionToMemory(session);
        expect((await store.memory.searchMemory({ ...key, query: 'harbour' })).memories).toHaveLength(1);
        const reply = await store.drafts.begin({ session, id: 'reply' });
        reply.append({ text: 'Harbour ' });
        reply.append({ text: 'lights' });
        await reply.flush();
        const [draft, ...others] = await store.drafts.list({ ...key, sessionId: 's1' });
        expect(others).toEqual([]);
        expect([draft?.id, draft?.content, draft?.interrupted]).toEqual([
          'reply',
          { role: 'model', parts: [{ text: 'Harbour lights' }] },
          false,
        ]);
        expect((await reply.finish()).content).toEqual(draft?.content);
        expect(await store.drafts.list({ ...key, sessionId: 's1' })).toEqual([]);
        expect((await store.getSession({ ...key, sessionId: 's1' }))?.events.at(-1)?.id).toBe('reply');
        // Checked where sync runs (the worker, or this thread), before anything starts.
        await expect(
          store.sync({ url: 'ftp://nowhere', token: 't', appName: key.appName, userId: key.userId }),
        ).rejects.toBeInstanceOf(InvalidInputError);
        await expect
          .poll(() => heard.map((c) => c.type))
          .toEqual(['created', 'appended', 'appended', 'drafted', 'drafted', 'appended']);
        unsubscribe();
      }));

    it('close(): onClose fires once with StoreClosedError, closed turns true, calls reject, a late listener hears at once', () =>
      withStore(async (store) => {
        await store.createSession({ ...key, sessionId: 's1' });
        const heard: StoreClosedError[] = [];
        const dropped: StoreClosedError[] = [];
        store.onClose((error) => heard.push(error));
        store.onClose((error) => dropped.push(error))();
        await store.close();
        expect(store.closed).toBe(true);
        expect(heard).toHaveLength(1);
        expect(heard[0]).toBeInstanceOf(StoreClosedError);
        expect(dropped).toEqual([]);
        const late: StoreClosedError[] = [];
        store.onClose((error) => late.push(error));
        expect(late).toHaveLength(1);
        expect(late[0]).toBeInstanceOf(StoreClosedError);
        await expect(store.getSession({ ...key, sessionId: 's1' })).rejects.toBeInstanceOf(StoreClosedError);
        await expect(store.listApps()).rejects.toBeInstanceOf(StoreClosedError);
        // Started before it closed: `ready` stays resolved.
        await expect(store.ready).resolves.toBeUndefined();
        await store.close();
        expect(heard).toHaveLength(1);
      }));

    it('another tab deleting the database closes it: onClose fires with StoreClosedError, closed turns true', async () => {
      const { open, dispose, takeAway } = setup();
      const store = await open();
      try {
        await store.createSession({ ...key, sessionId: 's1' });
        const heard: StoreClosedError[] = [];
        store.onClose((error) => heard.push(error));
        await takeAway();
        await expect.poll(() => heard.length).toBe(1);
        expect(heard[0]).toBeInstanceOf(StoreClosedError);
        expect(store.closed).toBe(true);
        await expect(store.listApps()).rejects.toBeInstanceOf(StoreClosedError);
      } finally {
        await store.close().catch(() => {});
        await dispose?.();
      }
    });

    it('closed before it was ever used: onClose fires, calls reject with StoreClosedError', () =>
      withStore(async (store) => {
        const heard: StoreClosedError[] = [];
        store.onClose((error) => heard.push(error));
        await store.close();
        expect(store.closed).toBe(true);
        expect(heard.map((e) => e instanceof StoreClosedError)).toEqual([true]);
        await expect(store.createSession(key)).rejects.toBeInstanceOf(StoreClosedError);
      }));
  });
}
