/**
 * The demo inspector: a live view of a session store, for developers choosing
 * it and for keeping open while building an agent app on it. Query parameters:
 * `?db=<name>` picks the database (default `adk-sessions-demo`), `?mode=` the
 * store mode (`auto`, `shared`, `dedicated`, `in-thread`).
 */
import './styles/theme.css';
import './styles/frame.css';
import './styles/sidebar.css';
import './styles/session-list.css';
import './styles/search.css';
import './styles/session.css';
import './styles/events.css';
import './styles/state.css';
import './styles/attachments.css';
import './styles/feedback.css';
import './styles/responsive.css';
import { openSessionStore, type SessionStore, type StoreMode } from '../src/index.js';
import type { Inspector } from './context.js';
import { generateDialog, newSessionDialog } from './dialogs.js';
import { h, throttle } from './dom.js';
import { formatCount, relativeTime } from './format.js';
import { formatHash, parseHash, type Selection, sameSelection } from './route.js';
import { checkSampleOptions, generateSampleData } from './sample-data.js';
import { SearchPanel } from './search-panel.js';
import { SessionList } from './session-list.js';
import { SessionView } from './session-view.js';
import { Sidebar } from './sidebar.js';
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
const inspector: Inspector = {
  store,
  dbName,
  status,
  selection: () => parseHash(location.hash),
  navigate(next, options = {}) {
    const hash = formatHash(next);
    if (hash !== (location.hash || '#')) {
      if (options.replace) history.replaceState(null, '', hash);
      else history.pushState(null, '', hash);
    }
    return sync().catch(report);
  },
};

const storage = new StoragePanel();
const syncPanel = new SyncPanel(store);
const sidebar = new Sidebar(inspector, syncPanel.el, storage.el);
const list = new SessionList(inspector, () => sidebar.appSummaries.length === 0);
const view = new SessionView(inspector);
const transfer = new TransferPanel(inspector);
const search = new SearchPanel(inspector, async (hit, appName, userId) => {
  const { user } = inspector.selection();
  await inspector.navigate({ app: appName, ...(user ? { user } : {}), session: { userId, id: hit.sessionId } });
  view.reveal(hit.eventId);
});

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
      if (!inspector.selection().app) void inspector.navigate({ app: request.appName });
    },
    (error: unknown) => task.fail('Generating sample data failed', error),
  );
}

const newSession = h('button', { type: 'button', class: 'primary' }, 'New session');
newSession.addEventListener('click', () => newSessionDialog(inspector, () => view.focusComposer()));
const generate = h('button', { type: 'button' }, 'Generate sample data');
generate.addEventListener('click', () => generateDialog(checkSampleOptions, startSampleData));

const live = h('span', { class: 'live', title: 'Changes from every tab appear here as they commit' }, 'live');
const header = h(
  'header',
  { class: 'topbar' },
  h(
    'div',
    { class: 'brand' },
    h('span', { class: 'logo', 'aria-hidden': 'true' }),
    h('h1', null, 'ADK Session Inspector'),
  ),
  search.el,
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
    h('main', { class: 'panes' }, sidebar.el, list.el, view.el),
    status.bar,
  ),
);

async function sync(): Promise<void> {
  let selection = inspector.selection();
  if (!selection.app && sidebar.appSummaries.length > 0 && !location.hash.includes('app=')) {
    // Nothing chosen yet: open the first app rather than an empty pane.
    selection = { app: sidebar.appSummaries[0]?.appName as string };
    history.replaceState(null, '', formatHash(selection));
  }
  const appChanged = shown?.app !== selection.app;
  shown = selection;
  document.title = `${selection.session?.id ?? selection.user ?? selection.app ?? 'Sessions'} · ADK Session Inspector`;
  sidebar.render();
  search.selectionChanged();
  syncPanel.selectionChanged(selection);
  await Promise.all([appChanged ? sidebar.refresh() : null, list.refresh(), view.show(selection)]);
}

const refreshSidebar = throttle(() => void sidebar.refresh().catch(report), 300);
const refreshList = throttle(() => void list.refresh().catch(report), 200);
const refreshSearch = throttle(() => search.refresh(), 300);
const refreshStorage = throttle(() => void storage.refresh().catch(() => {}), 2000);

function report(error: unknown): void {
  status.error('Reading the store failed', error);
}

store.subscribe({}, (change) => {
  live.classList.remove('pulse');
  void live.offsetWidth;
  live.classList.add('pulse');
  const selection = inspector.selection();
  refreshSidebar();
  refreshStorage();
  if (change.appName === selection.app && (!selection.user || selection.user === change.userId)) {
    list.invalidate();
    refreshList();
  }
  view.onChange(change);
  refreshSearch();
});

store.onClose((error) => {
  live.classList.add('dead');
  live.textContent = 'disconnected';
  status.error('The connection to the store was lost; reload the page to reconnect', error);
});

window.addEventListener('popstate', () => void sync().catch(report));
window.addEventListener('hashchange', () => {
  if (!shown || !sameSelection(shown, inspector.selection())) void sync().catch(report);
});
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  const typing = target.closest('input, textarea, select, [contenteditable], dialog');
  if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    list.focusFilter();
  }
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
    await Promise.all([sidebar.refresh(), storage.refresh()]);
    await sync();
    document.documentElement.dataset.ready = 'true';
  } catch (error) {
    status.error(`The store "${dbName}" could not be opened`, error);
  }
})();
