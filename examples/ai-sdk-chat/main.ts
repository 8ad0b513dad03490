/**
 * An offline chat: the AI SDK's `useChat`, its history in idb-adk-sessions (a
 * worker owns the database), one chat per id, kept across reloads, in step
 * across tabs, photos included, a list of chats by title, search over every
 * chat, an export of them all as a zip, every message the user typed kept
 * when the network is gone, and edits and regenerated replies kept as versions
 * to switch between. A reply is stored as it streams: reloaded mid-reply, the
 * page shows it cut off, to keep or drop.
 */
import { useChat } from '@ai-sdk/react';
import { Experimental_Agent as Agent, DirectChatTransport, type InferAgentUIMessage } from 'ai';
import { exportArchiveToBlob, openSessionStore, type SearchHit } from 'idb-adk-sessions';
import { chatTitle, replyDraftOf } from 'idb-adk-sessions/ai-sdk';
import { type StoredChat, useChatInStep, useStoredChat } from 'idb-adk-sessions/ai-sdk/react';
import { SessionStoreProvider, useSessions } from 'idb-adk-sessions/react';
import { createElement as h, type ReactNode, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { echoModel, needsNetwork } from './model.js';

const store = openSessionStore({ dbName: 'ai-sdk-chat' });
const user = { appName: 'ai-sdk-chat', userId: 'me' };
const agent = new Agent({ model: echoModel() });
type ChatMessage = InferAgentUIMessage<typeof agent>;
const transport = needsNetwork(new DirectChatTransport({ agent }));

const chatInAddress = (): string => decodeURIComponent(location.hash.slice(1)) || 'chat-1';

/** The chat the address names (`#chat-2`), so a link or a reload opens the same one. */
function useChatId(): [string, (id: string) => void] {
  const [id, setId] = useState(chatInAddress);
  useEffect(() => {
    const follow = () => setId(chatInAddress());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const open = (next: string): void => {
    location.hash = encodeURIComponent(next);
  };
  return [id, open];
}

/** Every chat of the user, newest first, by the title `persistChat` keeps in each session's state. */
function Chats({ current, open }: { current: string; open: (id: string) => void }): ReactNode {
  const sessions = useSessions({ ...user, order: 'desc' }).value?.sessions ?? [];
  return h(
    'nav',
    null,
    h('button', { type: 'button', onClick: () => open(`chat-${Date.now()}`) }, 'New chat'),
    h(
      'ul',
      { 'aria-label': 'Chats' },
      sessions.map((session) =>
        h(
          'li',
          { key: session.id },
          h(
            'a',
            { href: `#${encodeURIComponent(session.id)}`, 'aria-current': session.id === current ? 'page' : undefined },
            chatTitle(session) ?? 'New chat',
          ),
        ),
      ),
    ),
  );
}

/** A part as the page shows it: text as text (never HTML), a file as an image from its `data:` URL. */
function Part({ part }: { part: ChatMessage['parts'][number] }): ReactNode {
  if (part.type === 'text') return h('span', null, part.text);
  if (part.type === 'file' && part.mediaType.startsWith('image/'))
    return h('img', { src: part.url, alt: part.filename ?? 'image' });
  return null;
}

/** "‹ 2 / 3 ›" under a message that has versions (it was edited, or it is a regenerated reply). */
function Versions({ id, stored }: { id: string; stored: StoredChat<ChatMessage> }): ReactNode {
  const branch = stored.branches.get(id);
  if (!branch) return null;
  const show = (index: number) => () => void stored.switchBranch(id, index).catch(alert);
  return h(
    'span',
    { className: 'versions' },
    h('button', { type: 'button', disabled: branch.index === 0, onClick: show(branch.index - 1) }, 'Previous version'),
    h(
      'span',
      { 'aria-label': `Version ${branch.index + 1} of ${branch.count}` },
      `${branch.index + 1} / ${branch.count}`,
    ),
    h(
      'button',
      { type: 'button', disabled: branch.index === branch.count - 1, onClick: show(branch.index + 1) },
      'Next version',
    ),
  );
}

/**
 * How a reply stored as it streamed stands: being written (here or in another tab), cut off by a
 * reload or a closed tab (keep it as it is, or drop it), or kept cut off.
 */
function DraftMark({ message, stored }: { message: ChatMessage; stored: StoredChat<ChatMessage> }): ReactNode {
  const mark = replyDraftOf(message);
  if (!mark) return null;
  if (mark.state === 'streaming') return h('span', { className: 'draft' }, 'Writing…');
  if (mark.state === 'kept') return h('span', { className: 'draft' }, 'Cut off');
  return h(
    'span',
    { className: 'draft interrupted', role: 'group', 'aria-label': 'Interrupted reply' },
    h('strong', null, 'Interrupted'),
    h('button', { type: 'button', onClick: () => void stored.keepDraft(mark.draftId).catch(alert) }, 'Keep reply'),
    h('button', { type: 'button', onClick: () => void stored.dropDraft(mark.draftId).catch(alert) }, 'Drop reply'),
  );
}

function Chat({ chatId }: { chatId: string }): ReactNode {
  // The stored chat, current with every tab; the transport stores what is typed before it goes out.
  const stored = useStoredChat<ChatMessage>({ ...user, sessionId: chatId }, { transport });
  const chat = useChat<ChatMessage>({ id: stored.id, transport: stored.transport, onFinish: stored.onFinish });
  // Once loaded, and whenever another tab stores a message, while this one is not mid-turn.
  useChatInStep(stored, chat);
  const [draft, setDraft] = useState('');
  const [files, setFiles] = useState<FileList | undefined>();
  // The user message being edited: sent again with its id, the old version kept.
  const [editing, setEditing] = useState<string | undefined>();
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  const lastReply = chat.messages.findLast((m) => m.role === 'assistant')?.id;
  return h(
    'section',
    { 'aria-busy': stored.status === 'loading' },
    h('h1', null, stored.title ?? 'Offline chat'),
    h(
      'ol',
      { 'aria-label': 'Messages' },
      chat.messages
        .filter((m) => replyDraftOf(m) || m.parts.some((part) => part.type === 'text' || part.type === 'file'))
        .map((m) =>
          h(
            'li',
            { key: m.id, 'data-role': m.role, 'data-draft': replyDraftOf(m)?.state },
            h('div', { className: 'body' }, ...m.parts.map((part, i) => h(Part, { key: i, part }))),
            h(
              'div',
              { className: 'actions' },
              m.role === 'user'
                ? h(
                    'button',
                    {
                      type: 'button',
                      disabled: busy,
                      onClick: () => {
                        setEditing(m.id);
                        setDraft(m.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''));
                      },
                    },
                    'Edit',
                  )
                : null,
              h(DraftMark, { message: m, stored }),
              m.id === lastReply && replyDraftOf(m)?.state !== 'interrupted'
                ? h(
                    'button',
                    { type: 'button', disabled: busy, onClick: () => void chat.regenerate({ messageId: m.id }) },
                    'Regenerate',
                  )
                : null,
              h(Versions, { id: m.id, stored }),
            ),
          ),
        ),
    ),
    (stored.error ?? chat.error) ? h('p', { role: 'alert' }, (stored.error ?? chat.error)?.message) : null,
    h(
      'form',
      {
        onSubmit: (event: { preventDefault(): void; currentTarget: HTMLFormElement }) => {
          event.preventDefault();
          if (!draft.trim() && !files?.length) return;
          const edit = editing === undefined ? {} : { messageId: editing };
          void chat.sendMessage(files?.length ? { text: draft, files, ...edit } : { text: draft, ...edit });
          setEditing(undefined);
          setDraft('');
          setFiles(undefined);
          event.currentTarget.reset();
        },
      },
      h('input', {
        'aria-label': 'Message',
        value: draft,
        onChange: (event: { target: { value: string } }) => setDraft(event.target.value),
      }),
      h('input', {
        'aria-label': 'Photo',
        type: 'file',
        accept: 'image/*',
        onChange: (event: { target: { files: FileList | null } }) => setFiles(event.target.files ?? undefined),
      }),
      h('button', { type: 'submit', disabled: busy }, 'Send'),
      editing === undefined
        ? null
        : h(
            'button',
            {
              type: 'button',
              onClick: () => {
                setEditing(undefined);
                setDraft('');
              },
            },
            'Cancel edit',
          ),
    ),
  );
}

/** Search over every chat's messages (the store's full-text index); a hit links to its chat. */
function Search(): ReactNode {
  const [hits, setHits] = useState<SearchHit[] | undefined>();
  const [query, setQuery] = useState('');
  return h(
    'search',
    null,
    h(
      'form',
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          if (!query.trim()) return setHits(undefined);
          store.searchEvents({ ...user, query }).then((found) => setHits(found.hits), alert);
        },
      },
      h('input', {
        'aria-label': 'Search',
        type: 'search',
        value: query,
        onChange: (event: { target: { value: string } }) => setQuery(event.target.value),
      }),
      h('button', { type: 'submit' }, 'Search'),
    ),
    hits
      ? h(
          'ul',
          { 'aria-label': 'Search results' },
          hits.map((hit) =>
            h('li', { key: hit.eventId }, h('a', { href: `#${encodeURIComponent(hit.sessionId)}` }, hit.snippet.text)),
          ),
        )
      : null,
  );
}

/** Every chat and its photos as one zip file (`importArchive` reads it back). */
async function downloadAll(): Promise<void> {
  const url = URL.createObjectURL(await exportArchiveToBlob(store, { appName: user.appName }));
  const link = Object.assign(document.createElement('a'), { href: url, download: 'chats.zip' });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function App(): ReactNode {
  const [chatId, open] = useChatId();
  return h(
    'div',
    { className: 'app' },
    h(Chats, { current: chatId, open }),
    h(Search),
    h('button', { type: 'button', onClick: () => void downloadAll().catch(alert) }, 'Export all chats'),
    h(Chat, { chatId }),
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  h(StrictMode, null, h(SessionStoreProvider, { store }, h(App))),
);
document.documentElement.dataset.ready = 'true';
