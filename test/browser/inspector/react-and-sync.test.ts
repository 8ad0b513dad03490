/**
 * The inspector's React component (mounts with the component, gone with it),
 * its sync panel fed by the app's sync handle, and its copy buttons.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import type { SyncHandle, SyncStatus, SyncStatusListener } from '../../../src/index.js';
import { SessionInspector } from '../../../src/inspector/react.js';
import { APP, agentTurns, button, type Fixture, q, qa, rowTexts, storeWith } from './helpers.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

it('<SessionInspector> mounts the inspector with the component and removes it with it', async () => {
  fixture = await storeWith([{ userId: 'ada', sessionId: 'trip', events: agentTurns() }]);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(createElement(SessionInspector, { store: fixture.store, initialOpen: true }));
  await expect.poll(() => document.querySelectorAll('[data-idb-adk-inspector]').length).toBe(1);
  await expect.poll(() => rowTexts().length).toBe(6);
  root.unmount();
  container.remove();
  expect(document.querySelectorAll('[data-idb-adk-inspector]').length).toBe(0);
});

it('<SessionInspector> shows a new initialSession in the inspector it mounted, not a new one', async () => {
  fixture = await storeWith([
    { userId: 'ada', sessionId: 'trip', events: agentTurns() },
    { userId: 'bob', sessionId: 'quiz', events: agentTurns().slice(0, 2) },
  ]);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const at = (userId: string, sessionId: string) =>
    createElement(SessionInspector, {
      store: fixture?.store as Fixture['store'],
      initialOpen: true,
      initialSession: { appName: APP, userId, sessionId },
    });
  root.render(at('ada', 'trip'));
  await expect.poll(() => rowTexts().length).toBe(6);
  const host = document.querySelector('[data-idb-adk-inspector]');
  root.render(at('bob', 'quiz'));
  await expect.poll(() => rowTexts().length).toBe(2);
  expect(document.querySelector('[data-idb-adk-inspector]')).toBe(host);
  root.unmount();
  container.remove();
});

/** A sync handle as `store.sync()` gives one, driven by the test. */
function fakeSync(first: SyncStatus): SyncHandle & { emit(status: SyncStatus): void } {
  const listeners = new Set<SyncStatusListener>();
  let status = first;
  return {
    get status() {
      return status;
    },
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    syncNow: async () => status,
    stop: async () => {},
    emit(next) {
      status = next;
      for (const listener of listeners) listener(next);
    },
  };
}

it('shows the status of the sync it is given, as it changes', async () => {
  fixture = await storeWith([{ userId: 'ada', sessionId: 'trip', events: agentTurns() }]);
  const base: SyncStatus = {
    phase: 'idle',
    online: true,
    pending: 2,
    sessions: { trip: 2 },
    refused: {},
    lastSyncAt: null,
    lastError: null,
  };
  const sync = fakeSync(base);
  await fixture.mount({ sync }).open();
  const fold = qa<HTMLDetailsElement>('details.fold').find((d) => d.querySelector('summary')?.textContent === 'Sync');
  if (fold) fold.open = true;
  const text = () => q('[aria-label="Sync status"]')?.textContent ?? '';
  await expect.poll(text).toBe('PhaseidleOnlineyesPending2Last syncnever');
  sync.emit({
    ...base,
    phase: 'offline',
    online: false,
    lastError: { message: 'server unreachable', kind: 'network', status: 0, at: Date.UTC(2026, 0, 2, 3, 4, 5) },
  });
  await expect
    .poll(text)
    .toMatch(/^PhaseofflineOnlinenoPending2Last syncneverLast errorserver unreachable \(2026-01-02 /);
});

it('copies an event, or any object in it, as JSON', async () => {
  fixture = await storeWith([{ userId: 'ada', sessionId: 'trip', events: agentTurns() }]);
  const copied: string[] = [];
  const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  });
  try {
    await fixture.mount().open();
    await expect.poll(() => rowTexts().length).toBe(6);
    qa('.rows .ev')[1]?.click();
    await expect.poll(() => q('.details h3')?.textContent).toBe('Event #2 of 6');
    button('Copy event as JSON').click();
    await expect.poll(() => copied.length).toBe(1);
    expect(JSON.parse(copied[0] as string).id).toBe(qa('.details dd')[0]?.textContent);
    expect(JSON.parse(copied[0] as string).actions.stateDelta).toEqual({
      destination: 'LIS',
      'user:home': 'BER',
      'app:searches': 1,
    });
    button('Copy actions as JSON').click();
    await expect.poll(() => copied.length).toBe(2);
    expect(JSON.parse(copied[1] as string)).toEqual({
      stateDelta: { destination: 'LIS', 'user:home': 'BER', 'app:searches': 1 },
    });
    await expect.poll(() => button('Copy actions as JSON').textContent).toBe('Copied');
  } finally {
    delete (navigator as { clipboard?: unknown }).clipboard;
    if (clipboard) Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
  }
});
