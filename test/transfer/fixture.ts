/** Data and helpers shared by the Node and browser export/import tests. */
import { type Event, exportSessions, type SessionService, type TransferSource } from '../../src/index.js';

let clock = 1_800_000_000_000;

/** A full ADK-shaped event; `at` fixes the timestamp (to make ties). */
export function event(id: string, delta: Record<string, unknown>, at?: number): Event {
  clock += 1;
  return {
    id,
    invocationId: `inv-${id}`,
    author: id.endsWith('u') ? 'user' : 'agent',
    timestamp: at ?? clock,
    content: {
      role: id.endsWith('u') ? 'user' : 'model',
      parts: [{ text: `text of ${id}: ünïcødé ✓ "quoted" <b>not html</b>` }],
    },
    actions: {
      stateDelta: delta,
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    },
    turnComplete: true,
    customMetadata: { unknownFieldsSurvive: [1, null, { deep: 'yes' }] },
  };
}

/**
 * Two apps, three users, five sessions with events whose deltas touch every
 * scope (temp: included), `__proto__` keys, tied timestamps and an empty session.
 */
export async function seed(store: SessionService): Promise<void> {
  const a1 = await store.createSession({ appName: 'chat', userId: 'ada', sessionId: 's1', state: { topic: 'math' } });
  await store.appendEvent({ session: a1, event: event('a1-1u', { 'user:name': 'Ada', 'temp:scratch': 1 }) });
  await store.appendEvent({ session: a1, event: event('a1-2a', { 'app:greeting': 'hi', step: 1 }) });
  const proto = JSON.parse('{"__proto__": {"polluted": true}, "user:__proto__": {"x": 1}, "app:constructor": 2}');
  await store.appendEvent({ session: a1, event: event('a1-3a', proto) });
  const a2 = await store.createSession({ appName: 'chat', userId: 'ada', sessionId: 's2' });
  const tie = clock + 1;
  await store.appendEvent({ session: a2, event: event('a2-1u', { step: 1 }, tie) });
  await store.appendEvent({ session: a2, event: event('a2-2a', { step: 2, nil: null }, tie) });
  await store.appendEvent({ session: a2, event: event('a2-3a', { list: [1, 2, 3] }, tie - 5) });
  const b1 = await store.createSession({ appName: 'chat', userId: 'bob', sessionId: 's1' });
  await store.appendEvent({ session: b1, event: event('b1-1u', { 'user:name': 'Bob', 'app:count': 3 }) });
  await store.createSession({ appName: 'chat', userId: 'bob', sessionId: 'empty', state: { 'user:tz': 'UTC' } });
  const c1 = await store.createSession({ appName: 'aardvark', userId: 'cy', sessionId: 'c1' });
  await store.appendEvent({ session: c1, event: event('c1-1u', { 'app:zoo': true }) });
}

/** A whole export as text, with a fixed `exportedAt` so that two exports compare byte for byte. */
export function exportText(
  store: TransferSource,
  options: { appName?: string; userId?: string } = {},
): Promise<string> {
  return new Response(exportSessions(store, { ...options, exportedAt: 0 })).text();
}

/** A bare array of sessions, the file's content without the document around it. */
export async function exportedSessions(store: TransferSource): Promise<Record<string, unknown>[]> {
  return JSON.parse(await exportText(store)).sessions;
}
