/**
 * The React hooks in a real browser, under React 19's strict mode and its
 * concurrent renderer (`createRoot`). The store is a worker client, as in an
 * app; a second client is another tab writing. Commits are counted with
 * `<Profiler>`: what a user sees as renders.
 */
import { createElement, Profiler, type ReactNode, StrictMode, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, type Session, StaleSessionError, StoreClosedError } from '../../src/index.js';
import {
  type ReactStore,
  SessionStoreProvider,
  useAppendEvent,
  useAppState,
  useDrafts,
  useSession,
  useSessions,
  useUserState,
} from '../../src/react/index.js';
import { makeEvent } from '../contract/contract.js';
import { recordingStore } from '../live/helpers.js';
import { cleanupAfterEach, twoTabs } from './helpers.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 's1' };

const cleanup = cleanupAfterEach();
const tabs = () => twoTabs('react', cleanup);

/** Mounts `children` under strict mode and a provider; counts the commits of what is inside `<Profiler>`. */
function mount(store: ReactStore, children: ReactNode): { root: Root; container: HTMLElement; commits: () => number } {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  let commits = 0;
  root.render(
    createElement(
      StrictMode,
      null,
      createElement(
        SessionStoreProvider,
        { store },
        createElement(Profiler, { id: 'watched', onRender: () => commits++ }, children),
      ),
    ),
  );
  cleanup.push(() => {
    root.unmount();
    container.remove();
  });
  return { root, container, commits: () => commits };
}

function SessionView(): ReactNode {
  const { status, value } = useSession(key);
  if (status !== 'ready') return status;
  if (!value) return 'none';
  return `${value.events.length} events; name=${String(value.state['user:name'] ?? '-')}; topic=${String(value.state['app:topic'] ?? '-')}`;
}

