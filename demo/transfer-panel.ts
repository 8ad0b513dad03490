/**
 * Export and Import: the one place the demo uses the transfer API
 * (`exportSessionsToBlob`, `importSessions`, and with files `exportArchiveToBlob`,
 * `importArchive`). Export saves the selected app or user (or everything) as a
 * JSON file, or a .zip with the artifacts; Import reads either, picked or
 * dropped on the page, shows progress, and shows a bad file's error plainly.
 */
import { exportArchiveToBlob, exportSessionsToBlob, importArchive, importSessions } from '../src/index.js';
import type { DemoApp } from './context.js';
import { type ExportChoice, exportDialog } from './dialogs.js';
import { h } from './dom.js';
import { formatBytes, formatCount } from './format.js';

function fileName(appName: string | undefined, userId: string | undefined, extension: 'json' | 'zip'): string {
  const stamp = new Date().toISOString().replace(/[:]/g, '').replace(/\..*/, '');
  const scope = [appName ?? 'all-apps', userId].filter(Boolean).join('-');
  return `adk-sessions-${scope}-${stamp}.${extension}`.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** A zip starts with "PK": what the file is, whatever its name says. */
async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b;
}

export class TransferPanel {
  readonly exportButton = h('button', { type: 'button' }, 'Export');
  readonly importButton = h('button', { type: 'button' }, 'Import');
  private readonly picker = h('input', {
    type: 'file',
    accept: '.json,application/json,.zip,application/zip',
    hidden: true,
    tabindex: -1,
    'aria-hidden': 'true',
  });

  constructor(private readonly app: DemoApp) {
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
    const { store } = this.app;
    const { app, user } = this.app.selection();
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
      exportDialog(choices, (choice, withFiles) => void this.export(choice.appName, choice.userId, withFiles));
    } catch (error) {
      this.app.status.error('Export failed', error);
    }
  }

  async export(app: string | undefined, user: string | undefined, withFiles = false): Promise<void> {
    const task = this.app.status.task('Export');
    this.exportButton.disabled = true;
    try {
      const scope = { ...(app ? { appName: app } : {}), ...(app && user ? { userId: user } : {}) };
      const sessions = (p: { sessions: number; totalSessions: number }) =>
        `${formatCount(p.sessions)} of ${formatCount(p.totalSessions)} sessions`;
      const blob = withFiles
        ? await exportArchiveToBlob(this.app.store, {
            ...scope,
            onProgress: (p) =>
              task.progress(
                p.sessions,
                p.totalSessions,
                `${sessions(p)}, ${formatCount(p.artifacts)} files (${formatBytes(p.bytes)})`,
              ),
          })
        : await exportSessionsToBlob(this.app.store, {
            ...scope,
            onProgress: (p) => task.progress(p.sessions, p.totalSessions, sessions(p)),
          });
      const url = URL.createObjectURL(blob);
      const name = fileName(app, user, withFiles ? 'zip' : 'json');
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
    const task = this.app.status.task(`Import ${file.name}`);
    this.importButton.disabled = true;
    try {
      // Sessions already in the store are kept: importing the same file twice is harmless.
      const zip = await isZip(file);
      const result = await (zip ? importArchive : importSessions)(this.app.store, file, {
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
      const files = 'artifacts' in result ? ` and ${formatCount(result.artifacts as number)} files` : '';
      task.finish(
        `Imported ${formatCount(result.sessions)} sessions and ${formatCount(result.events)} events${files} from ${file.name}${skipped}.`,
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
