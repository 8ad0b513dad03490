/**
 * A rewind, then a turn of ADK's Runner on `AdkSessionService`: the model is not sent the turns
 * the rewind undid (`@google/adk` 2.0.0's Runner does not filter them itself), in-thread and
 * through a worker's port. The rewound events stay stored.
 */
import { LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { AdkSessionService } from '../../../src/adk/index.js';
import { type RecordedRequest, ScriptedModel, say } from '../../adk/scripted-model.js';
import { storeKinds } from '../store-kinds.js';

const stores = storeKinds('r');

/** The texts of a recorded request's contents, in order. */
const texts = (request: RecordedRequest | undefined) =>
  (request?.contents as { parts?: { text?: string }[] }[]).map((c) => c.parts?.map((p) => p.text).join(''));

describe.each(stores)('a Runner turn after a rewind, %s', (_, open) => {
  it('sends the model the history without the rewound turns', async () => {
    const store = open();
    const log: RecordedRequest[] = [];
    const model = new ScriptedModel(
      'scripted',
      [say('first answer'), say('second answer'), say('third answer')],
      log,
      () => {},
    );
    const agent = new LlmAgent({ name: 'assistant', model });
    const runner = new Runner({ appName: 'app', agent, sessionService: new AdkSessionService(store) });
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    await store.createSession(key);
    const turn = async (text: string) => {
      for await (const _ of runner.runAsync({ ...key, newMessage: { role: 'user', parts: [{ text }] } })) {
        // The events are stored by the Runner; the model's requests are what this test reads.
      }
    };
    await turn('first question');
    await turn('second question');
    const second = (await store.getSession(key))?.events[2]?.invocationId as string;
    await store.rewind({ ...key, beforeInvocationId: second });
    await turn('third question');
    expect(texts(log[1])).toEqual(['first question', 'first answer', 'second question']);
    expect(texts(log[2])).toEqual(['first question', 'first answer', 'third question']);
    // Nothing was deleted: the rewound turn and the rewind event stay stored.
    expect((await store.getSession(key))?.events).toHaveLength(7);
    await store.close();
  });
});
