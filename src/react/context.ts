/** The store the hooks below a provider read and write. */
import { createContext, createElement, type ReactNode, useContext } from 'react';
import type { AppendStore, LiveStore } from '../index.js';

/** Any store: the in-thread service, a worker client, or what `openSessionStore` returns. */
export type ReactStore = LiveStore & AppendStore;

const StoreContext = createContext<ReactStore | null>(null);

/** The props of `SessionStoreProvider`. */
export interface SessionStoreProviderProps {
  /** The store the hooks below use; the app opens and closes it. */
  store: ReactStore;
  /** What the store is provided to. */
  children?: ReactNode;
}

/** Makes `store` the one the hooks below use. The provider never opens or closes it: the app owns its lifetime. */
export function SessionStoreProvider({ store, children }: SessionStoreProviderProps): ReactNode {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** The store of the nearest `SessionStoreProvider`; throws outside one. */
export function useSessionStore(): ReactStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('idb-adk-sessions/react: wrap the component in <SessionStoreProvider store={store}>');
  return store;
}
