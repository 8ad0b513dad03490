// A chat app as the README's AI SDK section has a user write it: useChat, its
// history offline in the store's SharedWorker, a chat per id, in step across
// tabs, photos, a list of chats by title. The model is behind the server's
// /api/chat. The test drives the UI, and search and export through `window.chatApp`.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { exportArchiveToBlob, openSessionStore } from 'idb-adk-sessions';
import { chatTitle } from 'idb-adk-sessions/ai-sdk';
import { useChatInStep, useStoredChat } from 'idb-adk-sessions/ai-sdk/react';
import { SessionStoreProvider, useSessions } from 'idb-adk-sessions/react';
import { createElement as h, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

const store = openSessionStore({ dbName: 'chat-app' });
const user = { appName: 'chat-app', userId: 'me' };
const transport = new DefaultChatTransport({ api: './api/chat' });

function Chats() {
  const { value } = useSessions({ ...user, order: 'desc' });
  return h(
    'ul',
    { 'aria-label': 'Chats' },
    value?.sessions.map((session) => h('li', { key: session.id }, chatTitle(session) ?? 'New chat')),
  );
}

function Part({ part }) {
  if (part.type === 'text') return h('span', null, part.text);
  if (part.type === 'file') return h('img', { src: part.url, alt: part.filename ?? 'file' });
  return null;
}

function Chat({ chatId }) {
  const stored = useStoredChat({ ...user, sessionId: chatId }, { transport });
  const chat = useChat({ id: stored.id, transport: stored.transport, onFinish: stored.onFinish });
  useChatInStep(stored, chat);
  const [draft, setDraft] = useState('');
  const [files, setFiles] = useState(undefined);
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  return h(
    'section',
    { 'data-status': stored.status },
    h('h1', null, stored.title ?? 'New chat'),
    h(
      'ol',
      { 'aria-label': 'Messages' },
      chat.messages
        .filter((m) => m.parts.some((part) => part.type === 'text' || part.type === 'file'))
        .map((m) =>
          h('li', { key: m.id, 'data-role': m.role }, ...m.parts.map((part, i) => h(Part, { key: i, part }))),
        ),
    ),
    chat.error ? h('p', { role: 'alert' }, chat.error.message) : null,
    h(
      'form',
      {
        onSubmit: (event) => {
          event.preventDefault();
          void chat.sendMessage({ text: draft, files });
          setDraft('');
          setFiles(undefined);
          event.target.reset();
        },
      },
      h('input', { 'aria-label': 'Message', value: draft, onChange: (event) => setDraft(event.target.value) }),
      h('input', { 'aria-label': 'Photo', type: 'file', onChange: (event) => setFiles(event.target.files) }),
      h('button', { type: 'submit', disabled: busy }, 'Send'),
    ),
  );
}

const chatId = new URLSearchParams(location.search).get('chat') ?? 'first';
createRoot(document.getElementById('root')).render(
  h(StrictMode, null, h(SessionStoreProvider, { store }, h(Chats), h(Chat, { chatId }))),
);

async function search(query) {
  const { hits } = await store.searchEvents({ ...user, query });
  return hits.map((hit) => hit.snippet.text);
}

/** The whole app as a zip (sessions and their artifacts), base64 for the test to open. */
async function exportAll() {
  const bytes = new Uint8Array(await (await exportArchiveToBlob(store, { appName: user.appName })).arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

window.chatApp = { search, exportAll };
