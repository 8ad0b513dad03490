/**
 * `idb-adk-sessions/inspector`: the session inspector mounted on the app's own
 * store, behind a toggle button, like a framework's devtools panel. This module
 * is all a page loads until the inspector is first opened: a Shadow DOM host and
 * a button. The inspector itself (its views and its renderer) is fetched with
 * `import()` on first open. Its styles are constructable stylesheets adopted by
 * the shadow root: the app's CSS never reaches it, it never reaches the app, and
 * a strict Content-Security-Policy (no `'unsafe-inline'`) needs no change.
 * Read-only unless `allowWrites` is set.
 *
 * @example
 * ```ts
 * const inspector = mountInspector(store);
 * ```
 */
import type { SessionStore } from '../index.js';
import { HOST_CSS } from './host-style.js';
import { InspectorLoadError } from './load-error.js';
import type { InspectorHandle, InspectorOptions } from './options.js';
import type { InspectorViews } from './ui/app.js';

export { InspectorLoadError } from './load-error.js';
export type {
  InspectorHandle,
  InspectorOptions,
  InspectorPosition,
  InspectorTheme,
} from './options.js';

// A failed load of the views is answered by `open()`; what waits on it besides does nothing.
const ignore = (): void => {};

const sheetOf = (css: string): CSSStyleSheet => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return sheet;
};

/**
 * Adds the inspector's button (and, when opened, its panel) to the page, on
 * `store`. Nothing of the inspector's views is loaded until it opens.
 */
export function mountInspector(store: SessionStore, options: InspectorOptions = {}): InspectorHandle {
  const position = options.position ?? 'bottom';
  const embedded = position === 'full' && options.target !== undefined;
  const host = document.createElement('div');
  host.dataset.idbAdkInspector = '';
  host.dataset.position = position;
  host.dataset.theme = options.theme ?? 'auto';
  if (embedded) host.dataset.embedded = '';
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [sheetOf(HOST_CSS)];

  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'toggle';
  button.textContent = 'Session inspector';
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.setAttribute('role', 'region');
  panel.setAttribute('aria-label', 'Session inspector');
  if (!embedded) root.append(button);
  root.append(panel);
  (options.target ?? document.body).append(host);

  let isOpen = false;
  // The one place the open state is set: the handle, the host's attribute (styles) and the button's.
  const setOpen = (open: boolean): void => {
    isOpen = open;
    host.toggleAttribute('data-open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  setOpen(false);
  let destroyed = false;
  let loading: Promise<InspectorViews> | undefined;
  let initialSession = options.initialSession;
  const handle: InspectorHandle = {
    get isOpen() {
      return isOpen;
    },
    async open() {
      if (destroyed) return;
      setOpen(true);
      loading ??= import('./ui/app.js').then(
        ({ renderInspector }) => {
          root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheetOf(renderInspector.css)];
          return renderInspector(panel, store, {
            position,
            allowWrites: options.allowWrites === true,
            sync: options.sync,
            initialSession,
            onClose: () => handle.close(),
          });
        },
        (error: unknown) => {
          throw new InspectorLoadError(error);
        },
      );
      // A failed fetch of the views (offline, a redeploy) rejects this open and closes the empty
      // panel, its button back for the next try.
      const views = await loading.catch((error: unknown) => {
        loading = undefined;
        handle.close();
        throw error;
      });
      if (destroyed) views.unmount();
    },
    close() {
      if (embedded) return;
      const hadFocus = panel.contains(root.activeElement);
      setOpen(false);
      if (hadFocus) button.focus();
    },
    showSession(session) {
      initialSession = session;
      loading?.then((views) => views.show(session), ignore);
    },
    toggle() {
      if (isOpen) {
        handle.close();
        return Promise.resolve();
      }
      return handle.open();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      setOpen(false);
      loading?.then((views) => views.unmount(), ignore);
      host.remove();
    },
  };
  button.addEventListener('click', () => handle.toggle().catch(ignore));
  if (options.initialOpen || embedded) void handle.open();
  return handle;
}
