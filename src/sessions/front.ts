/**
 * The ADK-shaped front over a backend (an engine in this thread, or one in a
 * worker behind a Comlink proxy). It shapes requests (the JSON form of events
 * and initial state; the store behind it validates them), remembers which
 * stored revision each session object it handed out
 * is at, queues appends per session so that one page's concurrent appends to a
 * session all succeed in call order, and applies each stored event to the
 * caller's `session` object in place, as ADK's Runner requires.
 */
import { fromWireError, InvalidInputError } from '../core/errors.js';
import { EVENT_JSON, isPlainObject } from '../core/json.js';
import { MAX_BATCH_EVENTS } from '../core/limits.js';
import { applyDelta, hasTempKeys, withoutTemp } from '../core/state.js';
import type {
  AppendEventRequest,
  AppendEventsRequest,
  AppStateRequest,
  AppSummary,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  EraseRequest,
  EraseResult,
  Event,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  ListUsersRequest,
  RewindRequest,
  Session,
  SessionCatalog,
  SessionKey,
  SessionService,
  UserStateRequest,
  UserSummary,
} from '../types.js';
import { guardedProgress, prepareImport, type SessionImportOptions } from './import-options.js';
import type { AppendBatch, Backend, ImportOutcome, LoadedSession, SessionRef } from './protocol.js';
import { eventFormOf, withDataForm } from './requests.js';

interface QueuedAppend {
  session: Session;
  /** Set on the events of one `appendEvents` call: they go in a batch of their own, all or nothing. */
  together: object | undefined;
  event: Event;
  /** What the store keeps of `event`: its JSON form. */
  stored: Event;
  /** The delta as given, `temp:` keys included: the session object sees them. */
  delta: Record<string, unknown> | undefined;
  durability: Durability | undefined;
  /** The draft the event finishes (`appendFinishing`): it goes alone, removing the draft as it is stored. */
  finishes?: string;
  resolve: (event: Event) => void;
  reject: (error: unknown) => void;
}

const strictness: Record<Durability, number> = {
  relaxed: 0,
  default: 1,
  strict: 2,
};

export class SessionFront implements SessionService, SessionCatalog {
  /** The stored revision each session object handed out (or appended through) is at. */
  private readonly refs = new WeakMap<Session, SessionRef>();
  private readonly queues = new Map<string, QueuedAppend[]>();
  private readonly draining = new Set<Promise<void>>();

  constructor(
    protected readonly backend: Backend,
    /** Durability of appends that do not choose their own; `undefined` leaves it to the engine. */
    private readonly durability?: Durability,
  ) {}

  private adopt({ session, ref, eventsJson }: LoadedSession): Session {
    if (eventsJson !== undefined) session.events = JSON.parse(eventsJson) as Session['events'];
    this.refs.set(session, ref);
    return session;
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    return this.adopt(await this.backend.createSession(withDataForm('createSession', request, 'state')));
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const loaded = await this.backend.getSession(request);
    return loaded && this.adopt(loaded);
  }

  async getOrCreateSession(request: CreateSessionRequest): Promise<Session> {
    const plain = withDataForm('getOrCreateSession', request, 'state');
    const key = sessionKeyOf(plain);
    if (!key) return this.createSession(plain);
    const found = await this.getSession(key);
    if (found) return found;
    try {
      return await this.createSession(plain);
    } catch (error) {
      // Lost a race with another creator of the same id: theirs is the session.
      const winner = (error as { code?: string }).code === 'ALREADY_EXISTS' ? await this.getSession(key) : undefined;
      if (winner) return winner;
      throw error;
    }
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    const { refs, ...listed } = await this.backend.listSessions(request);
    listed.sessions.forEach((session, i) => {
      this.refs.set(session, refs[i] as SessionRef);
    });
    return listed;
  }

  sealInterrupted(request: SessionKey): Promise<Event[]> {
    return this.backend.sealInterrupted(request);
  }

  rewind(request: RewindRequest): Promise<Event> {
    return this.backend.rewind(request);
  }

  erase(request: EraseRequest): Promise<EraseResult> {
    return this.backend.erase(request);
  }

  async deleteSession(request: DeleteSessionRequest): Promise<void> {
    await this.backend.deleteSession(request);
  }

