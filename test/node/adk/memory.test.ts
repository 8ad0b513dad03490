/**
 * `AdkMemoryService`: the store's memory as ADK's `BaseMemoryService`, driven
 * by ADK's own Runner and its PRELOAD_MEMORY and LOAD_MEMORY tools, and the
 * rules of what memory holds (what was added; re-adding replaces; increments
 * deduplicated by event id; deletion), in an in-thread store and through a worker.
 */
import {
  type Session as AdkSession,
  type BaseMemoryService,
  InMemoryMemoryService,
  LlmAgent,
  LOAD_MEMORY,
  PRELOAD_MEMORY,
  Runner,
} from '@google/adk';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { AdkMemoryService, AdkSessionService } from '../../../src/adk/index.js';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  InvalidInputError,
  type MemoryFront,
  type Session,
} from '../../../src/index.js';
import { call, type RecordedRequest, ScriptedModel, say } from '../../adk/scripted-model.js';
import { textEvent } from '../../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let n = 0;
function inThread(): { store: IndexedDbSessionService; memory: MemoryFront } {
  const store = new IndexedDbSessionService({ dbName: `memory-${++n}`, indexedDB: new IDBFactory(), IDBKeyRange });
  closers.push(() => store.close());
  return { store, memory: store.memory };
}

function throughWorker(): { store: ReturnType<typeof connectSessionStore>; memory: MemoryFront } {
  const { port1, port2 } = new MessageChannel();
  const dbName = `memory-wire-${++n}`;
  const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName });
  exposeEngine(engine, port1);
  const store = connectSessionStore(port2, { dbName });
  closers.push(async () => {
    await store.close();
    await engine.close();
  });
  return { store, memory: store.memory };
}

async function sessionWith(
  store: Pick<IndexedDbSessionService, 'createSession' | 'appendEvent'>,
  sessionId: string,
  texts: [string, string][],
): Promise<Session> {
  const session = await store.createSession({ ...ids, sessionId });
  for (const [id, text] of texts) await store.appendEvent({ session, event: textEvent(id, text) });
  return session;
}

/** ADK's Runner over `store`'s sessions and `memory`, with one memory tool and a scripted model. */
function agentRunner(
  store: ConstructorParameters<typeof AdkSessionService>[0],
  memory: AdkMemoryService,
  tool: typeof PRELOAD_MEMORY | typeof LOAD_MEMORY,
  script: ConstructorParameters<typeof ScriptedModel>[1],
  log: RecordedRequest[],
): Runner {
  const agent = new LlmAgent({ name: 'bot', model: new ScriptedModel('m', script, log, () => {}), tools: [tool] });
  return new Runner({
    appName: ids.appName,
    agent,
    sessionService: new AdkSessionService(store),
    memoryService: memory,
  });
}

async function turn(runner: Runner, sessionId: string, text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const event of runner.runAsync({
    ...ids,
    sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  })) {
    for (const part of event.content?.parts ?? []) if (part.text) out.push(part.text);
  }
  return out;
}

