/**
 * `idb-adk-sessions/react`: hooks that keep components in step with the store,
 * in this tab and others. React (`>=18`, tested with 19) is an optional peer
 * dependency: only this subpath loads it.
 *
 * @example
 * ```ts
 * <SessionStoreProvider store={store}><Chat /></SessionStoreProvider>
 * const { value: session } = useSession({ appName: 'chat', userId, sessionId });
 * ```
 */
export type { Appender, AppenderOptions, AppendInput } from '../live/appender.js';
export type { LiveOptions, LiveSnapshot } from '../live/types.js';
export { type ReactStore, SessionStoreProvider, type SessionStoreProviderProps, useSessionStore } from './context.js';
export { useAppendEvent, useAppState, useDrafts, useSession, useSessions, useUserState } from './hooks.js';
