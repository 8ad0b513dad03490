/**
 * What the page-side client makes of hosts that do not answer as this version's
 * does: an older worker still serving after a deploy, a worker that throws
 * outside the store's answers, one that answers part of a round, and rounds
 * larger than one message may carry.
 */
import { expose } from 'comlink';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_BATCHES } from '../../src/core/limits.js';
import type { HostApi } from '../../src/host/api.js';
import { createHost } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore, InvalidInputError, type Session, StorageError } from '../../src/index.js';
import type { AppendBatch } from '../../src/sessions/protocol.js';
import { makeEvent } from '../contract/contract.js';

const APP = 'app';
const USER = 'u';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

/** A client talking to `host` (this version's, edited by the test), and the names of the calls it posts. */
function clientOf(host: HostApi) {
  const { port1, port2 } = new MessageChannel();
  expose(host, port1);
  const post = vi.spyOn(port2, 'postMessage');
  const client = connectSessionStore(port2, { dbName: 'answers' });
  open.push(client);
  const posted = () => post.mock.calls.map(([m]) => (m as { path?: string[] }).path?.[0]);
  return { client, posted };
}

/**
 * This version's host over a fresh store, edited: `without` calls removed, and
 * its hello's list of calls given by `listed` (no list at all for `undefined`).
 */
function editedHost(without: (keyof HostApi)[], listed: (methods: string[]) => string[] | undefined): HostApi {
  const engine = new StoreEngine({ indexedDB: new IDBFactory(), dbName: 'edited' });
  open.push(engine);
  const host: Partial<HostApi> = { ...createHost(() => engine) };
  for (const method of without) delete host[method];
  const hello = host.hello as HostApi['hello'];
  host.hello = async (request) => {
    const answer = await hello(request);
    if (answer.ok) {
      const methods = listed(answer.value.methods ?? []);
      if (methods) answer.value.methods = methods;
      else delete answer.value.methods;
    }
    return answer;
  };
  return host as HostApi;
}

/** A host from before `methods` and `appendMany` (and search). */
const olderHost = (): HostApi => editedHost(['appendMany', 'searchEvents'], () => undefined);

/** This version's host, saying in its hello that it serves only the calls `serves` keeps. */
const hostServing = (serves: (method: string) => boolean): HostApi =>
  editedHost([], (methods) => methods.filter(serves));

/** A bare session object, as a page may hold one from elsewhere (no revision known). */
const sessionNamed = (id: string): Session => ({
  id,
  appName: APP,
  userId: USER,
  state: {},
  events: [],
  lastUpdateTime: 0,
});

describe('a host that is not this version', () => {
  it('falls back to one session at a time when an older worker lacks appendMany, and stores every append once', async () => {
    const { client, posted } = clientOf(olderHost());
    const sessions = await Promise.all(
      ['a', 'b', 'c'].map((id) => client.createSession({ appName: APP, userId: USER, sessionId: id })),
    );
    for (const round of [1, 2]) {
      await Promise.all(
        sessions.map((session) => client.appendEvent({ session, event: makeEvent({ id: `${session.id}${round}` }) })),
      );
    }
    // Asked once (the host could not say), then never again.
    expect(posted().filter((p) => p === 'appendMany')).toHaveLength(1);
    expect(posted().filter((p) => p === 'appendEvents')).toHaveLength(6);
    for (const id of ['a', 'b', 'c']) {
      const stored = await client.getSession({ appName: APP, userId: USER, sessionId: id });
      expect(stored?.events.map((e) => e.id)).toEqual([`${id}1`, `${id}2`]);
    }
  });

  it('refuses on the page a call the worker says it does not serve, naming why', async () => {
    const { client, posted } = clientOf(hostServing((m) => m !== 'searchEvents'));
    await client.listSessions({ appName: APP, userId: USER });
    const refused = client.searchEvents({ appName: APP, userId: USER, query: 'hello' });
    await expect(refused).rejects.toBeInstanceOf(StorageError);
    await expect(refused).rejects.toThrow(/older store worker/);
    expect(posted()).not.toContain('searchEvents');
  });

  it('tells a call the worker threw on (not the request) as a StorageError, never as bad input', async () => {
    const { client } = clientOf(olderHost());
    // The host predates the list and lacks the call: Comlink's own error comes back.
    const thrown = client.searchEvents({ appName: APP, userId: USER, query: 'hello' });
    await expect(thrown).rejects.toBeInstanceOf(StorageError);
    await expect(thrown).rejects.not.toBeInstanceOf(InvalidInputError);
  });

  it('still tells a request the structured clone refuses as InvalidInputError', async () => {
    const { client } = clientOf(olderHost());
    const refused = client.createSession({ appName: APP, userId: USER, state: { at: Symbol('x') } as never });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe('rounds of appends', () => {
  /** A host that answers every append round with `answer`, and records the size of each round. */
  function scriptedHost(answer: (batches: AppendBatch[]) => unknown[]) {
    const rounds: number[] = [];
    const host = {
      hello: async () => ({ ok: true, value: { dbName: 'answers', lockName: null } }),
      whenClosed: () => new Promise(() => {}),
      goodbye: async () => ({ ok: true, value: undefined }),
      appendMany: async (batches: AppendBatch[]) => {
        rounds.push(batches.length);
        return { ok: true, value: answer(batches) };
      },
    } as unknown as HostApi;
    return { host, rounds };
  }
  const stored = (batch: AppendBatch) => ({
    ok: true,
    value: { ref: null, lastUpdateTime: 1, results: batch.events.map(() => null) },
  });

  it('splits a round larger than one message may carry, and answers every append', async () => {
    const { host, rounds } = scriptedHost((batches) => batches.map(stored));
    const { client } = clientOf(host);
    const count = MAX_BATCHES + 1;
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        client.appendEvent({ session: sessionNamed(`s${i}`), event: makeEvent() }),
      ),
    );
    expect(results).toHaveLength(count);
    expect(rounds).toEqual([MAX_BATCHES, 1]);
    // Thousands of appends validated and cloned: 3 s alone, past 5 s beside the other files on 2 cores.
  }, 30_000);

  it('rejects the appends a host left unanswered instead of leaving them pending', async () => {
    const { host } = scriptedHost((batches) => batches.slice(0, 1).map(stored));
    const { client } = clientOf(host);
    const settled = await Promise.allSettled(
      ['a', 'b', 'c'].map((id) => client.appendEvent({ session: sessionNamed(id), event: makeEvent() })),
    );
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(StorageError);
  });
});
