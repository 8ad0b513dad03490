/**
 * One device of a synced app: conversations in this browser's IndexedDB, kept in
 * sync with the sync server (`store.sync`) while the page is open, written offline
 * just the same and sent once the server is back. Open it in two browsers (or a
 * private window: each has its own IndexedDB) to see one device's messages reach
 * the other. Text is set with `textContent`: nothing from the store is parsed as HTML.
 *
 * The address can name the server, the token, its user and a label:
 * `?server=http://127.0.0.1:8787&token=dev-token&user=demo-user&device=A`.
 */
import {
  createAppender,
  openSessionStore,
  type Session,
  type SyncStatus,
  watchSession,
  watchSessions,
} from 'idb-adk-sessions';

const params = new URLSearchParams(location.search);
const server = params.get('server') ?? 'http://127.0.0.1:8787';
// The server's development token acts for `demo-user`; a real server maps each token to its user.
const token = params.get('token') ?? 'dev-token';
const user = { appName: 'sync-devices', userId: params.get('user') ?? 'demo-user' };
const store = openSessionStore({ dbName: 'sync-devices' });

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const list = $<HTMLUListElement>('#conversations');
const title = $<HTMLHeadingElement>('#title');
const messages = $<HTMLOListElement>('#messages');
const form = $<HTMLFormElement>('#composer');
const input = $<HTMLInputElement>('#message');
const status = $<HTMLOutputElement>('#status');
const error = $<HTMLParagraphElement>('#error');
$('#device').textContent = params.get('device') ?? 'this device';

const show = (failure: unknown) => {
  error.textContent = String(failure);
};
const titleOf = (session: Session): string =>
  typeof session.state.title === 'string' ? session.state.title : 'New conversation';
const openId = (): string => decodeURIComponent(location.hash.slice(1));

function drawStatus(sync: SyncStatus): void {
  status.textContent = `${sync.online ? 'Online' : 'Offline'} · ${sync.pending} pending`;
  status.title = sync.lastError?.message ?? '';
}

watchSessions(store, { ...user, order: 'desc' }).watch(({ sessions }) => {
  list.replaceChildren(
    ...sessions.map((session) => {
      const link = Object.assign(document.createElement('a'), { href: `#${encodeURIComponent(session.id)}` });
      link.textContent = titleOf(session);
      const item = document.createElement('li');
      item.append(link);
      return item;
    }),
  );
}, show);

let stop = (): void => {};
function open(sessionId: string): void {
  stop();
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
    append((session) => ({
      id: crypto.randomUUID(),
      invocationId: crypto.randomUUID(),
      author: 'user',
      timestamp: Date.now(),
      content: { role: 'user', parts: [{ text }] },
      actions: { stateDelta: session.state.title === undefined ? { title: text.slice(0, 60) } : {} },
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

$('#new').addEventListener('click', () => {
  store.createSession(user).then((session) => {
    location.hash = encodeURIComponent(session.id);
  }, show);
});
addEventListener('hashchange', () => open(openId()));
open(openId());

// Pushes each local change at once, hears the server's change stream, and retries soon after a failure.
try {
  const sync = await store.sync({ url: server, token, ...user, retry: { minMs: 500, maxMs: 3000 } });
  drawStatus(sync.status);
  sync.onStatus(drawStatus);
  $('#sync-now').addEventListener('click', () => void sync.syncNow().catch(show));
} catch (failure) {
  show(failure);
}
document.body.dataset.ready = 'true';
