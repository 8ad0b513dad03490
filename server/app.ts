/**
 * The sync server's HTTP face (Hono). Every route is under a user's path and
 * answers only to a bearer token the app's `authenticate` maps to that user
 * (and app, when it names one). Bodies are size-capped before they are read and
 * validated before anything is stored; errors answer `{ error, message }`.
 */

import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import { InvalidInputError } from '../src/core/errors.js';
import { validate } from '../src/core/schema.js';
import {
  createBodySchema,
  DEFAULT_MAX_BODY_BYTES,
  ERASURES_PARAM,
  type Erasure,
  type ErrorAnswer,
  eraseBodySchema,
  MAX_PULL_CHANGES,
  MAX_PUSH_EVENTS,
  pushBodySchema,
  type ServerLimits,
} from '../src/sync/wire.js';
import type { Event } from '../src/types.js';
import type { UserKey } from './log.js';
import type { SyncService } from './sync-service.js';
import { unreachableDatabase } from './unavailable.js';

/** Whom a token may act for: one user, of one app or (without `appName`) of any. */
export interface Principal {
  userId: string;
  appName?: string;
  /**
   * May write `app:` state (shared by every user of the app) in pushed state
   * deltas and creations. Default false: such a push is refused with 403
   * `app-state-forbidden`; pulls deliver app state to everyone regardless.
   */
  appStateWrites?: boolean;
}

/** Checks a bearer token; `undefined` refuses it. */
export type Authenticate = (token: string) => Principal | undefined | Promise<Principal | undefined>;

export interface SyncAppOptions {
  service: SyncService;
  authenticate: Authenticate;
  /** Largest request body accepted, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** How often an idle change stream sends a keep-alive comment. Default 15 s. */
  keepAliveMs?: number;
  /** Change streams one user may hold open at once (tabs, devices); more get 429. Default 16. */
  maxStreamsPerUser?: number;
  /**
   * Origins whose pages may call the server (CORS). Default any: requests
   * carry a bearer token, never cookies, so another site's page has nothing to borrow.
   */
  corsOrigins?: string[];
}

type Env = { Variables: { user: UserKey; appStateWrites: boolean } };

const fail = (
  c: Context,
  status: 400 | 401 | 403 | 404 | 409 | 413 | 429,
  error: ErrorAnswer['error'],
  message: string,
) => c.json({ error, message } satisfies ErrorAnswer, status);

