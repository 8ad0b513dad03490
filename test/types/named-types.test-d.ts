/**
 * The public data types are declared by hand (src/public/), with TSDoc, so editors and generated
 * docs show `Event` rather than `z.input<ReturnType<typeof eventShape>>`; the zod schemas stay
 * the runtime check. Each test here pins one type to its schema with `toEqualTypeOf`, which holds
 * only when each is assignable to the other with the same fields, optionality and field types:
 * a field added, removed, renamed or retyped on either side fails the typecheck.
 *
 * What the schema takes (`z.input`) is what a caller passes; what it gives (`z.output`) is what
 * the store works with and hands back. Where both matter and the schema has no transform, both
 * are pinned.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type * as z from 'zod/mini';
import type * as artifacts from '../../src/artifacts/schema.js';
import type * as shared from '../../src/core/schema.js';
import type {
  AppendEventRequest,
  AppStateRequest,
  ArtifactFileRequest,
  ArtifactKeyRequest,
  ArtifactPart,
  ArtifactUsageRequest,
  ArtifactVersionRequest,
  ConflictPolicy,
  Content,
  CreateSessionRequest,
  DeleteMemoryRequest,
  DeleteSessionRequest,
  Durability,
  EraseRequest,
  Event,
  EventActions,
  GetSessionConfig,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListUsersRequest,
  MemoryHit,
  MemoryUserKey,
  Part,
  SaveArtifactBlobRequest,
  SaveArtifactRequest,
  SearchEventsRequest,
  SearchMemoryRequest,
  Session,
  SessionKey,
  UserStateRequest,
} from '../../src/index.js';
import type * as memory from '../../src/memory/schema.js';
import type { searchEventsRequestSchema } from '../../src/search/schema.js';
import type * as sessions from '../../src/sessions/schema.js';

/** What a schema takes, whether given as a schema or as the function that builds it. */
type In<S> = S extends () => infer T ? z.input<T> : z.input<S>;
/** What a schema gives. */
type Out<S> = S extends () => infer T ? z.output<T> : z.output<S>;
/** `T` without its index signature: the fields it names. */
type Named<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

describe('sessions', () => {
  test('Part, Content and EventActions are what their schemas take and give', () => {
    expectTypeOf<Part>().toEqualTypeOf<In<typeof shared.partSchema>>();
    expectTypeOf<Part>().toEqualTypeOf<Out<typeof shared.partSchema>>();
    expectTypeOf<Content>().toEqualTypeOf<In<typeof shared.contentSchema>>();
    expectTypeOf<Content>().toEqualTypeOf<Out<typeof shared.contentSchema>>();
    expectTypeOf<EventActions>().toEqualTypeOf<In<typeof shared.eventActionsSchema>>();
    expectTypeOf<EventActions>().toEqualTypeOf<Out<typeof shared.eventActionsSchema>>();
  });

  test('Event is what the event schema takes and what a validated event is', () => {
    expectTypeOf<Event>().toEqualTypeOf<In<typeof shared.eventShape>>();
    expectTypeOf<Event>().toEqualTypeOf<Out<typeof shared.eventShape>>();
    // The schema appends validate with: it checks the raw value (unknown) first, then the shape.
    expectTypeOf<Event>().toEqualTypeOf<Out<typeof shared.eventSchema>>();
  });

  test('Session is a whole session as validated (an import), and passes the check appendEvent makes', () => {
    expectTypeOf<Session>().toEqualTypeOf<Out<typeof sessions.importedSessionSchema>>();
    // appendEvent reads only part of the session it is given (its events unchecked): one way.
    expectTypeOf<Session>().toExtend<In<typeof sessions.sessionSchema>>();
  });

  test('the session service requests are what their schemas take', () => {
    expectTypeOf<SessionKey>().toEqualTypeOf<In<typeof shared.sessionKeySchema>>();
    expectTypeOf<DeleteSessionRequest>().toEqualTypeOf<In<typeof shared.sessionKeySchema>>();
    expectTypeOf<CreateSessionRequest>().toEqualTypeOf<In<typeof sessions.createSessionRequestSchema>>();
    expectTypeOf<CreateSessionRequest>().toEqualTypeOf<Out<typeof sessions.createSessionRequestSchema>>();
    expectTypeOf<GetSessionConfig>().toEqualTypeOf<In<typeof sessions.getSessionConfigSchema>>();
    expectTypeOf<GetSessionRequest>().toEqualTypeOf<In<typeof sessions.getSessionRequestSchema>>();
    expectTypeOf<ListSessionsRequest>().toEqualTypeOf<In<typeof sessions.listSessionsRequestSchema>>();
    expectTypeOf<ListSessionsRequest>().toEqualTypeOf<Out<typeof sessions.listSessionsRequestSchema>>();
    expectTypeOf<UserStateRequest>().toEqualTypeOf<In<typeof sessions.userStateRequestSchema>>();
    expectTypeOf<AppStateRequest>().toEqualTypeOf<In<typeof sessions.appStateRequestSchema>>();
    expectTypeOf<Durability>().toEqualTypeOf<In<typeof sessions.durabilitySchema>>();
  });

  test('an append request passes the check appendEvent makes, and its event is exactly an Event', () => {
    // The schema takes the event as unknown (it checks the raw value first): one way, then the event itself.
    expectTypeOf<AppendEventRequest>().toExtend<In<typeof sessions.appendEventRequestSchema>>();
    expectTypeOf<AppendEventRequest['event']>().toEqualTypeOf<Out<typeof sessions.appendEventRequestSchema>['event']>();
  });

  test('the catalog and import requests are what their schemas take', () => {
    expectTypeOf<ListSessionKeysRequest>().toEqualTypeOf<In<typeof sessions.listSessionKeysRequestSchema>>();
    expectTypeOf<EraseRequest>().toEqualTypeOf<In<typeof sessions.eraseRequestSchema>>();
    expectTypeOf<EraseRequest>().toEqualTypeOf<Out<typeof sessions.eraseRequestSchema>>();
    expectTypeOf<ListUsersRequest>().toEqualTypeOf<In<typeof sessions.listUsersRequestSchema>>();
    expectTypeOf<ConflictPolicy>().toEqualTypeOf<In<typeof sessions.conflictPolicySchema>>();
  });
});

