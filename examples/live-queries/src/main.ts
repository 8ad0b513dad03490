/**
 * Live queries without a framework: a list of conversations (`watchSessions`), the
 * open one (`watchSession`) and a counter in the user's state (`watchUserState`),
 * each redrawn whenever the store changes, from this tab or any other. Every text
 * is set as `textContent`: nothing from the store is ever parsed as HTML.
 */
import {
  createAppender,
  openSessionStore,
  type Session,
  watchSession,
  watchSessions,
  watchUserState,
} from 'idb-adk-sessions';

const user = { appName: 'live-queries', userId: 'me' };
const store = openSessionStore({ dbName: 'live-queries' });

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const list = $<HTMLUListElement>('#conversations');
const title = $<HTMLHeadingElement>('#title');
const messages = $<HTMLOListElement>('#messages');
const form = $<HTMLFormElement>('#composer');
const input = $<HTMLInputElement>('#message');
const sent = $<HTMLOutputElement>('#sent');
const error = $<HTMLParagraphElement>('#error');

const show = (failure: unknown) => {
  error.textContent = String(failure);
};
const titleOf = (session: Session): string =>
  typeof session.state.title === 'string' ? session.state.title : 'New conversation';
const openId = (): string => decodeURIComponent(location.hash.slice(1));

let listed: readonly Session[] = [];
function drawList(): void {
  list.replaceChildren(
    ...listed.map((session) => {
      const link = Object.assign(document.createElement('a'), { href: `#${encodeURIComponent(session.id)}` });
      link.textContent = titleOf(session);
      if (session.id === openId()) link.setAttribute('aria-current', 'page');
      const item = document.createElement('li');
      item.append(link);
      return item;
    }),
  );
}
// Newest first; the query re-reads the page after every change to the user's sessions.
watchSessions(store, { ...user, order: 'desc' }).watch(({ sessions }) => {
  listed = sessions;
  drawList();
}, show);

watchUserState(store, user).watch((state) => {
  sent.textContent = String(state.sent ?? 0);
}, show);

/** The open conversation: a query of its own, replaced when the address names another. */
let stop = (): void => {};
function open(sessionId: string): void {
  stop();
  drawList();
  form.hidden = !sessionId;
  title.textContent = sessionId ? '' : 'Pick or start a conversation';
  messages.replaceChildren();
  if (!sessionId) return;
  const append = createAppender(store, { ...user, sessionId });
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    form.reset();
    // Built from the session's current state, again if another tab wrote first.
    append((session) => ({
      id: crypto.randomUUID(),
      invocationId: crypto.randomUUID(),
      author: 'user',
      timestamp: Date.now(),
      content: { role: 'user', parts: [{ text }] },
      actions: {
        stateDelta: {
          ...(session.state.title === undefined ? { title: text.slice(0, 60) } : {}),
          'user:sent': Number(session.state['user:sent'] ?? 0) + 1,
        },
      },
    })).catch(show);
  };
  stop = watchSession(store, { ...user, sessionId }).watch((session) => {
    title.textContent = session ? titleOf(session) : 'Deleted';
    messages.replaceChildren(
      ...(session?.events ?? []).map((event) => {
        const item = document.createElement('li');
        item.textContent = (event.content?.parts ?? []).map((part) => part.text ?? '').join('');
        return item;
      }),
    );
  }, show);
}

$('#new').addEventListener('click', async () => {
  try {
    const session = await store.createSession(user);
    location.hash = encodeURIComponent(session.id);
  } catch (failure) {
    show(failure);
  }
});
addEventListener('hashchange', () => open(openId()));
open(openId());
await store.ready;
document.body.dataset.ready = 'true';
