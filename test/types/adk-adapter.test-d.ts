/**
 * Type-level checks: ADK's request and data objects fit this package's public
 * types, and the `/adk` adapter is what a `Runner` takes.
 */
import type {
  AppendEventRequest as AdkAppendEventRequest,
  CreateSessionRequest as AdkCreateSessionRequest,
  DeleteSessionRequest as AdkDeleteSessionRequest,
  Event as AdkEvent,
  GetSessionRequest as AdkGetSessionRequest,
  ListSessionsRequest as AdkListSessionsRequest,
  ListSessionsResponse as AdkListSessionsResponse,
  Session as AdkSession,
  BaseSessionService,
  RunnerConfig,
  State,
} from '@google/adk';
import { describe, expectTypeOf, it } from 'vitest';
import { type AdkCompatibleStore, AdkSessionService, type AdkSessionServiceOptions } from '../../src/adk/index.js';
import type {
  AppendEventRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  Event,
  GetSessionRequest,
  IndexedDbSessionService,
  injectSessionState,
  ListSessionsRequest,
  Session,
  SessionService,
  SessionStore,
  SessionStoreClient,
  TurnState,
} from '../../src/index.js';

describe('ADK objects fit our public types', () => {
  it('accepts ADK request objects for every method', () => {
    expectTypeOf<AdkCreateSessionRequest>().toExtend<CreateSessionRequest>();
    expectTypeOf<AdkGetSessionRequest>().toExtend<GetSessionRequest>();
    expectTypeOf<AdkListSessionsRequest>().toExtend<ListSessionsRequest>();
    expectTypeOf<AdkDeleteSessionRequest>().toExtend<DeleteSessionRequest>();
    expectTypeOf<AdkAppendEventRequest>().toExtend<AppendEventRequest>();
    expectTypeOf<SessionService['appendEvent']>().toBeCallableWith({} as AdkAppendEventRequest);
    expectTypeOf<SessionService['getOrCreateSession']>().toBeCallableWith({} as AdkCreateSessionRequest);
  });

  it("accepts ADK's sessions and events as ours", () => {
    expectTypeOf<AdkSession>().toExtend<Session>();
    expectTypeOf<AdkEvent>().toExtend<Event>();
    expectTypeOf<AdkListSessionsResponse['sessions'][number]>().toExtend<Session>();
  });

  it('needs the adapter the other way: our events may lack what ADK requires (actions, invocationId)', () => {
    expectTypeOf<Event>().not.toExtend<AdkEvent>();
    expectTypeOf<Session>().not.toExtend<AdkSession>();
    // A plain store is not a BaseSessionService (it has a private member), so a Runner cannot take one.
    expectTypeOf<IndexedDbSessionService>().not.toExtend<BaseSessionService>();
  });
});

describe('AdkSessionService', () => {
  it("is what a Runner's sessionService is", () => {
    expectTypeOf<AdkSessionService>().toExtend<RunnerConfig['sessionService']>();
    expectTypeOf<AdkSessionService['getSession']>().returns.toEqualTypeOf<Promise<AdkSession | undefined>>();
    expectTypeOf<AdkSessionService['appendEvent']>().returns.toEqualTypeOf<Promise<AdkEvent>>();
  });

  it('wraps the in-thread store, a client, what openSessionStore returns, or any object with the same methods', () => {
    expectTypeOf<IndexedDbSessionService>().toExtend<AdkCompatibleStore>();
    expectTypeOf<SessionStoreClient>().toExtend<AdkCompatibleStore>();
    expectTypeOf<SessionStore>().toExtend<AdkCompatibleStore>();
    expectTypeOf<SessionService>().toExtend<AdkCompatibleStore>();
    expectTypeOf(AdkSessionService).constructorParameters.toEqualTypeOf<
      [AdkCompatibleStore, AdkSessionServiceOptions?]
    >();
    expectTypeOf<{ getSession: SessionService['getSession'] }>().not.toExtend<AdkCompatibleStore>();
  });
});

describe('conveniences', () => {
  it("TurnState's delta is an ADK stateDelta, and its reads match ADK State's", () => {
    expectTypeOf<ReturnType<TurnState['toDelta']>>().toExtend<AdkEvent['actions']['stateDelta']>();
    expectTypeOf<TurnState['get']>().toBeCallableWith('key');
    expectTypeOf<TurnState['get']>().toBeCallableWith('key', 'default');
    expectTypeOf<State['toRecord']>().returns.toEqualTypeOf<ReturnType<TurnState['toRecord']>>();
  });

  it('injectSessionState takes the state of our sessions and of ADK sessions', () => {
    expectTypeOf<typeof injectSessionState>().toBeCallableWith('{x}', {} as Session['state']);
    expectTypeOf<typeof injectSessionState>().toBeCallableWith('{x}', {} as AdkSession['state']);
    expectTypeOf<typeof injectSessionState>().returns.toEqualTypeOf<string>();
  });
});
