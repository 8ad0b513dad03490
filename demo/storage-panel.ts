/**
 * Storage: what the origin uses of its quota (`navigator.storage.estimate()`),
 * whether the browser may evict it (`persisted()`), and a button to ask it not to.
 */
import { h, replace } from './dom.js';
import { formatBytes } from './format.js';

export class StoragePanel {
  readonly el: HTMLElement;
  private readonly body = h('div', { class: 'storage-body' });
  private readonly request = h('button', { type: 'button', class: 'small' }, 'Request persistent storage');
  private readonly hint = h('p', { class: 'storage-note' });
  private readonly note = h('p', { class: 'storage-note', 'aria-live': 'polite' });

  constructor() {
    this.el = h(
      'section',
      { class: 'nav-section storage', 'aria-labelledby': 'storage-title' },
      h('h2', { class: 'pane-title', id: 'storage-title' }, 'Storage'),
      this.body,
      this.hint,
      this.request,
      this.note,
    );
    this.request.addEventListener('click', () => void this.persist());
  }

  async refresh(): Promise<void> {
    const storage = navigator.storage;
    if (!storage?.estimate) {
      replace(this.body, h('p', { class: 'muted' }, 'This browser does not report storage use.'));
      this.request.hidden = true;
      return;
    }
    const [estimate, persisted] = await Promise.all([storage.estimate(), storage.persisted?.() ?? false]);
    const usage = estimate.usage ?? 0;
    const quota = estimate.quota ?? 0;
    const idb = (estimate as { usageDetails?: { indexedDB?: number } }).usageDetails?.indexedDB;
    replace(
      this.body,
      h(
        'dl',
        { class: 'storage-facts' },
        h('dt', null, 'Used'),
        h('dd', null, formatBytes(usage)),
        idb !== undefined ? [h('dt', null, 'IndexedDB'), h('dd', null, formatBytes(idb))] : null,
        h('dt', null, 'Quota'),
        h('dd', null, formatBytes(quota)),
        h('dt', null, 'Persistent'),
        h('dd', { class: persisted ? 'yes' : 'no' }, persisted ? 'yes' : 'no'),
      ),
      h('meter', {
        min: 0,
        max: Math.max(1, quota),
        value: usage,
        'aria-label': 'Share of the storage quota used',
        title: quota > 0 ? `${((usage / quota) * 100).toFixed(3)}% of the quota` : '',
      }),
    );
    this.request.hidden = persisted || !storage.persist;
    if (!this.note.textContent) {
      this.hint.textContent = persisted
        ? 'The browser will not evict this data without asking.'
        : 'Best effort: the browser may evict this data when the disk runs low.';
    }
  }

  private async persist(): Promise<void> {
    this.request.disabled = true;
    try {
      const granted = await navigator.storage.persist();
      this.note.textContent = granted
        ? 'Granted: the browser will not evict this data without asking.'
        : 'Declined: browsers grant it to bookmarked, installed or often-used sites.';
    } catch (error) {
      this.note.textContent = `The request failed: ${String(error)}`;
    } finally {
      this.request.disabled = false;
      await this.refresh();
    }
  }
}
