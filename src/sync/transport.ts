/**
 * The device's HTTP side of the sync protocol (see ./wire.ts). Every answer
 * is validated before it is used; every failure is a `SyncError` saying whether
 * the network, the server or the credentials failed.
 */

import { createParser } from 'eventsource-parser';
import { SyncError } from '../core/errors.js';
import { validate } from '../core/schema.js';
import type { Event } from '../types.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  ERASURES_PARAM,
  type Erasure,
  type ErrorAnswer,
  eraseAnswerSchema,
  limitsSchema,
  MAX_PUSH_EVENTS,
  type Positioned,
  type PullAnswer,
  type PushAccepted,
  pullAnswerSchema,
  pushAcceptedSchema,
  pushRejectedSchema,
  type ServerLimits,
  userPath,
} from './wire.js';

export type PushAnswer =
  | { status: 'accepted'; answer: PushAccepted }
  | { status: 'conflict'; head: number; events: Positioned[] }
  | { status: 'missing' };

export interface TransportOptions {
  url: string;
  token: string;
  appName: string;
  userId: string;
  fetch?: typeof fetch;
  /** A request (connecting, or reading an answer) that takes longer fails as `network`. Default 30 s. */
  requestTimeoutMs?: number;
}

/** A change notice is a cursor of a few bytes: a stream that buffers more without ending one is broken. */
const MAX_NOTICE_CHARS = 64 * 1024;

