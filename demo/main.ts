/**
 * The demo: an agent app on the session store, with the package's inspector
 * mounted beside it. The app part is what an app of yours has (a chat with an
 * agent, sample data, export and import, sync setup); everything shown about
 * the store's sessions, events and state is `idb-adk-sessions/inspector`,
 * exactly as an app gets it. Query parameters: `?db=<name>` picks the database
 * (default `adk-sessions-demo`), `?mode=` the store mode (`auto`, `shared`,
 * `dedicated`, `in-thread`). The open conversation is in the URL's hash.
 */
import './styles/theme.css';
import './styles/frame.css';
import './styles/panels.css';
import './styles/chat.css';
import './styles/attachments.css';
import './styles/feedback.css';
import './styles/responsive.css';
import { openSessionStore, type SessionStore, type StoreMode, type SyncHandle } from '../src/index.js';
import { type InspectorHandle, mountInspector } from '../src/inspector/index.js';
import { Chat } from './chat.js';
import type { DemoApp } from './context.js';
import { generateDialog, newSessionDialog } from './dialogs.js';
import { h, throttle } from './dom.js';
import { formatCount, relativeTime } from './format.js';
import { formatHash, parseHash, type Selection, sameSelection } from './route.js';
import { checkSampleOptions, generateSampleData } from './sample-data.js';
import { Status } from './status.js';
import { StoragePanel } from './storage-panel.js';
import { SyncPanel } from './sync-panel.js';
import { TransferPanel } from './transfer-panel.js';

const MODES: StoreMode[] = ['auto', 'shared', 'dedicated', 'in-thread'];
const MODE_LABEL: Record<SessionStore['mode'], string> = {
  shared: 'SharedWorker',
  dedicated: 'dedicated Worker',
  'in-thread': 'in-thread',
  port: 'MessagePort',
};

const params = new URLSearchParams(location.search);
const dbName = params.get('db') || 'adk-sessions-demo';
const askedMode = params.get('mode') as StoreMode | null;
const mode: StoreMode = askedMode && MODES.includes(askedMode) ? askedMode : 'auto';

const store = openSessionStore({ dbName, mode });
const status = new Status();

let shown: Selection | undefined;
const app: DemoApp = {
  store,
  status,
  selection: () => parseHash(location.hash),
  navigate(next, options = {}) {
    const hash = formatHash(next);
    if (hash !== (location.hash || '#')) {
      if (options.replace) history.replaceState(null, '', hash);
      else history.pushState(null, '', hash);
    }
    return show().catch(report);
  },
};

const chat = new Chat(app);
const storage = new StoragePanel();
const syncPanel = new SyncPanel(store, (handle) => {
  sync = handle;
  remountInspector();
});
const transfer = new TransferPanel(app);

/*
 * The inspector, mounted as any app mounts it: on the app's store, filling its own pane. It shows
 * the conversation the chat has open: a new one (New session, a link) is shown in it with
 * `showSession`, its filters kept; a new sync handle mounts it again.
 */
const inspectorPane = h('div', { class: 'inspector-pane' });
let inspector: InspectorHandle | undefined;
let inspected: string | undefined;
let sync: SyncHandle | undefined;

function remountInspector(): Promise<void> {
  const open = app.selection();
  const session = open.app && open.session;
  inspector?.destroy();
  inspected = JSON.stringify([open.app, open.session]);
  inspector = mountInspector(store, {
    target: inspectorPane,
    position: 'full',
    allowWrites: true,
    ...(sync ? { sync } : {}),
    ...(session
      ? { initialSession: { appName: open.app as string, userId: session.userId, sessionId: session.id } }
      : {}),
  });
  return inspector.open();
}

/** Shows the chat's conversation in the inspector (mounting it the first time). */
function inspectSelected(): void {
  const open = app.selection();
  if (!inspector || !open.app || !open.session) {
    void remountInspector().catch(report);
    return;
  }
  inspected = JSON.stringify([open.app, open.session]);
  inspector.showSession({ appName: open.app, userId: open.session.userId, sessionId: open.session.id });
}

function startSampleData(request: {
  appName: string;
  users: number;
  sessions: number;
  eventsPerSession: number;
}): void {
  const stop = new AbortController();
  const task = status.task('Generate sample data', () => stop.abort());
  const started = performance.now();
  generateSampleData(store, {
    ...request,
    seed: Date.now() % 100_000,
    signal: stop.signal,
    onProgress: (done, total) => task.progress(done, total, `${formatCount(done)} of ${formatCount(total)} sessions`),
  }).then(
    (result) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      task.finish(
        `${stop.signal.aborted ? 'Stopped after' : 'Generated'} ${formatCount(result.sessions)} sessions and ${formatCount(result.events)} events in ${seconds} s.`,
      );
    },
    (error: unknown) => task.fail('Generating sample data failed', error),
  );
}

const newSession = h('button', { type: 'button', class: 'primary' }, 'New session');
newSession.addEventListener('click', () => newSessionDialog(app, () => chat.focusComposer()));
const generate = h('button', { type: 'button' }, 'Generate sample data');
generate.addEventListener('click', () => generateDialog(checkSampleOptions, startSampleData));

const live = h('span', { class: 'live', title: 'Changes from every tab appear here as they commit' }, 'live');
const header = h(
  'header',
  { class: 'topbar' },
  h('div', { class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true' }), h('h1', null, 'ADK agent demo')),
  h(
    'div',
    { class: 'db-info' },
    h('span', { class: 'muted' }, 'db'),
    h('span', { class: 'mono' }, dbName),
    h('span', { class: 'sep', 'aria-hidden': 'true' }, '·'),
    h('span', null, MODE_LABEL[store.mode]),
    live,
  ),
  h('div', { class: 'actions' }, newSession, generate, transfer.exportButton, transfer.importButton),
);

document.body.append(
  h(
    'div',
    { class: 'app' },
    header,
    status.alerts,
    h('main', { class: 'panes' }, h('div', { class: 'app-col' }, chat.el, syncPanel.el, storage.el), inspectorPane),
    status.bar,
  ),
);

async function show(): Promise<void> {
  const selection = app.selection();
  shown = selection;
  document.title = `${selection.session?.id ?? 'No conversation'} · ADK agent demo`;
  syncPanel.selectionChanged(selection);
  const wanted = JSON.stringify([selection.app, selection.session]);
  if (wanted !== inspected) inspectSelected();
  await chat.show(selection);
}

const refreshStorage = throttle(() => void storage.refresh().catch(() => {}), 2000);

function report(error: unknown): void {
  status.error('Reading the store failed', error);
}

store.subscribe({}, (change) => {
  live.classList.remove('pulse');
  void live.offsetWidth;
  live.classList.add('pulse');
  refreshStorage();
  chat.onChange(change);
});

store.onClose((error) => {
  live.classList.add('dead');
  live.textContent = 'disconnected';
  status.error('The connection to the store was lost; reload the page to reconnect', error);
});

window.addEventListener('popstate', () => void show().catch(report));
window.addEventListener('hashchange', () => {
  if (!shown || !sameSelection(shown, app.selection())) void show().catch(report);
});
// Relative times ("3 min ago") stay true without re-reading anything.
setInterval(() => {
  const now = Date.now();
  for (const el of document.querySelectorAll<HTMLElement>('time[data-ms]')) {
    el.textContent = relativeTime(Number(el.dataset.ms), now);
  }
}, 15_000);

void (async () => {
  try {
    await Promise.all([storage.refresh(), show()]);
    document.documentElement.dataset.ready = 'true';
  } catch (error) {
    status.error(`The store "${dbName}" could not be opened`, error);
  }
})();
