/**
 * An offline chat: the AI SDK's `useChat`, its history in idb-adk-sessions (a
 * worker owns the database), kept across reloads, in step across tabs, and
 * with every message the user typed kept when the network is gone.
 */
import { useChat } from '@ai-sdk/react';
import { Experimental_Agent as Agent, DirectChatTransport, type InferAgentUIMessage } from 'ai';
import { openSessionStore } from 'idb-adk-sessions';
import { eventsToMessages, persistChat } from 'idb-adk-sessions/ai-sdk';
import { SessionStoreProvider, useSession } from 'idb-adk-sessions/react';
import { createElement as h, type ReactNode, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { echoModel, needsNetwork } from './model.js';

const store = openSessionStore({ dbName: 'ai-sdk-chat' });
const key = { appName: 'ai-sdk-chat', userId: 'me', sessionId: 'chat-1' };
const agent = new Agent({ model: echoModel() });
type ChatMessage = InferAgentUIMessage<typeof agent>;
const chat = persistChat<ChatMessage>(store, key);
const transport = chat.transport(needsNetwork(new DirectChatTransport({ agent })));

const textOf = (message: ChatMessage): string =>
  message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

function Chat({ initialMessages }: { initialMessages: ChatMessage[] }): ReactNode {
  const { messages, setMessages, sendMessage, status, error } = useChat({
    id: key.sessionId,
    messages: initialMessages,
    transport,
    onFinish: chat.onFinish,
  });
  // Another tab's messages arrive through the live session; taken in only while this tab is not mid-turn.
  // The live value may lag this tab's own last save by a moment: messages it does not hold yet stay.
  const stored = useSession(key).value;
  useEffect(() => {
    if (!stored || status === 'submitted' || status === 'streaming') return;
    const next = eventsToMessages(stored.events) as ChatMessage[];
    const known = new Set(next.map((m) => m.id));
    for (const m of messages) if (!known.has(m.id)) next.push(m);
    if (JSON.stringify(next) !== JSON.stringify(messages)) setMessages(next);
  }, [stored, status, messages, setMessages]);
  const [draft, setDraft] = useState('');
  return h(
    'section',
    null,
    h('h1', null, 'Offline chat'),
    h(
      'ol',
      { 'aria-label': 'Messages' },
      // Stored content is shown as text only.
      messages
        .filter((m) => m.parts.some((part) => part.type !== 'step-start'))
        .map((m) => h('li', { key: m.id, 'data-role': m.role }, textOf(m))),
    ),
    error ? h('p', { role: 'alert' }, error.message) : null,
    h(
      'form',
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          if (!draft.trim()) return;
          void sendMessage({ text: draft });
          setDraft('');
        },
      },
      h('input', {
        'aria-label': 'Message',
        value: draft,
        onChange: (event: { target: { value: string } }) => setDraft(event.target.value),
      }),
      h('button', { type: 'submit', disabled: status === 'submitted' || status === 'streaming' }, 'Send'),
    ),
  );
}

const initialMessages = await chat.load();
createRoot(document.getElementById('root') as HTMLElement).render(
  h(StrictMode, null, h(SessionStoreProvider, { store }, h(Chat, { initialMessages }))),
);
document.documentElement.dataset.ready = 'true';
