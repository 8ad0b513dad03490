/**
 * `idb-adk-sessions/adk`: the adapter that lets ADK's Runner use the store,
 * and the packaging promises around it (an optional peer; the main entry never
 * loads ADK).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSessionService, LlmAgent, Runner } from '@google/adk';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { type AdkCompatibleStore, AdkSessionService } from '../../../src/adk/index.js';
import { AlreadyExistsError, IndexedDbSessionService, type Session } from '../../../src/index.js';
import { type RecordedRequest, ScriptedModel, say } from '../../adk/scripted-model.js';

const root = join(import.meta.dirname, '../../..');
const key = { appName: 'chat', userId: 'u1', sessionId: 's1' };

function runner(sessionService: BaseSessionService, replies: string[], log: RecordedRequest[] = []): Runner {
  const agent = new LlmAgent({
    name: 'bot',
    model: new ScriptedModel(
      'm',
      replies.map((r) => say(r)),
      log,
      () => {},
    ),
    instruction: 'Talk to {user:name?}.',
    outputKey: 'last',
  });
  return new Runner({ appName: key.appName, agent, sessionService });
}

async function turn(r: Runner, text: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const event of r.runAsync({
    userId: key.userId,
    sessionId: key.sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  })) {
    for (const part of event.content?.parts ?? []) if (part.text) texts.push(part.text);
  }
  return texts;
}

describe('AdkSessionService', () => {
  it('is a BaseSessionService a Runner accepts, and what it stores survives a reopen', async () => {
    const options = { dbName: 'adapter-open', indexedDB: new IDBFactory() };
    const first = new AdkSessionService(new IndexedDbSessionService(options));
    expect(first).toBeInstanceOf(BaseSessionService);
    await first.createSession({ ...key, state: { 'user:name': 'Ada' } });
    expect(await turn(runner(first, ['hello Ada']), 'hi')).toEqual(['hello Ada']);
    await first.close();

    const again = new AdkSessionService(new IndexedDbSessionService(options));
    const log: RecordedRequest[] = [];
    expect(await turn(runner(again, ['still here'], log), 'are you there?')).toEqual(['still here']);
    expect(String(log[0]?.instruction)).toContain('Talk to Ada.');
    expect(JSON.stringify(log[0]?.contents)).toContain('hello Ada');
    const session = await again.getSession(key);
    expect(session?.events.map((e) => e.author)).toEqual(['user', 'bot', 'user', 'bot']);
    expect(session?.state).toEqual({ 'user:name': 'Ada', last: 'still here' });
    await again.close();
  });

  it('lets ADK continue a conversation a chat UI started without ADK, filling in the fields ADK requires', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'adapter-chat-ui' });
    const session = await store.createSession(key);
    // What a chat UI without ADK may append: no invocationId, no actions.
    await store.appendEvent({
      session,
      event: { id: 'ui-1', author: 'user', timestamp: 1, content: { role: 'user', parts: [{ text: 'earlier' }] } },
    });
    await store.appendEvent({
      session,
      event: { id: 'ui-2', author: 'bot', timestamp: 2, content: { role: 'model', parts: [{ text: 'reply' }] } },
    });
    const adapter = new AdkSessionService(store);

    const loaded = await adapter.getSession(key);
    expect(loaded?.events[0]).toMatchObject({
      invocationId: '',
      actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
    });
    const log: RecordedRequest[] = [];
    expect(await turn(runner(adapter, ['now with ADK'], log), 'next')).toEqual(['now with ADK']);
    expect(JSON.stringify(log[0]?.contents)).toMatch(/earlier.*reply.*next/);
    // Filling in happened on the loaded copies only: the stored events are as the UI wrote them.
    const raw = await store.getSession(key);
    expect(raw?.events[0]).not.toHaveProperty('actions');
    expect(raw?.events[0]).not.toHaveProperty('invocationId');
    await store.close();
  });

  it("uses the store's getOrCreateSession, which settles two concurrent creators of one id", async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'adapter-race' });
    const adapter = new AdkSessionService(store);
    const both = await Promise.all([adapter.getOrCreateSession(key), adapter.getOrCreateSession(key)]);
    expect(both.map((s) => s.id)).toEqual(['s1', 's1']);
    // ADK's inherited version would let the loser fail.
    const inherited = BaseSessionService.prototype.getOrCreateSession;
    const other = { ...key, sessionId: 's2' };
    const results = await Promise.allSettled([inherited.call(adapter, other), inherited.call(adapter, other)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(AlreadyExistsError);
    await adapter.close();
  });

  it('passes every request to the store unchanged and returns its answers', async () => {
    const calls: [string, unknown][] = [];
    const session: Session = { ...key, id: 's1', state: {}, events: [], lastUpdateTime: 1 };
    const event = { id: 'e', invocationId: 'i', timestamp: 1, actions: {} };
    const listing = { sessions: [], page: 1, limit: 0, totalItems: 0, totalPages: 0 };
    let closed = false;
    const answer = <T>(method: string, request: unknown, result: T): T => {
      calls.push([method, request]);
      return result;
    };
    const fake: AdkCompatibleStore = {
      createSession: async (r) => answer('createSession', r, session),
      getSession: async (r) => answer('getSession', r, undefined),
      getOrCreateSession: async (r) => answer('getOrCreateSession', r, session),
      listSessions: async (r) => answer('listSessions', r, listing),
      deleteSession: async (r) => {
        calls.push(['deleteSession', r]);
      },
      appendEvent: async (r) => answer('appendEvent', r, r.event),
      close: async () => {
        closed = true;
      },
    };
    const adapter = new AdkSessionService(fake);
    const create = { appName: 'a', userId: 'u', sessionId: 's', state: { k: 1 } };
    const get = { appName: 'a', userId: 'u', sessionId: 's', config: { numRecentEvents: 2, afterTimestamp: 5 } };
    const list = { appName: 'a', userId: 'u', limit: 2, page: 1, order: 'desc' as const };
    expect(await adapter.createSession(create)).toBe(session);
    expect(await adapter.getSession(get)).toBeUndefined();
    expect(await adapter.getOrCreateSession(create)).toBe(session);
    expect(await adapter.listSessions(list)).toEqual(listing);
    await adapter.deleteSession(key);
    const appended = await adapter.appendEvent({ session: session as never, event: event as never });
    expect(appended).toBe(event);
    await adapter.close();
    expect(closed).toBe(true);
    expect(calls).toEqual([
      ['createSession', create],
      ['getSession', get],
      ['getOrCreateSession', create],
      ['listSessions', list],
      ['deleteSession', key],
      ['appendEvent', { session, event }],
    ]);
    // The session object is passed through, not copied: the store must update the Runner's own object.
    expect((calls[5]?.[1] as { session: Session }).session).toBe(session);
  });
});

describe('packaging', () => {
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  it('loads @google/adk at run time only from src/adk (and the demo app, which ships in no package)', () => {
    // Under verbatimModuleSyntax, `import { type X } from 'm'` still loads `m`: only `import type` is erased.
    const runtime =
      /^\s*(?:import(?!\s+type\b)|export(?!\s+type\b))[^;]*?from\s*['"]@google\/adk|import\s*\(\s*['"]@google\/adk/m;
    const offenders = sources(join(root, 'src'))
      .filter((file) => !relative(root, file).startsWith(join('src', 'adk')))
      // The demo page is an app of its own, excluded from the package; it loads ADK lazily when its ADK agent is picked.
      .filter((file) => !relative(root, file).startsWith(join('src', 'demo')))
      .filter((file) => runtime.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
    // The check does find a runtime import where there is one.
    expect(runtime.test(readFileSync(join(root, 'src/adk/index.ts'), 'utf8'))).toBe(true);
  });

  it('exports ./adk in the style of "." and declares @google/adk an optional peer', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.exports['./adk'])).toEqual(Object.keys(pkg.exports['.']));
    expect(pkg.exports['./adk'].types).toBe('./dist/types/src/adk/index.d.ts');
    expect(pkg.peerDependencies['@google/adk']).toMatch(/^\^2\./);
    expect(pkg.peerDependenciesMeta['@google/adk']).toEqual({ optional: true });
    expect(pkg.dependencies['@google/adk']).toBeUndefined();
  });
});
