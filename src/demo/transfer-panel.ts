/**
 * Export and Import: the one place the demo uses the transfer API
 * (`exportSessionsToBlob`, `importSessions`). Export saves the selected app or
 * user (or everything) as a JSON file; Import reads a file picked or dropped on
 * the page, shows progress, and shows a bad file's error plainly.
 */
import { exportSessionsToBlob, importSessions } from '../index.js';
import type { Inspector } from './context.js';
import { type ExportChoice, exportDialog } from './dialogs.js';
import { h } from './dom.js';
import { formatBytes, formatCount } from './format.js';

function fileName(appName: string | undefined, userId: string | undefined): string {
  const stamp = new Date().toISOString().replace(/[:]/g, '').replace(/\..*/, '');
  const scope = [appName ?? 'all-apps', userId].filter(Boolean).join('-');
  return `adk-sessions-${scope}-${stamp}.json`.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export class TransferPanel {
  readonly exportButton = h('button', { type: 'button' }, 'Export');
  readonly importButton = h('button', { type: 'button' }, 'Import');
  private readonly picker = h('input', {
    type: 'file',
    accept: '.json,application/json',
    hidden: true,
    tabindex: -1,
    'aria-hidden': 'true',
  });

  constructor(private readonly inspector: Inspector) {
    this.exportButton.addEventListener('click', () => void this.chooseExport());
    this.importButton.addEventListener('click', () => this.picker.click());
    this.picker.addEventListener('change', () => {
      const file = this.picker.files?.[0];
      this.picker.value = '';
      if (file) void this.import(file);
    });
    document.body.append(this.picker);
    this.acceptDrops();
  }

  /** Offers the selected user, the selected app and everything, narrowest first. */
  private async chooseExport(): Promise<void> {
    const { store } = this.inspector;
    const { app, user } = this.inspector.selection();
    try {
      const count = async (appName: string, userId?: string) =>
        (await store.listSessions({ appName, ...(userId !== undefined ? { userId } : {}), limit: 0 })).totalItems;
      const apps = await store.listApps();
      const choices: ExportChoice[] = [];
      if (app && user)
        choices.push({ label: `User ${user} in ${app}`, count: await count(app, user), appName: app, userId: user });
      if (app) choices.push({ label: `App ${app}`, count: await count(app), appName: app });
      choices.push({
        label: `Everything (${apps.length} app${apps.length === 1 ? '' : 's'})`,
        count: apps.reduce((n, a) => n + a.sessionCount, 0),
      });
      exportDialog(choices, (choice) => void this.export(choice.appName, choice.userId));
    } catch (error) {
      this.inspector.status.error('Export failed', error);
    }
  }

  async export(app: string | undefined, user: string | undefined): Promise<void> {
    const task = this.inspector.status.task('Export');
    this.exportButton.disabled = true;
    try {
      const blob = await exportSessionsToBlob(this.inspector.store, {
        ...(app ? { appName: app } : {}),
        ...(app && user ? { userId: user } : {}),
        onProgress: (p) =>
          task.progress(
            p.sessions,
            p.totalSessions,
            `${formatCount(p.sessions)} of ${formatCount(p.totalSessions)} sessions`,
          ),
      });
      const url = URL.createObjectURL(blob);
      const name = fileName(app, user);
      const link = h('a', { href: url, download: name, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      task.finish(`Exported ${name} (${formatBytes(blob.size)}).`);
    } catch (error) {
      task.fail('Export failed', error);
    } finally {
      this.exportButton.disabled = false;
    }
  }

  async import(file: File): Promise<void> {
    const task = this.inspector.status.task(`Import ${file.name}`);
    this.importButton.disabled = true;
    try {
      // Sessions already in the store are kept: importing the same file twice is harmless.
      const result = await importSessions(this.inspector.store, file, {
        onConflict: 'skip',
        onProgress: (p) => {
          if (p.totalSessions === undefined) {
            const total = p.totalBytes ?? file.size;
            task.progress(p.bytes, total, `read ${formatBytes(p.bytes)} of ${formatBytes(total)}`);
          } else {
            task.progress(
              p.sessions,
              p.totalSessions,
              `${formatCount(p.sessions)} of ${formatCount(p.totalSessions)} sessions`,
            );
          }
        },
      });
      const skipped = result.skipped > 0 ? `; ${formatCount(result.skipped)} already existed and were skipped` : '';
      task.finish(
        `Imported ${formatCount(result.sessions)} sessions and ${formatCount(result.events)} events from ${file.name}${skipped}.`,
      );
    } catch (error) {
      task.fail(`Import failed: ${file.name} was not imported`, error);
    } finally {
      this.importButton.disabled = false;
    }
  }

  private acceptDrops(): void {
    const hasFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;
    let depth = 0;
    const root = document.documentElement;
    window.addEventListener('dragenter', (event) => {
      if (!hasFiles(event)) return;
      depth++;
      root.classList.add('dropping');
    });
    window.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) root.classList.remove('dropping');
    });
    window.addEventListener('dragover', (event) => {
      if (hasFiles(event)) event.preventDefault();
    });
    window.addEventListener('drop', (event) => {
      if (!hasFiles(event)) return;
      depth = 0;
      root.classList.remove('dropping');
      // Taken already: files dropped on a session's timeline are attachments, not an import.
      if (event.defaultPrevented) return;
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file) void this.import(file);
    });
  }
}
