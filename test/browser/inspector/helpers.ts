/**
 * What the inspector's browser tests share: a store with an agent's session in
 * it (a user message, a tool call and its result, a confirmation, an error,
 * state in every scope), and the inspector mounted on it as a user does.
 */
import type { SessionStore, Event as StoreEvent } from '../../../src/index.js';
import { openSessionStore } from '../../../src/index.js';
import { type InspectorHandle, type InspectorOptions, mountInspector } from '../../../src/inspector/index.js';
import { deleteDatabase, uniqueDbName } from '../helpers.js';

declare module 'vitest' {
  /** From vite.config.ts: whether the layout test writes the docs' screenshots (`UPDATE_SCREENSHOTS=1`). */
  export interface ProvidedContext {
    updateScreenshots: boolean;
  }
}

export const APP = 'travel';
export const T0 = Date.UTC(2026, 10, 26, 9, 0, 0);

let n = 0;
export function event(over: Partial<StoreEvent> & { at: number }): StoreEvent {
  const { at, ...rest } = over;
  n += 1;
  return { id: `ev-${n}`, invocationId: 'inv-a', author: 'user', timestamp: T0 + at, ...rest };
}

/** One agent turn and a second one: what a developer inspects. */
export function agentTurns(): StoreEvent[] {
  return [
    event({ at: 0, content: { role: 'user', parts: [{ text: 'Book a flight to Lisbon' }] } }),
    event({
      at: 400,
      author: 'planner',
      content: {
        role: 'model',
        parts: [{ functionCall: { id: 'call-1', name: 'search_flights', args: { to: 'LIS' } } }],
      },
      actions: { stateDelta: { destination: 'LIS', 'user:home': 'BER', 'app:searches': 1 } },
    }),
    event({
      at: 1650,
      author: 'planner',
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'call-1', name: 'search_flights', response: { count: 3 } } }],
      },
      actions: { stateDelta: { destination: 'LIS', flights: 3 } },
    }),
    event({
      at: 1700,
      author: 'planner',
      content: {
        role: 'model',
        parts: [{ functionCall: { id: 'call-2', name: 'adk_request_confirmation', args: { tool: 'book' } } }],
      },
    }),
    event({ at: 2000, invocationId: 'inv-b', content: { role: 'user', parts: [{ text: 'yes, book it' }] } }),
    event({
      at: 2600,
      invocationId: 'inv-b',
      author: 'planner',
      errorCode: 'RESOURCE_EXHAUSTED',
      errorMessage: 'quota',
      actions: { stateDelta: { destination: 'OPO', 'app:searches': 2 } },
    }),
  ];
}

export interface Fixture {
  store: SessionStore;
  dbName: string;
  mount(options?: InspectorOptions): InspectorHandle;
  cleanup(): Promise<void>;
}

export async function storeWith(
  sessions: { userId: string; sessionId: string; events: StoreEvent[] }[],
): Promise<Fixture> {
  const dbName = uniqueDbName('inspector');
  const store = openSessionStore({ dbName, mode: 'in-thread' });
  for (const { userId, sessionId, events } of sessions) {
    const session = await store.createSession({ appName: APP, userId, sessionId });
    await store.appendEvents({ session, events });
  }
  const handles: InspectorHandle[] = [];
  return {
    store,
    dbName,
    mount(options) {
      const handle = mountInspector(store, options);
      handles.push(handle);
      return handle;
    },
    async cleanup() {
      for (const handle of handles) handle.destroy();
      await store.close();
      await deleteDatabase(dbName);
    },
  };
}

/** The inspector's shadow root (open: tests and devtools can reach it). */
export function shadow(): ShadowRoot {
  const host = document.querySelector('[data-idb-adk-inspector]');
  if (!host?.shadowRoot) throw new Error('no inspector on the page');
  return host.shadowRoot;
}

export const q = <E extends Element = HTMLElement>(selector: string): E | null => shadow().querySelector<E>(selector);
export const qa = <E extends Element = HTMLElement>(selector: string): E[] => [
  ...shadow().querySelectorAll<E>(selector),
];

/** The texts of the event rows now in the DOM. */
export const rowTexts = (): string[] => qa('.rows .ev').map((b) => b.textContent ?? '');

/** A button of the inspector by its accessible text. */
export function button(name: string): HTMLButtonElement {
  const found = qa<HTMLButtonElement>('button').find((b) => (b.getAttribute('aria-label') ?? b.textContent) === name);
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

/** A form control by its label's text (the label wraps it). */
export function control<E extends HTMLElement>(label: string): E {
  const found = qa('label').find((l) => l.firstChild?.textContent?.trim() === label);
  const inner = found?.querySelector('select, input');
  if (!inner) throw new Error(`no control "${label}"`);
  return inner as E;
}

/** Types `value` into the text box labelled `label`, as a user's typing ends: the value, then an input event. */
export function typeInto(label: string, value: string): void {
  const box = control<HTMLInputElement>(label);
  box.value = value;
  box.dispatchEvent(new Event('input', { bubbles: true }));
}

export function choose(label: string, value: string): void {
  const select = control<HTMLSelectElement>(label);
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}
