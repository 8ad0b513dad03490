/**
 * `idb-adk-sessions/inspector/react`: the inspector as a React component.
 * It mounts the inspector when it mounts and removes it when it unmounts; it
 * renders nothing of its own (the inspector lives in its own Shadow DOM host),
 * except with `position: 'full'`, where it renders the element the inspector fills.
 * React stays an optional peer dependency: only this subpath loads it.
 *
 * @example
 * ```ts
 * <SessionInspector store={store} />
 * ```
 */
import { createElement, type ReactElement, useEffect, useRef } from 'react';
import type { SessionStore } from '../index.js';
import { type InspectorHandle, type InspectorOptions, mountInspector } from './index.js';

/** The store to inspect and `mountInspector`'s options (`target` aside: the component places it). */
export interface SessionInspectorProps extends Omit<InspectorOptions, 'target'> {
  /** The store to inspect. */
  store: SessionStore;
  /** The class of the element a `'full'` inspector fills (give it a height). */
  className?: string;
}

/**
 * Mounts the inspector on `store` for as long as the component is mounted; a new store or option mounts it
 * again, except `initialSession`: a new one is shown in the inspector already mounted (`showSession`), its
 * filters and folds kept.
 */
export function SessionInspector(props: SessionInspectorProps): ReactElement | null {
  const { store, className, initialOpen, position, allowWrites, sync, theme, initialSession } = props;
  const place = useRef<HTMLDivElement>(null);
  const mounted = useRef<{ handle: InspectorHandle; sessionKey: string } | undefined>(undefined);
  const full = position === 'full';
  const sessionKey = initialSession ? JSON.stringify(initialSession) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the session it starts on is `initialSession` at mount; later ones are shown below.
  useEffect(() => {
    const handle = mountInspector(store, {
      ...(full && place.current ? { target: place.current } : {}),
      ...(initialOpen === undefined ? {} : { initialOpen }),
      ...(position === undefined ? {} : { position }),
      ...(allowWrites === undefined ? {} : { allowWrites }),
      ...(sync === undefined ? {} : { sync }),
      ...(theme === undefined ? {} : { theme }),
      ...(initialSession === undefined ? {} : { initialSession }),
    });
    mounted.current = { handle, sessionKey };
    return () => {
      mounted.current = undefined;
      handle.destroy();
    };
  }, [store, full, initialOpen, position, allowWrites, sync, theme]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `sessionKey` stands for `initialSession`'s value.
  useEffect(() => {
    const now = mounted.current;
    if (!now || now.sessionKey === sessionKey) return;
    now.sessionKey = sessionKey;
    if (initialSession) now.handle.showSession(initialSession);
  }, [sessionKey]);
  return full ? createElement('div', { ref: place, className }) : null;
}
