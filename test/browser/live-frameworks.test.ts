/**
 * Live queries in Svelte 5 and Vue 3 components with no binding package: a
 * Svelte component reads one as a store (`$session`), a Vue one through
 * `@vueuse/rxjs` over RxJS's `from`. Each follows another tab's appends,
 * releases the query when it goes away, and shows `'closed'` once its store is.
 */
import { useObservable } from '@vueuse/rxjs';
import { from } from 'rxjs';
import { flushSync, mount, unmount } from 'svelte';
import { describe, expect, it } from 'vitest';
import { createApp, defineComponent, h, type PropType } from 'vue';
import {
  type LiveQuery,
  type LiveStore,
  type Session,
  type SessionStoreClient,
  watchSession,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';
import { recordingStore } from '../live/helpers.js';
import LiveSession from './fixtures/LiveSession.svelte';
import { cleanupAfterEach, twoTabs } from './helpers.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 's1' };

const cleanup = cleanupAfterEach();
const tabs = () => twoTabs('frameworks', cleanup);

function container(): HTMLElement {
  const element = document.createElement('div');
  document.body.append(element);
  cleanup.push(() => element.remove());
  return element;
}

/** The recording wrapper keeps the client's onClose: closure reaches the query as in an app. */
function recorded(reader: SessionStoreClient) {
  const recording = recordingStore(reader);
  const store: LiveStore = { ...recording.store, onClose: reader.onClose.bind(reader) };
  return { ...recording, store };
}

describe('Svelte 5: a live query is a store', () => {
  it('renders the session, follows another tab, releases on destroy, and shows closed', async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const { store, subscriptions } = recorded(reader);
    const target = container();
    const component = mount(LiveSession, { target, props: { store, sessionId: 's1' } });
    flushSync();
    await expect.poll(() => target.textContent).toBe('ready: 0 events');
    await writer.appendEvent({ session, event: makeEvent() });
    await expect.poll(() => target.textContent).toBe('ready: 1 events');
    expect(subscriptions()).toBe(1);
    void unmount(component);
    expect(subscriptions()).toBe(0);

    const again = mount(LiveSession, { target, props: { store, sessionId: 's1' } });
    cleanup.push(() => void unmount(again));
    await expect.poll(() => target.textContent).toBe('ready: 1 events');
    await reader.close();
    await expect.poll(() => target.textContent).toBe('closed: 1 events (StoreClosedError)');
  });
});

describe('Vue 3: a live query through @vueuse/rxjs', () => {
  const View = defineComponent({
    props: { query: { type: Object as PropType<LiveQuery<Session | undefined>>, required: true } },
    setup(props) {
      const snapshot = useObservable(from(props.query));
      return () => {
        const { status, value } = snapshot.value ?? { status: '…', value: undefined };
        return h('p', `${status}: ${value?.events.length ?? '-'} events`);
      };
    },
  });

  it('renders the session, follows another tab, releases on unmount, and shows closed', async () => {
    const { reader, writer } = tabs();
    const session = await writer.createSession(key);
    const { store, subscriptions } = recorded(reader);
    const query = watchSession(store, key);
    const target = container();
    const app = createApp(View, { query });
    app.mount(target);
    await expect.poll(() => target.textContent).toBe('ready: 0 events');
    await writer.appendEvent({ session, event: makeEvent() });
    await expect.poll(() => target.textContent).toBe('ready: 1 events');
    expect(subscriptions()).toBe(1);
    app.unmount();
    expect(subscriptions()).toBe(0);

    const again = createApp(View, { query });
    again.mount(target);
    cleanup.push(() => again.unmount());
    await expect.poll(() => target.textContent).toBe('ready: 1 events');
    await reader.close();
    await expect.poll(() => target.textContent).toBe('closed: 1 events');
  });
});