describe('AdkMemoryService with ADK’s Runner', () => {
  it('feeds PRELOAD_MEMORY the past conversation, in Japanese, where ADK’s in-memory service finds nothing', async () => {
    const { store, memory } = inThread();
    const past = await sessionWith(store, 'past', [
      ['p1', '来週の東京出張でホテルを予約しました'],
      ['p2', 'Remember: my badge number is 4711'],
    ]);
    const service = new AdkMemoryService(memory);
    expect(service).toSatisfy((s: unknown) => typeof (s as BaseMemoryService).searchMemory === 'function');
    await service.addSessionToMemory(past as unknown as AdkSession);

    const log: RecordedRequest[] = [];
    const runner = agentRunner(store, service, PRELOAD_MEMORY, [say('ええ、覚えています')], log);
    await store.createSession({ ...ids, sessionId: 'now' });
    expect(await turn(runner, 'now', '東京のホテルはどこ？')).toEqual(['ええ、覚えています']);
    const instruction = String(log[0]?.instruction);
    expect(instruction).toContain('<PAST_CONVERSATIONS>');
    expect(instruction).toContain('来週の東京出張でホテルを予約しました');
    expect(instruction).not.toContain('4711');
    expect(instruction).toMatch(/Time: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);

    const adk = new InMemoryMemoryService();
    await adk.addSessionToMemory(past as unknown as AdkSession);
    expect((await adk.searchMemory({ ...ids, query: '東京のホテルはどこ？' })).memories).toEqual([]);
  });

  it('feeds PRELOAD_MEMORY for a user message of any length, as ADK’s in-memory service does', async () => {
    const { store, memory } = inThread();
    const past = await sessionWith(store, 'past', [['p1', 'My visa appointment is on March 3']]);
    const service = new AdkMemoryService(memory);
    await service.addSessionToMemory(past as unknown as AdkSession);
    const log: RecordedRequest[] = [];
    const runner = agentRunner(store, service, PRELOAD_MEMORY, [say('March 3')], log);
    await store.createSession({ ...ids, sessionId: 'now' });
    const pasted = Array.from({ length: 400 }, (_, i) => `line ${i} of the pasted form`).join('\n');
    const message = `${pasted}\nWhen was my visa appointment again?`;
    expect(message.length).toBeGreaterThan(10_000);
    expect(await turn(runner, 'now', message)).toEqual(['March 3']);
    expect(String(log[0]?.instruction)).toContain('My visa appointment is on March 3');
  });

  it('answers LOAD_MEMORY, the model’s own search, through a worker', async () => {
    const { store, memory } = throughWorker();
    const past = await sessionWith(store, 'past', [['p1', 'The Wi-Fi password at the café is croissant42']]);
    const service = new AdkMemoryService(memory);
    await service.addSessionToMemory(past as unknown as AdkSession);
    const log: RecordedRequest[] = [];
    const script = [call('c1', 'load_memory', { query: 'cafe wifi password' }), say('croissant42')];
    const runner = agentRunner(store, service, LOAD_MEMORY, script, log);
    await store.createSession({ ...ids, sessionId: 'now' });
    expect(await turn(runner, 'now', 'what was the wifi password?')).toEqual(['croissant42']);
    // The tool's answer, as the model saw it on its second call.
    expect(JSON.stringify(log[1]?.contents)).toContain('croissant42');
  });
});

describe.each([
  ['in-thread', inThread],
  ['through a worker', throughWorker],
])('memory %s', (_, make) => {
  it('holds what was added, not every session', async () => {
    const { store, memory } = make();
    const added = await sessionWith(store, 'added', [['a1', 'the visa appointment is on Monday']]);
    await sessionWith(store, 'never-added', [['b1', 'my visa was approved']]);
    await memory.addSessionToMemory(added);
    const { memories } = await memory.searchMemory({ ...ids, query: 'visa' });
    expect(memories.map((m) => [m.sessionId, m.eventId])).toEqual([['added', 'a1']]);
    expect(memories[0]).toMatchObject({
      author: 'user',
      content: { role: 'user', parts: [{ text: 'the visa appointment is on Monday' }] },
    });
  });

  it('replaces a session added again, and adds increments once per event id', async () => {
    const { store, memory } = make();
    const s = await sessionWith(store, 's', [['a', 'first draft about llamas']]);
    await memory.addSessionToMemory(s);
    await store.appendEvent({ session: s, event: textEvent('a', 'final text about alpacas') });
    await memory.addSessionToMemory(s);
    expect((await memory.searchMemory({ ...ids, query: 'llamas' })).memories).toEqual([]);
    expect((await memory.searchMemory({ ...ids, query: 'alpacas' })).memories).toHaveLength(1);
    // What memory holds of a session is what the latest add gave, even events no longer in it.
    await memory.addSessionToMemory({ ...s, events: [] });
    expect((await memory.searchMemory({ ...ids, query: 'alpacas' })).memories).toEqual([]);
    await memory.addSessionToMemory(s);

    const events = [textEvent('x', 'alpacas again'), textEvent('y', 'no match here'), textEvent('x', 'alpacas again')];
    expect(await memory.addEventsToMemory({ ...ids, sessionId: 's2', events, customMetadata: { ttl: 7 } })).toBe(2);
    expect(await memory.addEventsToMemory({ ...ids, sessionId: 's2', events })).toBe(0);
    const found = (await memory.searchMemory({ ...ids, query: 'alpacas' })).memories;
    expect(found.map((m) => m.eventId).sort()).toEqual(['a', 'x']);
    expect(found.find((m) => m.eventId === 'x')?.customMetadata).toEqual({ ttl: 7 });
  });

  it('ranks by how well the words match, capped at ten by default', async () => {
    const { memory } = make();
    const events = Array.from({ length: 15 }, (_, i) => textEvent(`e${i}`, `note ${i} about the garden`));
    events.push(textEvent('best', 'tomato seedlings in the garden greenhouse'));
    await memory.addEventsToMemory({ ...ids, events });
    const { memories } = await memory.searchMemory({ ...ids, query: 'tomato garden' });
    expect(memories).toHaveLength(10);
    expect(memories[0]?.eventId).toBe('best');
    expect((await memory.searchMemory({ ...ids, query: 'garden', limit: 20 })).memories).toHaveLength(16);
  });

  it('deletes one memory by id, or all of a user’s, and keeps other users apart', async () => {
    const { memory } = make();
    await memory.addEventsToMemory({ ...ids, events: [textEvent('a', 'pear'), textEvent('b', 'pear tart')] });
    await memory.addEventsToMemory({ appName: 'chat', userId: 'bob', events: [textEvent('a', 'pear')] });
    const [first] = (await memory.searchMemory({ ...ids, query: 'tart' })).memories;
    await memory.deleteMemory({ ...ids, memoryId: first?.id as string });
    await memory.deleteMemory({ ...ids, memoryId: 'not an id' });
    expect((await memory.searchMemory({ ...ids, query: 'pear' })).memories.map((m) => m.eventId)).toEqual(['a']);
    await memory.deleteMemories(ids);
    expect((await memory.searchMemory({ ...ids, query: 'pear' })).memories).toEqual([]);
    expect((await memory.searchMemory({ appName: 'chat', userId: 'bob', query: 'pear' })).memories).toHaveLength(1);
  });

  it('refuses bad input with InvalidInputError and stores nothing', async () => {
    const { memory } = make();
    await expect(memory.searchMemory({ appName: 'chat', query: 'x' } as never)).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    await expect(
      memory.addEventsToMemory({ ...ids, events: [{ ...textEvent('a', 'x'), timestamp: Number.NaN }] }),
    ).rejects.toThrow(/entries\[0\]\.timestamp/);
    await expect(memory.addEventsToMemory({ ...ids, events: 'nope' as never })).rejects.toThrow(
      /events: must be an array/,
    );
    expect((await memory.searchMemory({ ...ids, query: 'x' })).memories).toEqual([]);
  });
});

