import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Device, device, say, textsOf } from '../devices.js';
import { type FaultyNetwork, faultyNetwork } from '../faults.js';
import { type ServerProcess, TOKENS } from '../server-process.js';

/** Network faults, crashes and server restarts: nothing acknowledged is lost or doubled. */
export function faultsSuite(server: () => ServerProcess): void {
  const open: Device[] = [];
  const alice = (net?: FaultyNetwork): Device => {
    const d = device(server().url, TOKENS.alice, net ? { fetch: net.fetch } : {});
    open.push(d);
    return d;
  };
  const key = (sessionId: string) => ({ appName: 'chat', userId: 'alice', sessionId });

  afterAll(async () => {
    for (const d of open) await d.close();
  });

  describe('network faults', () => {
    it('a push whose answer is lost after the server stored it is replayed without duplicates', async () => {
      const net = faultyNetwork();
      const a = alice(net);
      const b = alice();
      await a.store.createSession({ ...key('lost-answer') });
      await a.sync.syncNow();
      await say(a.store, 'lost-answer', 'one', 'two');
      net.next('drop-answer', { method: 'POST', path: /\/events$/ });
      const failed = await a.sync.syncNow();
      expect(failed.lastError?.kind).toBe('network');
      expect(failed.pending).toBe(2);
      const ok = await a.sync.syncNow();
      expect(ok.lastError).toBeNull();
      expect(ok.pending).toBe(0);
      await b.sync.syncNow();
      expect(await textsOf(b.store, 'lost-answer')).toEqual(['one', 'two']);
      expect(await textsOf(a.store, 'lost-answer')).toEqual(['one', 'two']);
    });

    it('a lost push answer, then another device pushes: the replay meets its own events among the newer ones', async () => {
      const net = faultyNetwork();
      const a = alice(net);
      const b = alice();
      await a.store.createSession(key('lost-then-other'));
      await a.sync.syncNow();
      await b.sync.syncNow();
      await say(a.store, 'lost-then-other', 'a1');
      net.next('drop-answer', { method: 'POST', path: /\/events$/ });
      await a.sync.syncNow();
      await say(b.store, 'lost-then-other', 'b1');
      await b.sync.syncNow();
      await say(a.store, 'lost-then-other', 'a2');
      expect((await a.sync.syncNow()).lastError).toBeNull();
      await b.sync.syncNow();
      expect(await textsOf(a.store, 'lost-then-other')).toEqual(['a1', 'b1', 'a2']);
      expect(await textsOf(b.store, 'lost-then-other')).toEqual(['a1', 'b1', 'a2']);
    });

    it('a lost create answer: the replay finds the session there and the device adopts it', async () => {
      const net = faultyNetwork();
      const a = alice(net);
      await a.store.createSession({ ...key('lost-create'), state: { n: 1 } });
      await say(a.store, 'lost-create', 'x');
      net.next('drop-answer', { method: 'POST', path: /\/sessions$/ });
      expect((await a.sync.syncNow()).lastError?.kind).toBe('network');
      expect((await a.sync.syncNow()).pending).toBe(0);
      const b = alice();
      await b.sync.syncNow();
      expect(await textsOf(b.store, 'lost-create')).toEqual(['x']);
      expect((await b.store.getSession(key('lost-create')))?.state).toMatchObject({ n: 1, last: 'x' });
    });

    it('a push sent twice stores each event once', async () => {
      const net = faultyNetwork();
      const a = alice(net);
      await a.store.createSession(key('twice'));
      await a.sync.syncNow();
      await say(a.store, 'twice', 'p', 'q');
      net.next('send-twice', { method: 'POST', path: /\/events$/ });
      expect((await a.sync.syncNow()).lastError).toBeNull();
      const b = alice();
      await b.sync.syncNow();
      expect(await textsOf(b.store, 'twice')).toEqual(['p', 'q']);
    });

    it('the device crashes after a pull arrived and before it was stored: the next pull brings it again', async () => {
      const net = faultyNetwork();
      const a = alice();
      const b = alice(net);
      await a.store.createSession(key('crash-pull'));
      await say(a.store, 'crash-pull', 'm1', 'm2');
      await a.sync.syncNow();
      net.next('drop-answer', { method: 'GET', path: /\/changes$/ });
      expect((await b.sync.syncNow()).lastError?.kind).toBe('network');
      await b.reload();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect(await textsOf(b.store, 'crash-pull')).toEqual(['m1', 'm2']);
    });

    it('duplicated and reordered deliveries of a pull change nothing', async () => {
      const net = faultyNetwork();
      const a = alice();
      const b = alice(net);
      await a.store.createSession(key('dup'));
      await say(a.store, 'dup', 'd1', 'd2', 'd3');
      await a.sync.syncNow();
      net.next('duplicate-changes', { method: 'GET', path: /\/changes$/ });
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect(await textsOf(b.store, 'dup')).toEqual(['d1', 'd2', 'd3']);
      await say(a.store, 'dup', 'd4', 'd5');
      await a.sync.syncNow();
      net.next('reorder-changes', { method: 'GET', path: /\/changes$/ });
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect(await textsOf(b.store, 'dup')).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);
    });

    it('retries on its own schedule with backoff: back online, pending work goes without anyone asking', async () => {
      const net = faultyNetwork();
      const a = device(server().url, TOKENS.alice, { fetch: net.fetch, retry: { minMs: 50, maxMs: 200 } });
      open.push(a);
      net.offline();
      await a.store.createSession(key('by-itself'));
      await say(a.store, 'by-itself', 'queued');
      a.sync.start();
      await vi.waitUntil(() => a.sync.status().phase === 'offline', { timeout: 20_000 });
      const failedCalls = net.calls.length;
      await vi.waitUntil(() => net.calls.length > failedCalls, { timeout: 20_000 });
      net.online();
      await vi.waitUntil(() => a.sync.status().pending === 0 && a.sync.status().online, {
        timeout: 20_000,
        interval: 20,
      });
      const b = alice();
      await b.sync.syncNow();
      expect(await textsOf(b.store, 'by-itself')).toEqual(['queued']);
    });

    it('offline: pending counts up and nothing is lost; back online it syncs', async () => {
      const net = faultyNetwork();
      const a = alice(net);
      net.offline();
      await a.store.createSession(key('offline'));
      await say(a.store, 'offline', 'o1', 'o2');
      const off = await a.sync.syncNow();
      expect(off).toMatchObject({ phase: 'offline', online: false, pending: 3 });
      expect(off.sessions.offline).toBe(3);
      net.online();
      expect(await a.sync.syncNow()).toMatchObject({ phase: 'idle', online: true, pending: 0, lastError: null });
    });

    it('a server restart (killed mid-run) loses nothing acknowledged', async () => {
      const a = alice();
      const b = alice();
      await a.store.createSession(key('restart'));
      await say(a.store, 'restart', 'r1');
      await a.sync.syncNow();
      await server().restart(true);
      // The devices keep the server's address: the restarted server listens on the same port.
      await say(a.store, 'restart', 'r2');
      expect((await a.sync.syncNow()).lastError).toBeNull();
      await b.sync.syncNow();
      expect(await textsOf(b.store, 'restart')).toEqual(['r1', 'r2']);
    }, 60_000);
  });
}
