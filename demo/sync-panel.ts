/**
 * Sync: the server URL, token and whose sessions to sync (kept in this
 * browser), a "Sync now" button, and the status the store reports: online or
 * offline, pending changes, last successful sync, last error. Until settings are
 * saved or typed, whose sessions follow the selected app and user: syncing an app
 * that is not there would add it, empty, to the app list.
 */
import type { SessionStore, SyncHandle, SyncStatus } from '../src/index.js';
import { DEFAULT_APP, DEFAULT_USER } from './context.js';
import { h, replace } from './dom.js';
import { relativeTime } from './format.js';
import type { Selection } from './route.js';

const SETTINGS_KEY = 'idb-adk-sessions-demo:sync';

interface Settings {
  url: string;
  token: string;
  appName: string;
  userId: string;
}

function field(label: string, input: HTMLInputElement): HTMLLabelElement {
  return h('label', { class: 'sync-field' }, h('span', null, label), input);
}

export class SyncPanel {
  readonly el: HTMLElement;
  private handle: SyncHandle | undefined;
  private readonly url = h('input', { type: 'url', placeholder: 'http://127.0.0.1:8787', autocomplete: 'off' });
  private readonly token = h('input', { type: 'password', autocomplete: 'off' });
  private readonly appName = h('input', { type: 'text', autocomplete: 'off', required: true });
  private readonly userId = h('input', { type: 'text', autocomplete: 'off', required: true });
  private readonly connect = h('button', { type: 'submit', class: 'small' }, 'Connect');
  private readonly now = h('button', { type: 'button', class: 'small', disabled: true }, 'Sync now');
  // Polite live text, not role=status: the page's status bar is its one status region.
  private readonly indicator = h(
    'p',
    { class: 'sync-indicator', 'aria-live': 'polite', 'data-phase': 'off' },
    'Not syncing',
  );
  private readonly facts = h('dl', { class: 'storage-facts sync-facts' });
  /** Whose sessions were saved or typed: then the selection no longer fills them in. */
  private chosen: boolean;

  /** `onConnected` hears of each sync started (the page hands it to the inspector). */
  constructor(
    private readonly store: SessionStore,
    private readonly onConnected: (handle: SyncHandle) => void = () => {},
  ) {
    const saved = load();
    this.url.value = saved?.url ?? 'http://127.0.0.1:8787';
    this.token.value = saved?.token ?? '';
    this.appName.value = saved?.appName ?? DEFAULT_APP;
    this.userId.value = saved?.userId ?? DEFAULT_USER;
    this.chosen = saved !== undefined;
    for (const input of [this.appName, this.userId]) {
      input.addEventListener('input', () => {
        this.chosen = true;
      });
    }
    const form = h(
      'form',
      { class: 'sync-form', 'aria-label': 'Sync settings' },
      field('Server URL', this.url),
      field('Token', this.token),
      field('App name', this.appName),
      field('User id', this.userId),
      h('div', { class: 'sync-buttons' }, this.connect, this.now),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.start(this.settings());
    });
    this.now.addEventListener('click', () => void this.handle?.syncNow());
    this.el = h(
      'section',
      { class: 'nav-section storage sync', 'aria-labelledby': 'sync-title' },
      h('h2', { class: 'pane-title', id: 'sync-title' }, 'Sync'),
      this.indicator,
      this.facts,
      form,
    );
    if (saved) void this.start(saved);
  }

  /** Fills in the selected app and user (the open session's owner when "All users" is listed). */
  selectionChanged({ app, user, session }: Selection): void {
    if (this.chosen || this.handle) return;
    this.appName.value = app ?? DEFAULT_APP;
    this.userId.value = user ?? session?.userId ?? (app ? '' : DEFAULT_USER);
  }

  private settings(): Settings {
    return {
      url: this.url.value.trim(),
      token: this.token.value,
      appName: this.appName.value.trim(),
      userId: this.userId.value.trim(),
    };
  }

  private async start(settings: Settings): Promise<void> {
    this.connect.disabled = true;
    try {
      await this.handle?.stop();
      this.handle = await this.store.sync(settings);
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
      this.handle.onStatus((status) => this.show(status));
      this.show(this.handle.status);
      this.onConnected(this.handle);
      this.now.disabled = false;
    } catch (error) {
      this.handle = undefined;
      this.now.disabled = true;
      this.indicator.dataset.phase = 'error';
      this.indicator.textContent = `Cannot sync: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.connect.disabled = false;
    }
  }

  private show(status: SyncStatus): void {
    const now = Date.now();
    this.indicator.dataset.phase = status.phase;
    const where = status.phase === 'syncing' ? 'Syncing' : status.online ? 'Online' : 'Offline';
    this.indicator.textContent = `${where} · ${status.pending} pending`;
    replace(
      this.facts,
      h('dt', null, 'Pending'),
      h('dd', { class: 'sync-pending' }, String(status.pending)),
      h('dt', null, 'Last sync'),
      h(
        'dd',
        { class: 'sync-last' },
        status.lastSyncAt === null
          ? 'never'
          : h('time', { 'data-ms': status.lastSyncAt }, relativeTime(status.lastSyncAt, now)),
      ),
      h('dt', null, 'Last error'),
      h('dd', { class: 'sync-error' }, status.lastError ? status.lastError.message : 'none'),
      // Sessions the server would not take: their changes stay here, pending, until the cause is gone.
      ...(Object.keys(status.refused).length === 0
        ? []
        : [
            h('dt', null, 'Refused'),
            h(
              'dd',
              { class: 'sync-refused' },
              h(
                'ul',
                null,
                ...Object.entries(status.refused).map(([id, why]) => h('li', null, `${id}: ${why.message}`)),
              ),
            ),
          ]),
    );
  }
}

function load(): Settings | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as Partial<Settings> | null;
    if (!value || typeof value.url !== 'string' || typeof value.token !== 'string') return undefined;
    return {
      url: value.url,
      token: value.token,
      appName: typeof value.appName === 'string' ? value.appName : DEFAULT_APP,
      userId: typeof value.userId === 'string' ? value.userId : DEFAULT_USER,
    };
  } catch {
    return undefined;
  }
}