describe('memory across stores', () => {
  it('sees what another store over the same database added since', async () => {
    const indexedDB = new IDBFactory();
    const a = new IndexedDbSessionService({ dbName: 'memory-shared', indexedDB, IDBKeyRange });
    const b = new IndexedDbSessionService({ dbName: 'memory-shared', indexedDB, IDBKeyRange });
    closers.push(async () => {
      await a.close();
      await b.close();
    });
    await a.memory.addEventsToMemory({ ...ids, events: [textEvent('1', 'plum jam')] });
    expect((await a.memory.searchMemory({ ...ids, query: 'jam' })).memories).toHaveLength(1);
    await b.memory.addEventsToMemory({ ...ids, events: [textEvent('2', 'fig jam')] });
    expect((await a.memory.searchMemory({ ...ids, query: 'jam' })).memories).toHaveLength(2);
    await b.memory.deleteMemories(ids);
    expect((await a.memory.searchMemory({ ...ids, query: 'jam' })).memories).toEqual([]);

    const s = await sessionWith(a, 's', [
      ['x', 'quince jam'],
      ['y', 'quince paste'],
    ]);
    await a.memory.addSessionToMemory(s);
    await a.memory.addSessionToMemory({ ...s, events: s.events.slice(1) });
    expect((await b.memory.searchMemory({ ...ids, query: 'quince' })).memories.map((m) => m.eventId)).toEqual(['y']);
  });

  it('finds what ADK’s in-memory service finds for plain English words', async () => {
    const { memory } = inThread();
    const adk = new InMemoryMemoryService();
    const session = {
      ...ids,
      id: 's',
      state: {},
      lastUpdateTime: 0,
      events: [textEvent('1', 'Lunch with Grace at noon')],
    };
    await adk.addSessionToMemory(session as unknown as AdkSession);
    await new AdkMemoryService(memory).addSessionToMemory(session as unknown as AdkSession);
    const theirs = await adk.searchMemory({ ...ids, query: 'grace lunch' });
    const ours = await new AdkMemoryService(memory).searchMemory({ ...ids, query: 'grace lunch' });
    expect(ours.memories.map((m) => m.content)).toEqual(theirs.memories.map((m) => m.content));
  });
});
