/**
 * Type-level checks of the live queries, the React hooks and the AI SDK helper:
 * every store kind is accepted, snapshots narrow on `status`, and `persistChat`
 * and `useStoredChat` fit `useChat`'s own option and result types for the app's message type.
 */

import type { UseChatHelpers } from '@ai-sdk/react';
import type { ChatInit, ChatTransport, UIMessage } from 'ai';
import { from, type Observable } from 'rxjs';
import type { Readable } from 'svelte/store';
import { describe, expectTypeOf, it } from 'vitest';
import { type ChatPersistence, chatTitle, persistChat } from '../../src/ai-sdk/index.js';
import { type ChatInStep, type StoredChat, useChatInStep, useStoredChat } from '../../src/ai-sdk/react.js';
import type {
  IndexedDbSessionService,
  LiveQuery,
  LiveSnapshot,
  Session,
  SessionStore,
  SessionStoreClient,
  SessionWithDrafts,
  StoreClosedError,
  watchSession,
} from '../../src/index.js';
import { type ReactStore, useSession } from '../../src/react/index.js';

describe('live queries and hooks', () => {
  it('take every kind of store', () => {
    expectTypeOf<IndexedDbSessionService>().toExtend<ReactStore>();
    expectTypeOf<SessionStoreClient>().toExtend<ReactStore>();
    expectTypeOf<SessionStore>().toExtend<ReactStore>();
  });

  it('give snapshots whose value is known once ready', () => {
    const request = { appName: 'a', userId: 'u', sessionId: 's' };
    expectTypeOf(useSession(request)).toEqualTypeOf<LiveSnapshot<Session | undefined>>();
    expectTypeOf(useSession(request, { drafts: true })).toEqualTypeOf<LiveSnapshot<SessionWithDrafts | undefined>>();
    const watch = {} as typeof watchSession;
    expectTypeOf(watch({} as SessionStore, request, { drafts: true }).getSnapshot()).toEqualTypeOf<
      LiveSnapshot<SessionWithDrafts | undefined>
    >();
    // A flag known only at run time: either shape.
    const flag = { drafts: request.sessionId.length > 1 };
    expectTypeOf(useSession(request, flag)).toEqualTypeOf<LiveSnapshot<Session | SessionWithDrafts | undefined>>();
    expectTypeOf(watch({} as SessionStore, request, flag).getSnapshot()).toEqualTypeOf<
      LiveSnapshot<Session | SessionWithDrafts | undefined>
    >();
    const snapshot = watch({} as SessionStore, request).getSnapshot();
    if (snapshot.status === 'ready') expectTypeOf(snapshot.value).toEqualTypeOf<Session | undefined>();
    if (snapshot.status === 'loading') expectTypeOf(snapshot.value).toEqualTypeOf<undefined>();
    if (snapshot.status === 'closed') expectTypeOf(snapshot.error).toEqualTypeOf<StoreClosedError>();
  });

  it('are Svelte stores and RxJS inputs of snapshots, with no binding package', () => {
    type Query = LiveQuery<Session | undefined>;
    expectTypeOf<Query>().toExtend<Readable<LiveSnapshot<Session | undefined>>>();
    expectTypeOf(from({} as Query)).toEqualTypeOf<Observable<LiveSnapshot<Session | undefined>>>();
  });
});

describe('persistChat', () => {
  it("fits useChat's options for the app's message type", () => {
    type Message = UIMessage<{ model: string }>;
    const chat = {} as ChatPersistence<Message>;
    expectTypeOf(chat.onFinish).toExtend<NonNullable<ChatInit<Message>['onFinish']>>();
    expectTypeOf(chat.transport).returns.toEqualTypeOf<ChatTransport<Message>>();
    expectTypeOf(chat.load).returns.resolves.toEqualTypeOf<Message[]>();
    expectTypeOf(persistChat<Message>).returns.toEqualTypeOf<ChatPersistence<Message>>();
  });
});

describe('useStoredChat and useChatInStep', () => {
  it("give what useChat takes and take what it returns, for the app's message type", () => {
    type Message = UIMessage<{ model: string }>;
    const stored = {} as StoredChat<Message>;
    expectTypeOf(useStoredChat<Message>).returns.toEqualTypeOf<StoredChat<Message>>();
    expectTypeOf(stored.transport).toEqualTypeOf<ChatTransport<Message>>();
    expectTypeOf(stored.onFinish).toExtend<NonNullable<ChatInit<Message>['onFinish']>>();
    expectTypeOf(stored.messages).toEqualTypeOf<Message[]>();
    expectTypeOf(stored.title).toEqualTypeOf<string | undefined>();
    expectTypeOf<UseChatHelpers<Message>>().toExtend<ChatInStep<Message>>();
    expectTypeOf(useChatInStep<Message>).parameters.toEqualTypeOf<[StoredChat<Message>, ChatInStep<Message>]>();
  });

  it('keep the title where listSessions gives it', () => {
    expectTypeOf(chatTitle).parameter(0).toExtend<{ state: Record<string, unknown> }>();
    expectTypeOf<Session>().toExtend<Parameters<typeof chatTitle>[0]>();
    expectTypeOf(chatTitle).returns.toEqualTypeOf<string | undefined>();
  });
});