export function createSyncApp(options: SyncAppOptions): Hono<Env> {
  const { service, authenticate } = options;
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxStreams = options.maxStreamsPerUser ?? DEFAULT_MAX_STREAMS_PER_USER;
  const streams = new Map<string, number>();
  const app = new Hono<Env>();
  app.use(
    '*',
    cors({
      origin: options.corsOrigins ?? '*',
      allowHeaders: ['authorization', 'content-type'],
      allowMethods: ['GET', 'POST', 'DELETE'],
      maxAge: 600,
    }),
  );

  app.get('/v1/health', (c) => c.json({ ok: true }));
  // Public: a device reads it once and packs its pushes under the cap (a 413 would refuse the whole push).
  app.get('/v1/limits', (c) =>
    c.json({ maxBodyBytes: maxSize, maxPushEvents: MAX_PUSH_EVENTS } satisfies ServerLimits),
  );

  const scoped = new Hono<Env>();
  scoped.use('*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const token = /^Bearer (.+)$/i.exec(header)?.[1];
    const principal = token === undefined ? undefined : await authenticate(token);
    if (!principal) return fail(c, 401, 'unauthorized', 'a valid bearer token is required');
    const appName = c.req.param('app') as string;
    const userId = c.req.param('user') as string;
    if (principal.userId !== userId || (principal.appName !== undefined && principal.appName !== appName)) {
      return fail(c, 403, 'forbidden', 'this token may not act for that app and user');
    }
    c.set('user', { appName, userId });
    c.set('appStateWrites', principal.appStateWrites === true);
    return next();
  });
  scoped.use(
    '*',
    bodyLimit({ maxSize, onError: (c) => fail(c, 413, 'too-large', `request bodies are limited to ${maxSize} bytes`) }),
  );

  scoped.post('/sessions', async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const checked = checkBody(c, () => validate('create session', createBodySchema, body));
    if (checked instanceof Response) return checked;
    const state = (body as { state?: Record<string, unknown> }).state ?? {};
    const shared = c.get('appStateWrites') ? undefined : Object.keys(state).find(isAppKey);
    if (shared !== undefined) return refuseAppState(c, `create session: state writes ${shared}`);
    const outcome = await service.create(c.get('user'), checked.sessionId, state);
    if (outcome === 'exists') return fail(c, 409, 'exists', `session ${checked.sessionId} already exists`);
    return c.json({ sessionId: checked.sessionId }, 201);
  });

  scoped.delete('/sessions/:session', async (c) => {
    await service.remove(c.get('user'), c.req.param('session'));
    return c.body(null, 204);
  });

  scoped.post('/sessions/:session/events', async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const checked = checkBody(c, () => validate('push events', pushBodySchema, body));
    if (checked instanceof Response) return checked;
    // The events as sent, not zod's copies: those would have lost any `__proto__` key.
    const events = (body as { events: Event[] }).events;
    if (!c.get('appStateWrites')) {
      for (const event of events) {
        const shared = Object.keys(event.actions?.stateDelta ?? {}).find(isAppKey);
        if (shared !== undefined) return refuseAppState(c, `push events: event ${event.id} writes ${shared}`);
      }
    }
    const sessionId = c.req.param('session');
    const result = await service.push(c.get('user'), sessionId, checked.after, events);
    switch (result.status) {
      case 'accepted':
        return c.json({ head: result.head, placed: result.placed });
      case 'conflict':
        return c.json({ head: result.head, events: result.events }, 409);
      case 'ahead':
        return fail(
          c,
          400,
          'invalid',
          `push events: after is ${checked.after}, past the session's head ${result.head}`,
        );
      default:
        return fail(c, 404, 'not-found', `session ${sessionId} does not exist`);
    }
  });

  scoped.post('/sessions/:session/erase', async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const checked = checkBody(c, () => validate('erase events', eraseBodySchema, body));
    if (checked instanceof Response) return checked;
    const sessionId = c.req.param('session');
    // The erasures as sent, not zod's copies: those would have lost any `__proto__` state key.
    const erasures = (body as { erasures: Erasure[] }).erasures;
    const erased = await service.erase(c.get('user'), sessionId, erasures);
    if (erased === 'not-found') return fail(c, 404, 'not-found', `session ${sessionId} does not exist`);
    return c.json({ erased });
  });

  scoped.get('/changes', async (c) => {
    const after = Number(c.req.query('after') ?? '0');
    const limit = Math.min(Number(c.req.query('limit') ?? MAX_PULL_CHANGES), MAX_PULL_CHANGES);
    if (!Number.isSafeInteger(after) || after < 0 || !Number.isSafeInteger(limit) || limit < 1) {
      return fail(c, 400, 'invalid', 'changes: after must be a cursor (an integer >= 0), limit an integer >= 1');
    }
    return c.json(await service.pull(c.get('user'), after, limit, c.req.query(ERASURES_PARAM) === '1'));
  });

  /** Server-sent events: a `poke` with the newest cursor after each change, and one at once. */
  scoped.get('/stream', (c) => {
    const user = c.get('user');
    const key = JSON.stringify([user.appName, user.userId]);
    const open = streams.get(key) ?? 0;
    if (open >= maxStreams) {
      return fail(c, 429, 'too-many-streams', `a user may hold ${maxStreams} change streams open; close one first`);
    }
    streams.set(key, open + 1);
    const closed = () => {
      const left = (streams.get(key) ?? 1) - 1;
      if (left > 0) streams.set(key, left);
      else streams.delete(key);
    };
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | undefined;
      let stop = (): void => {};
      // Everything after the count went up is inside the try, so a failure (the cursor read) still counts it down.
      try {
        let latest = await service.cursor(user);
        let sent = -1;
        stop = service.subscribe(user, (cursor) => {
          latest = Math.max(latest, cursor);
          wake?.();
        });
        stream.onAbort(() => {
          stop();
          wake?.();
        });
        while (!stream.aborted) {
          if (latest !== sent) {
            sent = latest;
            await stream.writeSSE({ event: 'poke', data: JSON.stringify({ cursor: latest }) });
          }
          let keepAlive: ReturnType<typeof setTimeout> | undefined;
          await new Promise<void>((resolve) => {
            wake = resolve;
            keepAlive = setTimeout(resolve, keepAliveMs);
          });
          // A poke woke it: the keep-alive timer would otherwise stay pending, one per wake.
          clearTimeout(keepAlive);
          wake = undefined;
          if (latest === sent && !stream.aborted) await stream.write(': keep-alive\n\n');
        }
      } finally {
        stop();
        closed();
      }
    });
  });

  app.route('/v1/apps/:app/users/:user', scoped);
  app.onError((error, c) => {
    const unreachable = unreachableDatabase(error);
    if (unreachable !== undefined) {
      console.error(`sync server: the database is out of reach (${unreachable}); answered 503`);
      c.header('Retry-After', '1');
      return c.json(
        { error: 'unavailable', message: 'the database is out of reach; try again' } satisfies ErrorAnswer,
        503,
      );
    }
    console.error(error);
    return c.json({ error: 'internal', message: 'the server failed; try again' } satisfies ErrorAnswer, 500);
  });
  return app;
}

/** Change streams one user may hold open unless the options say otherwise. */
export const DEFAULT_MAX_STREAMS_PER_USER = 16;

const isAppKey = (key: string): boolean => key.startsWith('app:');

const refuseAppState = (c: Context, what: string) =>
  fail(
    c,
    403,
    'app-state-forbidden',
    `${what}: this token may not write app: state, which every user of the app sees (nothing was stored)`,
  );

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    return fail(c, 400, 'invalid', 'the request body must be JSON');
  }
}

function checkBody<T>(c: Context, check: () => T): T | Response {
  try {
    return check();
  } catch (error) {
    if (error instanceof InvalidInputError) return fail(c, 400, 'invalid', error.message);
    throw error;
  }
}
