// Compiled by the package test under moduleResolution "bundler" and "node16": the
// published declarations must resolve and type a user's ordinary calls.

import {
  connectSessionStore,
  IndexedDbSessionService,
  openSessionStore,
  type Session,
  type SessionStore,
  StaleSessionError,
  type StoreClosedError,
} from 'idb-adk-sessions';
import { AdkSessionService } from 'idb-adk-sessions/adk';
import { type ChatPersistence, chatTitle, eventToMessage, messageToEvent, persistChat } from 'idb-adk-sessions/ai-sdk';
import { type StoredChat, useChatInStep, useStoredChat } from 'idb-adk-sessions/ai-sdk/react';
import { type InspectorHandle, mountInspector } from 'idb-adk-sessions/inspector';
import { SessionInspector, type SessionInspectorProps } from 'idb-adk-sessions/inspector/react';
import { type LiveSnapshot, SessionStoreProvider, useAppendEvent, useSession } from 'idb-adk-sessions/react';
import { adkBrowser } from 'idb-adk-sessions/vite';

const store: SessionStore = openSessionStore({ dbName: 'typed', mode: 'dedicated', worker: '/store-worker.js' });
const inThread = new IndexedDbSessionService({ dbName: 'typed' });
export const plugin: { name: string } = adkBrowser();
export async function typed(): Promise<number> {
  const session: Session = await store.getOrCreateSession({ appName: 'a', userId: 'u' });
  const adk = new AdkSessionService(inThread);
  const again = await adk.getSession({ appName: 'a', userId: 'u', sessionId: session.id });
  return (again?.events.length ?? 0) + (new StaleSessionError('x') instanceof Error ? 1 : 0);
}

/** The lifecycle the README tells apps to rely on, on every way of getting a store (in-thread once lacked it). */
export async function lifecycle(port: MessagePort): Promise<boolean> {
  const stores: SessionStore[] = [
    openSessionStore({ mode: 'in-thread' }),
    openSessionStore(),
    connectSessionStore(port),
    inThread,
  ];
  for (const s of stores) {
    await s.ready;
    const stop: () => void = s.onClose((error: StoreClosedError) => console.warn(error.message));
    stop();
  }
  const store = openSessionStore();
  store.onClose(() => {});
  await store.ready;
  return store.closed;
}

/** A component's ordinary calls of the React subpath. */
export function useTyped(sessionId: string): { title: string; snapshot: LiveSnapshot<Session | undefined> } {
  const snapshot = useSession({ appName: 'a', userId: 'u', sessionId });
  const append = useAppendEvent({ appName: 'a', userId: 'u', sessionId });
  void append((session) => ({ id: 'e', invocationId: 'i', author: 'user', timestamp: session.lastUpdateTime + 1 }));
  const status: 'loading' | 'ready' | 'error' | 'closed' = snapshot.status;
  return { title: `${status}: ${snapshot.value?.events.length ?? 0}`, snapshot };
}
export const provider = SessionStoreProvider({ store, children: null });

/** The AI SDK subpath: a message to an event and back, and the chat helper over a store. */
export const chat: ChatPersistence = persistChat(store, { appName: 'a', userId: 'u', sessionId: 'c' });
export const roundTrip: string = eventToMessage(
  messageToEvent({ id: 'm', role: 'user', parts: [{ type: 'text', text: 'hi' }] }),
).role;

/** The AI SDK's React subpath: a stored chat by id, kept in step with what useChat shows. */
export function useTypedChat(sessionId: string): StoredChat {
  const transport = chat.transport({
    sendMessages: async () => new ReadableStream(),
    reconnectToStream: async () => null,
  });
  const stored = useStoredChat({ appName: 'a', userId: 'u', sessionId }, { transport });
  useChatInStep(stored, { id: stored.id, messages: stored.messages, status: 'ready', setMessages: () => {} });
  void (stored.title ?? chatTitle({ state: {} }));
  return stored;
}

/** The inspector subpaths: mounted on a store for any page, and as a React component. */
export const inspector: InspectorHandle = mountInspector(store, { position: 'right', allowWrites: false });
export const inspectorProps: SessionInspectorProps = { store, position: 'bottom' };
export const inspectorComponent: (props: SessionInspectorProps) => unknown = SessionInspector;