describe('React hooks', () => {
  it('useSession: the session, then a 100-event burst from another tab in a handful of renders', async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const { container, commits } = mount(reader, createElement(SessionView));
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=-');
    const before = commits();
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => writer.appendEvent({ session, event: makeEvent({ id: `b-${i}` }) })),
    );
    await expect.poll(() => container.textContent).toBe('100 events; name=-; topic=-');
    expect(commits() - before).toBeLessThanOrEqual(3);
  });

  it('useSession: 100 appends made one after another by another tab reach it in fewer renders than appends', async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const { container, commits } = mount(reader, createElement(SessionView));
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=-');
    const before = commits();
    for (let i = 0; i < 100; i++) await writer.appendEvent({ session, event: makeEvent({ id: `s-${i}` }) });
    await expect.poll(() => container.textContent).toBe('100 events; name=-; topic=-');
    const renders = commits() - before;
    // The figure the README quotes; how far below 100 it lands depends on the machine, so only the bound is asserted.
    console.info(`renders for 100 sequential appends from another tab: ${renders}`);
    expect(renders).toBeLessThan(100);
  });

  it('renders nothing for changes to other sessions, users or apps that leave it unchanged', async () => {
    const { reader, writer } = tabs();
    const mine = await writer.createSession(key);
    const other = await writer.createSession({ ...key, sessionId: 's2' });
    const bobs = await writer.createSession({ ...key, userId: 'bob', sessionId: 's3' });
    const elsewhere = await writer.createSession({ ...key, appName: 'mail' });
    const { container, commits } = mount(reader, createElement(SessionView));
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=-');
    const before = commits();
    for (let i = 0; i < 10; i++) {
      await writer.appendEvent({ session: other, event: makeEvent({ stateDelta: { own: i } }) });
      await writer.appendEvent({ session: bobs, event: makeEvent({ stateDelta: { 'user:name': `Bob ${i}` } }) });
      await writer.appendEvent({ session: elsewhere, event: makeEvent({ stateDelta: { 'app:topic': i } }) });
    }
    // Long enough for every one of those changes to have been heard and checked.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(commits() - before).toBe(0);
    await writer.appendEvent({ session: bobs, event: makeEvent({ stateDelta: { 'app:topic': 'billing' } }) });
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=billing');
    await writer.appendEvent({ session: mine, event: makeEvent({ stateDelta: { 'user:name': 'Ada' } }) });
    await expect.poll(() => container.textContent).toBe('1 events; name=Ada; topic=billing');
    expect(commits() - before).toBe(2);
  });

  it('useSessions, useUserState and useAppState follow writes from another tab', async () => {
    const { reader, writer } = tabs();
    function Overview(): ReactNode {
      const sessions = useSessions({ appName: 'chat', userId: 'ada', order: 'desc' });
      const user = useUserState({ appName: 'chat', userId: 'ada' });
      const app = useAppState({ appName: 'chat' });
      const ids = sessions.value?.sessions.map((s) => s.id).join(',') ?? '…';
      return `${ids} | ${JSON.stringify(user.value ?? null)} | ${JSON.stringify(app.value ?? null)}`;
    }
    const { container } = mount(reader, createElement(Overview));
    await expect.poll(() => container.textContent).toBe(' | {} | {}');
    const first = await writer.createSession({ ...key, sessionId: 'first' });
    await writer.createSession({ ...key, sessionId: 'second' });
    await expect.poll(() => container.textContent).toBe('second,first | {} | {}');
    await writer.appendEvent({
      session: first,
      event: makeEvent({ timestamp: Date.now() + 60_000, stateDelta: { 'user:name': 'Ada', 'app:n': 1 } }),
    });
    await expect.poll(() => container.textContent).toBe('first,second | {"name":"Ada"} | {"n":1}');
  });

  it("useDrafts: another tab's reply grows as it streams and leaves when finished, its event then in useSession", async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    function Reply(): ReactNode {
      const drafts = useDrafts(key);
      const events = useSession(key).value?.events.length ?? 0;
      const text = drafts.value?.map((d) => d.content.parts?.map((p) => p.text).join('')).join('|') ?? '…';
      return `${text} (${events} events)`;
    }
    const { container } = mount(reader, createElement(Reply));
    await expect.poll(() => container.textContent).toBe(' (0 events)');
    const draft = await writer.drafts.begin({ session, maxLossMs: 0 });
    draft.append({ text: 'Hello' });
    await expect.poll(() => container.textContent).toBe('Hello (0 events)');
    draft.append({ text: ', Ada' });
    await expect.poll(() => container.textContent).toBe('Hello, Ada (0 events)');
    await draft.finish();
    await expect.poll(() => container.textContent).toBe(' (1 events)');
  });

  it("useSession with drafts: another tab's reply beside the events, each render showing it once: as a draft or as its event", async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const rendered: string[] = [];
    function Chat(): ReactNode {
      const { value } = useSession(key, { drafts: true });
      const line = (parts: { text?: string }[] | undefined) => parts?.map((p) => p.text).join('') ?? '';
      const shown = value
        ? [
            ...value.events.map((e) => `event:${line(e.content?.parts)}`),
            ...value.drafts.map((d) => `draft:${line(d.content.parts)}`),
          ].join('|')
        : '…';
      rendered.push(shown);
      return shown;
    }
    const { container } = mount(reader, createElement(Chat));
    await expect.poll(() => container.textContent).toBe('');
    const draft = await writer.drafts.begin({ session });
    draft.append({ text: 'Hello' });
    await expect.poll(() => container.textContent).toBe('draft:Hello');
    draft.append({ text: ', Ada' });
    await expect.poll(() => container.textContent).toBe('draft:Hello, Ada');
    await draft.finish();
    await expect.poll(() => container.textContent).toBe('event:Hello, Ada');
    const from = rendered.findIndex((r) => r.startsWith('draft:'));
    for (const shown of rendered.slice(from)) expect(shown.split('|')).toHaveLength(1);
  });

  it('useAppendEvent: when another tab moved the session on, re-reads, rebuilds from the fresh state, retries', async () => {
    const { reader, writer } = tabs();
    const shared = await writer.createSession({ ...key, state: { count: 0 } });
    let append: ReturnType<typeof useAppendEvent> | undefined;
    function Counter(): ReactNode {
      append = useAppendEvent(key);
      const { value } = useSession(key);
      return `count=${String(value?.state.count ?? '…')}`;
    }
    const { container } = mount(reader, createElement(Counter));
    await expect.poll(() => container.textContent).toBe('count=0');
    const increment = (session: Session) => makeEvent({ stateDelta: { count: (session.state.count as number) + 1 } });
    await append?.(increment);
    await expect.poll(() => container.textContent).toBe('count=1');
    // Another tab writes: the hook's copy is now stale.
    await writer
      .getSession(key)
      .then((s) => writer.appendEvent({ session: s as Session, event: increment(s as Session) }));
    await append?.(increment);
    await expect.poll(() => container.textContent).toBe('count=3');
    const stored = await reader.getSession(key);
    expect(stored?.events.map((e) => e.actions?.stateDelta)).toEqual([{ count: 1 }, { count: 2 }, { count: 3 }]);
    expect(shared.id).toBe('s1');
  });

  it('useAppendEvent passes StaleSessionError on once its attempts are used up, storing nothing', async () => {
    const { reader, writer } = tabs();
    await writer.createSession(key);
    let append: ReturnType<typeof useAppendEvent> | undefined;
    function Writer(): ReactNode {
      append = useAppendEvent(key, { attempts: 1 });
      return 'ready';
    }
    const { container } = mount(reader, createElement(Writer));
    await expect.poll(() => container.textContent).toBe('ready');
    await append?.(makeEvent({ id: 'mine-1' }));
    const theirs = (await writer.getSession(key)) as Session;
    await writer.appendEvent({ session: theirs, event: makeEvent({ id: 'theirs' }) });
    await expect(append?.(makeEvent({ id: 'mine-2' }))).rejects.toBeInstanceOf(StaleSessionError);
    expect((await reader.getSession(key))?.events.map((e) => e.id)).toEqual(['mine-1', 'theirs']);
  });

  it('keeps one query across renders when the request is written inline', async () => {
    const { reader, writer } = tabs();
    await writer.createSession(key);
    const { store, reads } = recordingStore(reader);
    let rerender: (n: number) => void = () => {};
    function Inline(): ReactNode {
      const [n, setN] = useState(0);
      rerender = setN;
      const { value } = useSession({ appName: 'chat', userId: 'ada', sessionId: 's1' });
      return `${n}: ${value?.id ?? '…'}`;
    }
    const { container } = mount({ ...store, appendEvent: reader.appendEvent.bind(reader) }, createElement(Inline));
    await expect.poll(() => container.textContent).toBe('0: s1');
    for (let i = 1; i <= 5; i++) {
      rerender(i);
      await expect.poll(() => container.textContent).toBe(`${i}: s1`);
    }
    expect(reads).toEqual(['getSession']);
  });

  it('shares one query among the components showing the same thing: one read per change, not one each', async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const { store, reads, subscriptions } = recordingStore(reader);
    const views = Array.from({ length: 5 }, (_, i) => createElement(SessionView, { key: i }));
    const { container, root } = mount({ ...store, appendEvent: reader.appendEvent.bind(reader) }, views);
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=-'.repeat(5));
    // One query for the five: one first read, or two when strict mode's second mount lands in a
    // later task than the first (a loaded machine), never one per component.
    const first = reads.length;
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(2);
    expect(subscriptions()).toBe(1);
    await writer.appendEvent({ session, event: makeEvent() });
    await expect.poll(() => container.textContent).toBe('1 events; name=-; topic=-'.repeat(5));
    expect(reads).toHaveLength(first + 1);
    root.render(null);
    await expect.poll(subscriptions).toBe(0);
  });

  it("useSession reports 'closed' with a StoreClosedError once its store is closed, keeping the last value", async () => {
    const { reader, writer } = tabs();
    await writer.createSession(key);
    let snapshot: ReturnType<typeof useSession> | undefined;
    function Watching(): ReactNode {
      snapshot = useSession(key);
      return createElement(SessionView);
    }
    const { container } = mount(reader, createElement(Watching));
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=-');
    await reader.close();
    await expect.poll(() => container.textContent).toBe('closed');
    expect(snapshot?.error).toBeInstanceOf(StoreClosedError);
    expect(snapshot?.value?.id).toBe('s1');
    // Read-only: the value is frozen, and a write given it refuses it before storing anything.
    expect(Object.isFrozen(snapshot?.value?.events)).toBe(true);
    await expect(
      writer.appendEvent({ session: snapshot?.value as Session, event: makeEvent() }),
    ).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('releases its queries on unmount: no subscription left, nothing read after', async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const { store, reads, subscriptions } = recordingStore(reader);
    const { container, root } = mount(
      { ...store, appendEvent: reader.appendEvent.bind(reader) },
      createElement(SessionView),
    );
    await expect.poll(() => container.textContent).toBe('0 events; name=-; topic=-');
    expect(subscriptions()).toBe(1);
    root.render(null);
    await expect.poll(subscriptions).toBe(0);
    const before = reads.length;
    await writer.appendEvent({ session, event: makeEvent() });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads.length).toBe(before);
  });
});
