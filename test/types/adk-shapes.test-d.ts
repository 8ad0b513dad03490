/**
 * The public types against `@google/adk`'s own (type-only import: the library
 * must never load ADK at runtime). An app written against ADK's session service
 * passes ADK's objects to this store and reads ADK-shaped results back, so a
 * drift on either side must fail the typecheck, not surface in an agent run.
 *
 * One direction is deliberately absent: our `Session`/`Event` are not
 * assignable to ADK's. Our `Event` is the store's *input* type, in which only
 * `id` and `timestamp` are required (see schema.ts), and the store returns
 * events exactly as they were appended, so an event stored without
 * `invocationId` or `actions` comes back without them; typing results as ADK
 * events would claim fields that may be missing. Callers handing a session from
 * this store to an API typed with ADK's `Session` need a cast.
 */
import type * as Adk from '@google/adk';
import { describe, expectTypeOf, test } from 'vitest';
import type * as Ours from '../../src/index.js';

describe('Event', () => {
  test('an ADK Event is accepted wherever the store takes an Event', () => {
    expectTypeOf<Adk.Event>().toExtend<Ours.Event>();
    expectTypeOf<NonNullable<Adk.Event['content']>>().toExtend<Ours.Content>();
    expectTypeOf<Adk.EventActions>().toExtend<Ours.EventActions>();
  });

  test('names no field that ADK’s Event or EventActions lacks, but for compaction’s and rewind’s', () => {
    // A field of ours that ADK does not have would be a field ADK code never sets or reads. The
    // exceptions: adk-js's CompactedEvent fields, adk-python's `actions.compaction`, and the rewind
    // event's `actions.rewindBeforeInvocationId` (adk-python's; on adk-js's main branch, not in 2.0.0).
    expectTypeOf<Exclude<keyof Ours.Event, keyof Adk.Event>>().toEqualTypeOf<
      Exclude<keyof Adk.CompactedEvent, keyof Adk.Event>
    >();
    expectTypeOf<Exclude<keyof Ours.EventActions, keyof Adk.EventActions>>().toEqualTypeOf<
      'compaction' | 'rewindBeforeInvocationId'
    >();
    expectTypeOf<Adk.CompactedEvent>().toExtend<Ours.Event>();
  });

  test('still checks field types, so the acceptance above means something', () => {
    expectTypeOf<Ours.Event>().not.toBeAny();
    expectTypeOf<Omit<Adk.Event, 'timestamp'> & { timestamp: string }>().not.toExtend<Ours.Event>();
    expectTypeOf<Omit<Adk.Event, 'id'>>().not.toExtend<Ours.Event>();
  });
});

describe('Session', () => {
  test('has exactly ADK’s keys, and every field but events has ADK’s type (lastUpdateTime: number, ms)', () => {
    expectTypeOf<keyof Ours.Session>().toEqualTypeOf<keyof Adk.Session>();
    expectTypeOf<Omit<Ours.Session, 'events'>>().toEqualTypeOf<Omit<Adk.Session, 'events'>>();
    expectTypeOf<Ours.Session['lastUpdateTime']>().toEqualTypeOf<number>();
    expectTypeOf<Ours.Session['events']>().toEqualTypeOf<Ours.Event[]>();
  });

  test('an ADK Session (as the Runner holds it) is accepted by appendEvent', () => {
    expectTypeOf<Adk.Session>().toExtend<Ours.Session>();
    expectTypeOf<Adk.AppendEventRequest>().toExtend<Ours.AppendEventRequest>();
    // Ours adds only the optional per-append durability.
    expectTypeOf<Exclude<keyof Ours.AppendEventRequest, keyof Adk.AppendEventRequest>>().toEqualTypeOf<'durability'>();
  });
});

describe('ListSessionsResponse', () => {
  test('has ADK’s fields with ADK’s types, sessions being our Sessions', () => {
    expectTypeOf<keyof Ours.ListSessionsResponse>().toEqualTypeOf<keyof Adk.ListSessionsResponse>();
    expectTypeOf<Omit<Ours.ListSessionsResponse, 'sessions'>>().toEqualTypeOf<
      Omit<Adk.ListSessionsResponse, 'sessions'>
    >();
    expectTypeOf<Ours.ListSessionsResponse['sessions']>().toEqualTypeOf<Ours.Session[]>();
  });
});

describe('requests', () => {
  test('are ADK’s request types exactly, so every ADK request object is accepted and nothing more is required', () => {
    expectTypeOf<Ours.CreateSessionRequest>().toEqualTypeOf<Adk.CreateSessionRequest>();
    // Ours adds only the optional `fromLatestCompaction`.
    expectTypeOf<Adk.GetSessionRequest>().toExtend<Ours.GetSessionRequest>();
    expectTypeOf<Adk.GetSessionConfig>().toExtend<Ours.GetSessionConfig>();
    expectTypeOf<
      Exclude<keyof Ours.GetSessionConfig, keyof Adk.GetSessionConfig>
    >().toEqualTypeOf<'fromLatestCompaction'>();
    expectTypeOf<Omit<Ours.GetSessionConfig, 'fromLatestCompaction'>>().toEqualTypeOf<Adk.GetSessionConfig>();
    expectTypeOf<Ours.ListSessionsRequest>().toEqualTypeOf<Adk.ListSessionsRequest>();
    expectTypeOf<Ours.DeleteSessionRequest>().toEqualTypeOf<Adk.DeleteSessionRequest>();
  });

  test('the service methods take ADK’s requests and answer in ADK’s shapes', () => {
    type Service = Ours.SessionService;
    expectTypeOf<Adk.CreateSessionRequest>().toExtend<Parameters<Service['createSession']>[0]>();
    expectTypeOf<Adk.CreateSessionRequest>().toExtend<Parameters<Service['getOrCreateSession']>[0]>();
    expectTypeOf<Adk.GetSessionRequest>().toExtend<Parameters<Service['getSession']>[0]>();
    expectTypeOf<Adk.ListSessionsRequest>().toExtend<Parameters<Service['listSessions']>[0]>();
    expectTypeOf<Adk.DeleteSessionRequest>().toExtend<Parameters<Service['deleteSession']>[0]>();
    expectTypeOf<Adk.AppendEventRequest>().toExtend<Parameters<Service['appendEvent']>[0]>();
    expectTypeOf<ReturnType<Service['getSession']>>().toEqualTypeOf<Promise<Ours.Session | undefined>>();
    expectTypeOf<ReturnType<Service['listSessions']>>().toEqualTypeOf<Promise<Ours.ListSessionsResponse>>();
    expectTypeOf<ReturnType<Service['deleteSession']>>().toEqualTypeOf<Promise<void>>();
    expectTypeOf<ReturnType<Service['appendEvent']>>().toEqualTypeOf<Promise<Ours.Event>>();
    expectTypeOf<Ours.IndexedDbSessionService>().toExtend<Service>();
  });
});
