// One ADK turn as a user writes it: ADK's Runner and LlmAgent, on this store.
import { BaseLlm, LlmAgent, Runner } from '@google/adk';
import { openSessionStore } from 'idb-adk-sessions';
import { AdkSessionService } from 'idb-adk-sessions/adk';

/** A model that needs no network: it echoes the user's last message. */
class EchoModel extends BaseLlm {
  constructor() {
    super({ model: 'echo' });
  }
  async *generateContentAsync(request) {
    const last = request.contents.at(-1)?.parts?.[0]?.text ?? '';
    yield { content: { role: 'model', parts: [{ text: `echo: ${last}` }] }, turnComplete: true };
  }
  async connect() {
    throw new Error('no live mode');
  }
}

const key = { appName: 'adk-app', userId: 'u1', sessionId: 's1' };

/** One ADK turn on the store, in the given mode; returns the replies and every stored text. */
export async function runTurn(text, mode) {
  const sessionService = new AdkSessionService(openSessionStore({ dbName: 'consumer-adk', mode }));
  try {
    if (!(await sessionService.getSession(key))) await sessionService.createSession(key);
    const agent = new LlmAgent({ name: 'echo', model: new EchoModel(), instruction: 'Echo the user.' });
    const runner = new Runner({ appName: key.appName, agent, sessionService });
    const replies = [];
    for await (const event of runner.runAsync({
      userId: key.userId,
      sessionId: key.sessionId,
      newMessage: { role: 'user', parts: [{ text }] },
    })) {
      const reply = event.content?.parts?.[0]?.text;
      if (reply) replies.push(reply);
    }
    const stored = await sessionService.getSession(key);
    return { replies, stored: stored.events.map((e) => e.content?.parts?.[0]?.text) };
  } finally {
    await sessionService.close();
  }
}