/** How long a request may take unless the options say otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export class SyncTransport {
  /** Bytes of request and answer bodies, for status and measurement. */
  readonly bytes = { sent: 0, received: 0 };
  private readonly root: string;
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private known: ServerLimits | undefined;

  constructor(private readonly options: TransportOptions) {
    this.root = options.url.replace(/\/+$/, '');
    this.base = this.root + userPath(options.appName, options.userId);
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /**
   * The server's limits, asked once per transport. A server that predates
   * `GET /v1/limits` (404) gets the defaults it was shipped with.
   */
  async limits(): Promise<ServerLimits> {
    if (this.known) return this.known;
    const response = await this.send('GET', '/v1/limits', undefined, AbortSignal.timeout(this.timeoutMs), this.root);
    if (response.status === 404) {
      this.known = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES, maxPushEvents: MAX_PUSH_EVENTS };
      return this.known;
    }
    if (response.status !== 200) throw await this.failure(response);
    this.known = validate('sync limits answer', limitsSchema, await this.json(response, 'GET', '/v1/limits'));
    return this.known;
  }

  /**
   * Creates the session. A server that does not let this user write `app:`
   * state gets the creation without those keys: they were this device's own,
   * and the server's app state replaces them on the next pull.
   */
  async create(sessionId: string, state: Record<string, unknown>): Promise<'created' | 'exists'> {
    const { status, body } = await this.call('POST', '/sessions', { sessionId, state }, [201, 403, 409]);
    if (status === 403) {
      const answer = body as Partial<ErrorAnswer> | undefined;
      const own = Object.keys(state).filter((k) => !k.startsWith('app:'));
      if (answer?.error === 'app-state-forbidden' && own.length < Object.keys(state).length) {
        return this.create(sessionId, Object.fromEntries(own.map((k) => [k, state[k]])));
      }
      throw new SyncError(`the sync server answered 403: ${String(answer?.message)}`, 'auth', 403);
    }
    return status === 201 ? 'created' : 'exists';
  }

  async remove(sessionId: string): Promise<void> {
    await this.call('DELETE', `/sessions/${encodeURIComponent(sessionId)}`, undefined, [204]);
  }

  async push(sessionId: string, after: number, events: Event[]): Promise<PushAnswer> {
    const { status, body } = await this.call(
      'POST',
      `/sessions/${encodeURIComponent(sessionId)}/events`,
      { after, events },
      [200, 404, 409],
    );
    if (status === 404) return { status: 'missing' };
    if (status === 409) {
      validate('sync push answer', pushRejectedSchema, body);
      const rejected = body as { head: number; events: Positioned[] };
      return { status: 'conflict', head: rejected.head, events: rejected.events };
    }
    return { status: 'accepted', answer: validate('sync push answer', pushAcceptedSchema, body) };
  }

  /**
   * Erases the session's `erasures` in the server's copies; resolves how many it had not erased,
   * `missing` when the session is not there, `unsupported` from a server that predates erasures.
   */
  async erase(sessionId: string, erasures: Erasure[]): Promise<number | 'missing' | 'unsupported'> {
    const path = `/sessions/${encodeURIComponent(sessionId)}/erase`;
    const { status, body } = await this.call('POST', path, { erasures }, [200, 404], [404]);
    if (status === 404)
      return (body as Partial<ErrorAnswer> | undefined)?.error === 'not-found' ? 'missing' : 'unsupported';
    return validate('sync erase answer', eraseAnswerSchema, body).erased;
  }

  async pull(after: number): Promise<PullAnswer> {
    const { body } = await this.call('GET', `/changes?after=${after}&${ERASURES_PARAM}=1`, undefined, [200]);
    validate('sync pull answer', pullAnswerSchema, body);
    // The checked body itself, not zod's copy: that would have lost any `__proto__` key of an event.
    return body as PullAnswer;
  }

  /**
   * Reads the change stream until `signal` aborts or the connection ends,
   * calling `onPoke` with each announced cursor. Rejects with `SyncError` when it
   * cannot connect.
   */
  async stream(onPoke: (cursor: number) => void, signal: AbortSignal): Promise<void> {
    // The stream stays open for as long as it is wanted: the timeout covers only its answer's headers.
    const linked = new AbortController();
    const forward = () => linked.abort(signal.reason);
    if (signal.aborted) forward();
    signal.addEventListener('abort', forward, { once: true });
    const timer = setTimeout(() => linked.abort(new DOMException('no answer in time', 'TimeoutError')), this.timeoutMs);
    let response: Response;
    try {
      response = await this.send('GET', '/stream', undefined, linked.signal);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok || !response.body) throw await this.failure(response);
    // The SSE format as the spec has it (CR, LF or CRLF line ends; data over several lines; a BOM;
    // chunks cut anywhere), which a proxy between server and device may rewrite, not as our server writes it.
    const parser = createParser({
      onEvent: (message) => {
        if (message.event !== 'poke') return;
        let cursor: number;
        try {
          cursor = Number((JSON.parse(message.data) as { cursor?: unknown } | null)?.cursor);
        } catch {
          throw new SyncError('the sync server sent a change notice that is not JSON', 'server', response.status);
        }
        if (Number.isSafeInteger(cursor)) onPoke(cursor);
      },
      onError: (error) => {
        // Unknown fields are ignored, as the spec says; a notice without an end is a broken stream.
        if (error.type === 'max-buffer-size-exceeded') {
          throw new SyncError(`the sync server's change stream: ${error.message}`, 'server', response.status);
        }
      },
      maxBufferSize: MAX_NOTICE_CHARS,
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  }

  private async call(
    method: string,
    path: string,
    payload: unknown,
    expected: number[],
    notOurs: number[] = [],
  ): Promise<{ status: number; body: unknown }> {
    const response = await this.send(method, path, payload, AbortSignal.timeout(this.timeoutMs));
    if (!expected.includes(response.status)) throw await this.failure(response);
    // Statuses a server of another release (or a proxy) may answer with a body that is not ours.
    if (notOurs.includes(response.status)) {
      return { status: response.status, body: await this.json(response, method, path).catch(() => undefined) };
    }
    return { status: response.status, body: await this.json(response, method, path) };
  }

  /** The answer's body parsed; reading it is covered by the request's signal, so a stalled answer fails as `network`. */
  private async json(response: Response, method: string, path: string): Promise<unknown> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new SyncError(`the sync server's answer to ${method} ${path} broke off: ${String(error)}`, 'network', 0);
    }
    this.bytes.received += text.length;
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new SyncError(
        `the sync server answered ${method} ${path} with something that is not JSON`,
        'server',
        response.status,
      );
    }
  }

  private async send(
    method: string,
    path: string,
    payload: unknown,
    signal: AbortSignal,
    base = this.base,
  ): Promise<Response> {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    if (body) this.bytes.sent += body.length;
    try {
      return await this.fetch(base + path, {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body } : {}),
        signal,
      });
    } catch (error) {
      const why =
        error instanceof DOMException && error.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : String(error);
      throw new SyncError(`cannot reach the sync server at ${this.options.url}: ${why}`, 'network', 0);
    }
  }

  private async failure(response: Response): Promise<SyncError> {
    let message = `the sync server answered ${response.status}`;
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = `${message}: ${body.message}`;
    } catch {
      // A body that is not ours (a proxy's page): the status says enough.
    }
    // The cap may have changed since it was read (a restart with another SYNC_MAX_BODY_BYTES): read it again next time.
    if (response.status === 413) this.known = undefined;
    const kind =
      response.status === 401 || response.status === 403 ? 'auth' : response.status >= 500 ? 'server' : 'refused';
    return new SyncError(message, kind, response.status);
  }
}
