/**
 * The app, user ("All users" or one) and session the inspector shows, each kept current with the store.
 * The session picker lists the newest `PAGE` sessions and offers the next ones on demand: an app's
 * thousands of sessions are never one list. A session opened from elsewhere (a search hit, the
 * app's `showSession`) stays selected though it is not among those listed (or not yet: the listing
 * may lag a session just created); only one found missing gives way to the newest.
 */
import { h } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { type Session, type SessionStore, watchSessions } from '../../index.js';
import { humanTime } from './format.js';
import { useLive, useRead } from './hooks.js';

/** What is selected; `userId` undefined: all users of the app. */
export interface Selection {
  appName: string | undefined;
  userId: string | undefined;
  session: { userId: string; sessionId: string } | undefined;
}

const onChange = (set: (value: string) => void) => (e: { currentTarget: HTMLSelectElement }) =>
  set(e.currentTarget.value);
const ALL = '';
/** The value of the session picker's last option, which lists `PAGE` more. */
const MORE = 'more';
const PAGE = 100;

export function Pickers(props: {
  store: SessionStore;
  selection: Selection;
  onSelect(selection: Selection): void;
  allowWrites: boolean;
  /** The selected session was read and does not exist (deleted, or never was). */
  missing: boolean;
}) {
  const { store, selection } = props;
  const { appName, userId } = selection;
  const apps = useRead(store, {}, () => store.listApps(), '');
  const users = useRead(
    store,
    appName === undefined ? undefined : { appName },
    () => store.listUsers({ appName: appName as string }),
    JSON.stringify([appName]),
  );
  const scope = JSON.stringify([appName, userId]);
  const [asked, setAsked] = useState({ scope, limit: PAGE });
  const limit = asked.scope === scope ? asked.limit : PAGE;
  const listing = useLive(
    () =>
      appName === undefined
        ? undefined
        : watchSessions(store, { appName, ...(userId === undefined ? {} : { userId }), order: 'desc', limit }),
    JSON.stringify([appName, userId, limit]),
  );
  const sessions: readonly Session[] = listing?.value?.sessions ?? [];
  const unlisted = (listing?.value?.totalItems ?? 0) - sessions.length;
  const [confirming, setConfirming] = useState(false);

  const listedApps = apps.value?.map((a) => a.appName) ?? [];
  // The app of a session shown before the apps are listed is named at once.
  const appNames = appName === undefined || listedApps.includes(appName) ? listedApps : [appName, ...listedApps];
  const current = selection.session;
  const sessionValue = current ? JSON.stringify([current.userId, current.sessionId]) : '';
  const listed = current && sessions.some((s) => s.userId === current.userId && s.id === current.sessionId);
  const picked = current !== undefined && !props.missing;
  const newest = sessions[0];
  // With "All users" a session is named with its user.
  const named = (user: string, id: string) => `${userId === undefined ? `${user} / ` : ''}${id}`;
  // The newest session is shown until one is picked, and when the picked one goes away; the first app until one is.
  // As the render commits (a layout effect): the session's read then starts without waiting for a frame.
  useLayoutEffect(() => {
    if (
      !picked &&
      listing?.status === 'ready' &&
      (newest?.id !== current?.sessionId || newest?.userId !== current?.userId)
    )
      props.onSelect({ ...selection, session: newest ? { userId: newest.userId, sessionId: newest.id } : undefined });
    else if (appName === undefined && appNames[0] !== undefined)
      props.onSelect({ appName: appNames[0], userId: undefined, session: undefined });
  });

  const remove = async () => {
    if (!confirming) return setConfirming(true);
    setConfirming(false);
    if (appName !== undefined && current)
      await store.deleteSession({ appName, userId: current.userId, sessionId: current.sessionId });
  };

  return h(
    'div',
    { class: 'pickers' },
    h(
      'label',
      null,
      'App',
      h(
        'select',
        {
          value: appName ?? '',
          onChange: onChange((v) => props.onSelect({ appName: v, userId: undefined, session: undefined })),
        },
        appNames.length === 0
          ? h('option', { value: '' }, '(no apps)')
          : appNames.map((name) => h('option', { key: name, value: name }, name)),
      ),
    ),
    h(
      'label',
      null,
      'User',
      h(
        'select',
        {
          value: userId ?? ALL,
          onChange: onChange((v) => props.onSelect({ appName, userId: v === ALL ? undefined : v, session: undefined })),
        },
        h('option', { value: ALL }, 'All users'),
        (users.value ?? []).map((u) =>
          h('option', { key: u.userId, value: u.userId }, `${u.userId} (${u.sessionCount})`),
        ),
      ),
    ),
    h(
      'label',
      null,
      'Session',
      h(
        'select',
        {
          value: sessionValue,
          onChange: onChange((v) => {
            if (v === MORE) return setAsked({ scope, limit: limit + PAGE });
            const [user, id] = JSON.parse(v) as [string, string];
            props.onSelect({ ...selection, session: { userId: user, sessionId: id } });
          }),
        },
        sessions.length === 0 ? h('option', { value: '' }, '(no sessions)') : null,
        sessions.map((s) =>
          h(
            'option',
            { key: `${s.userId}/${s.id}`, value: JSON.stringify([s.userId, s.id]) },
            `${named(s.userId, s.id)} · ${humanTime(s.lastUpdateTime)}`,
          ),
        ),
        picked && !listed ? h('option', { value: sessionValue }, named(current.userId, current.sessionId)) : null,
        unlisted > 0 ? h('option', { value: MORE }, `${unlisted} older: list ${Math.min(PAGE, unlisted)} more…`) : null,
      ),
    ),
    props.allowWrites && current
      ? h(
          'button',
          { type: 'button', class: confirming ? 'danger' : '', onClick: remove, onBlur: () => setConfirming(false) },
          confirming ? 'Confirm delete' : 'Delete session',
        )
      : null,
  );
}