describe('artifacts', () => {
  test('the artifact requests are what their schemas take', () => {
    expectTypeOf<ArtifactKeyRequest>().toEqualTypeOf<In<typeof artifacts.artifactKeySchema>>();
    expectTypeOf<ArtifactFileRequest>().toEqualTypeOf<In<typeof artifacts.artifactFileSchema>>();
    expectTypeOf<ArtifactVersionRequest>().toEqualTypeOf<In<typeof artifacts.artifactVersionRequestSchema>>();
    expectTypeOf<SaveArtifactBlobRequest>().toEqualTypeOf<In<typeof artifacts.saveArtifactBlobRequestSchema>>();
    expectTypeOf<ArtifactUsageRequest>().toEqualTypeOf<In<typeof artifacts.artifactUsageRequestSchema>>();
  });

  test('an ArtifactPart names exactly the fields the schema checks, and keeps any other', () => {
    expectTypeOf<Named<ArtifactPart>>().toEqualTypeOf<In<typeof artifacts.artifactPartSchema>>();
    expectTypeOf<ArtifactPart>().toHaveProperty('anyOtherField').toEqualTypeOf<unknown>();
    type Save = In<typeof artifacts.saveArtifactRequestSchema>;
    expectTypeOf<Omit<SaveArtifactRequest, 'artifact'>>().toEqualTypeOf<Omit<Save, 'artifact'>>();
    expectTypeOf<Named<SaveArtifactRequest['artifact']>>().toEqualTypeOf<Save['artifact']>();
  });
});

describe('memory and search', () => {
  test('the memory requests are what their schemas take', () => {
    expectTypeOf<SearchMemoryRequest>().toEqualTypeOf<In<typeof memory.searchMemorySchema>>();
    expectTypeOf<DeleteMemoryRequest>().toEqualTypeOf<In<typeof memory.deleteMemorySchema>>();
    expectTypeOf<MemoryUserKey>().toEqualTypeOf<In<typeof memory.userKeySchema>>();
  });

  test('a memory hit carries an entry’s content as memory validated it', () => {
    expectTypeOf<MemoryHit['content']>().toEqualTypeOf<Out<typeof memory.memoryInputSchema>['content']>();
  });

  test('the search request is what its schema takes', () => {
    expectTypeOf<SearchEventsRequest>().toEqualTypeOf<In<typeof searchEventsRequestSchema>>();
  });
});
