/**
 * `useStoredChat` and `useChatInStep` in a real browser, under React 19's
 * strict mode, over a worker client: what a chat shows across the instant its
 * own message is stored. `useChat` is stood in for by a state holding the
 * messages, so every list the chat was given is recorded.
 */
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { createElement, type ReactNode, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import { useChatInStep, useStoredChat } from '../../src/ai-sdk/react.js';
import { type ReactStore, SessionStoreProvider } from '../../src/react/index.js';
import { cleanupAfterEach, twoTabs } from './helpers.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 'c1' };
const cleanup = cleanupAfterEach();

const offline: ChatTransport<UIMessage> = {
  sendMessages: async () => {
    throw new TypeError('Failed to fetch');
  },
  reconnectToStream: async () => null as ReadableStream<UIMessageChunk> | null,
};

interface Handle {
  /** Shows `message` and sends it, as `useChat`'s `sendMessage` does; settles when the request failed. */
  send(message: UIMessage): Promise<unknown>;
  /** Every message list the chat was given, in order. */
  shown: string[][];
}

function mountChat(store: ReactStore): Handle {
  const handle: Handle = { send: async () => undefined, shown: [] };
  function Chat(): ReactNode {
    const stored = useStoredChat(key, { transport: offline });
    const [messages, setMessages] = useState<UIMessage[]>([]);
    // Never mid-turn: every stored change is applied, as after a failed request.
    useChatInStep(stored, { id: stored.id, messages, status: 'error', setMessages });
    const ids = messages.map((m) => m.id);
    if (handle.shown.at(-1)?.join() !== ids.join()) handle.shown.push(ids);
    handle.send = (message) => {
      const next = [...messages, message];
      setMessages(next);
      return stored.transport
        .sendMessages({
          trigger: 'submit-message',
          chatId: key.sessionId,
          messageId: undefined,
          messages: next,
          abortSignal: undefined,
        })
        .catch((error: unknown) => error);
    };
    return stored.status;
  }
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(createElement(StrictMode, null, createElement(SessionStoreProvider, { store }, createElement(Chat))));
  cleanup.push(() => {
    root.unmount();
    container.remove();
  });
  return handle;
}

const typed = (id: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text: `typed ${id}` }] });

it('never drops a message of its own for an instant while it is being stored', async () => {
  const { reader } = twoTabs('ai-sdk-react', cleanup);
  const chat = mountChat(reader);
  await expect.poll(() => chat.shown.at(-1)).toEqual([]);
  for (const id of ['m1', 'm2', 'm3']) {
    await chat.send(typed(id));
    await expect.poll(() => chat.shown.at(-1)?.at(-1)).toBe(id);
  }
  // Give the last stored change time to reach the chat, then read every list it was shown.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(chat.shown).toEqual([[], ['m1'], ['m1', 'm2'], ['m1', 'm2', 'm3']]);
});