  /**
   * Stores `event` in `session` and updates `session` in place. Appends to one
   * session are sent in call order; those waiting together go as one batch.
   */
  appendEvent(request: AppendEventRequest): Promise<Event> {
    // As ADK does: a partial (streaming) event is handed back, neither checked nor stored; first, as they come often.
    const partial = partialEvent(request);
    if (partial) return Promise.resolve(partial);
    let stored: Event;
    try {
      stored = storedForm(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.enqueue(request, stored, undefined);
  }

  /**
   * Stores `events` in `session`, in order, in one transaction, and updates
   * `session` in place: all of them or none (one the store refuses fails the
   * call, as a stale session does, and nothing is stored). Partial events are
   * handed back unstored, as `appendEvent` does.
   */
  appendEvents(request: AppendEventsRequest): Promise<Event[]> {
    let appends: { one: AppendEventRequest; stored: Event | undefined }[];
    try {
      const { session, events, durability } = request;
      if (!Array.isArray(events)) throw new InvalidInputError('appendEvents: events: must be an array');
      if (events.length > MAX_BATCH_EVENTS) {
        throw new InvalidInputError(`appendEvents: events: must hold at most ${MAX_BATCH_EVENTS} events`);
      }
      appends = events.map((event) => {
        const one: AppendEventRequest = { session, event, ...(durability ? { durability } : {}) };
        return { one, stored: partialEvent(one) ? undefined : storedForm(one) };
      });
    } catch (error) {
      return Promise.reject(error);
    }
    const together = {};
    return Promise.all(
      appends.map(({ one, stored }) => (stored ? this.enqueue(one, stored, together) : Promise.resolve(one.event))),
    );
  }

  /**
   * `appendEvent` for a draft's final event (src/drafts): the draft is removed in the transaction
   * that stores the event, or stays if it is refused. For the drafts front, not the public surface.
   */
  appendFinishing(request: AppendEventRequest, draftId: string): Promise<Event> {
    if (partialEvent(request))
      return Promise.reject(new InvalidInputError('finish: the final event must not be partial'));
    let stored: Event;
    try {
      stored = storedForm(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.enqueue(request, stored, {}, draftId);
  }

  private enqueue(
    request: AppendEventRequest,
    stored: Event,
    together: object | undefined,
    finishes?: string,
  ): Promise<Event> {
    const { session, event, durability } = request;
    // The session object sees `temp:` keys; the stored event never does (the caller's loses them once stored).
    const delta = event.actions?.stateDelta;
    // JSON, not a separator join: ids may contain any character, and two sessions must never share a queue.
    const key = JSON.stringify([session.appName, session.userId, session.id]);
    return new Promise((resolve, reject) => {
      const item: QueuedAppend = { session, together, event, stored, delta, durability, resolve, reject };
      if (finishes !== undefined) item.finishes = finishes;
      const queue = this.queues.get(key);
      if (queue) queue.push(item);
      else {
        this.queues.set(key, [item]);
        const drained = this.drain(key).finally(() => this.draining.delete(drained));
        this.draining.add(drained);
      }
    });
  }

  /** Sends a session's queued appends, one batch at a time, until none are left. */
  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key) as QueuedAppend[];
    // Appends issued in the same turn join the first batch.
    await Promise.resolve();
    while (queue.length > 0) {
      const head = queue[0] as QueuedAppend;
      // A batch stays within what a worker host accepts in one message.
      let n = 1;
      // The events of one `appendEvents` call go alone, so that their all-or-nothing binds no one else's.
      while (
        n < queue.length &&
        n < MAX_BATCH_EVENTS &&
        (queue[n] as QueuedAppend).session === head.session &&
        (queue[n] as QueuedAppend).together === head.together
      )
        n++;
      const run = queue.splice(0, n);
      await this.send(head.session, run);
    }
    this.queues.delete(key);
  }

  private async send(session: Session, run: QueuedAppend[]): Promise<void> {
    let durability = this.durability;
    for (const item of run) {
      if (item.durability && (!durability || strictness[item.durability] > strictness[durability])) {
        durability = item.durability;
      }
    }
    const batch: AppendBatch = {
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
      ref: this.refs.get(session) ?? null,
      lastUpdateTime: session.lastUpdateTime,
      events: run.map((item) => item.stored),
      ...(durability ? { durability } : {}),
      ...(run[0]?.together ? { allOrNothing: true as const } : {}),
      ...(run[0]?.finishes === undefined ? {} : { finishesDraft: run[0].finishes }),
    };
    let outcome: Awaited<ReturnType<Backend['appendEvents']>>;
    try {
      outcome = await this.backend.appendEvents(batch);
    } catch (error) {
      for (const item of run) item.reject(error);
      return;
    }
    if (outcome.ref) this.refs.set(session, outcome.ref);
    run.forEach((item, i) => {
      const failure = outcome.results[i];
      if (failure) {
        item.reject(fromWireError(failure));
        return;
      }
      stripTemp(item.event);
      applyToSession(session, item.event, item.delta);
      item.resolve(item.event);
    });
    session.lastUpdateTime = outcome.lastUpdateTime;
  }

  /** Keys of every session of every app, of one app, or of one user: one snapshot, in listing order (oldest first). */
  async listSessionKeys(request: ListSessionKeysRequest = {}): Promise<SessionKey[]> {
    return this.backend.listSessionKeys(request);
  }

  /**
   * Writes whole sessions, in the shape ADK's API server returns them (merged
   * state, events in append order), in one transaction: every session is
   * validated first, and on any error nothing is written. `app:`/`user:` keys
   * of their state are merged into the shared scopes; `temp:` keys are dropped.
   * Once the write has started it completes: `signal` is honoured until then.
   */
  async importSessions(sessions: readonly Session[], options: SessionImportOptions = {}): Promise<ImportOutcome> {
    const batch = prepareImport(sessions, options);
    return this.backend.importSessions(batch, guardedProgress(options.onProgress));
  }

  async getUserState(request: UserStateRequest): Promise<Record<string, unknown>> {
    return this.backend.getUserState(request);
  }

  async getAppState(request: AppStateRequest): Promise<Record<string, unknown>> {
    return this.backend.getAppState(request);
  }

  async listApps(): Promise<AppSummary[]> {
    return this.backend.listApps();
  }

  async listUsers(request: ListUsersRequest): Promise<UserSummary[]> {
    return this.backend.listUsers(request);
  }

  /** Lets queued appends finish, then closes the backend. */
  async close(): Promise<void> {
    while (this.draining.size > 0) await Promise.all(this.draining);
    await this.backend.close();
  }
}

/** The in-place update ADK's Runner relies on: the event replaces its namesake or is appended. */
function applyToSession(session: Session, event: Event, delta: Record<string, unknown> | undefined): void {
  const at = session.events.findIndex((e) => e.id === event.id);
  if (at >= 0) session.events[at] = event;
  else session.events.push(event);
  if (delta) applyDelta(session.state, delta);
}

/** The key of a request that names its session, else `undefined` (the backend then reports what is wrong). */
function sessionKeyOf(request: CreateSessionRequest): SessionKey | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const { appName, userId, sessionId } = request;
  return sessionId === undefined ? undefined : { appName, userId, sessionId };
}

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * What the store is to keep of an append: the event's JSON form, without
 * `temp:` keys. Checked here only as far as this side relies on it (the
 * session object's parts it updates, a form that can cross to a worker): the
 * store validates the event itself, and refuses it alone, not its batch.
 */
function storedForm(request: AppendEventRequest): Event {
  const refuse = (where: string, why: string): never => {
    throw new InvalidInputError(`appendEvent: ${where}: ${why}`);
  };
  const expect = (value: unknown, where: string, type: string, ok: boolean): void => {
    if (!ok) refuse(where, value === undefined ? `is required (${type})` : `must be ${type}, not ${kindOf(value)}`);
  };
  try {
    expect(request, 'request', 'object', isObject(request));
    const { session, event, durability } = request;
    expect(session, 'session', 'object', isObject(session));
    for (const field of ['id', 'appName', 'userId'] as const) {
      expect(session[field], `session.${field}`, 'string', typeof session[field] === 'string');
    }
    expect(session.events, 'session.events', 'array', Array.isArray(session.events));
    if (!isPlainObject(session.state)) refuse('session.state', 'must be a plain object');
    expect(session.lastUpdateTime, 'session.lastUpdateTime', 'number', typeof session.lastUpdateTime === 'number');
    // Refused before anything is stored: the in-place update would fail after the commit, not before.
    if (Object.isFrozen(session) || Object.isFrozen(session.events) || Object.isFrozen(session.state)) {
      // Short: this is on every page. The README ("Live queries") says the rest.
      refuse('session', "is frozen (a live query's value): pass one from getSession, or structuredClone(session)");
    }
    if (durability !== undefined && !(typeof durability === 'string' && Object.hasOwn(strictness, durability))) {
      refuse(
        'durability',
        `must be one of ${Object.keys(strictness)
          .map((d) => JSON.stringify(d))
          .join(', ')}`,
      );
    }
    expect(event, 'event', 'object', isObject(event));
    return withoutTempDelta(eventFormOf('appendEvent', event, ['event'], EVENT_JSON) as Event);
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    return refuse('request', `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** `event` itself when its delta holds no `temp:` key, else a copy without them. */
function withoutTempDelta(event: Event): Event {
  const delta = event.actions?.stateDelta;
  if (!delta || !hasTempKeys(delta) || !event.actions) return event;
  return { ...event, actions: { ...event.actions, stateDelta: withoutTemp(delta) } };
}

function stripTemp(event: Event): void {
  const delta = event.actions?.stateDelta;
  if (delta && hasTempKeys(delta) && event.actions) event.actions.stateDelta = withoutTemp(delta);
}

/** The event of a request for a partial event; `undefined` for anything else, hostile input included. */
function partialEvent(request: AppendEventRequest): Event | undefined {
  try {
    return request.session && request.event.partial === true ? request.event : undefined;
  } catch {
    return undefined;
  }
}
