/**
 * The LISTEN connection of a Postgres server process (server/listen.ts), over a driver double: a
 * connection that stops answering without closing (what a NAT or proxy does to an idle one) is
 * replaced and the listeners caught up; one that answers is kept; one that ends is made again.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { type ListenClient, listenOn, type RawConnections } from '../../../server/listen.js';

class FakeConnection extends EventEmitter implements ListenClient {
  /** A silent connection: queries sent on it are never answered, and no event says so. */
  silent = false;
  destroyed = false;
  readonly queries: string[] = [];
  query(text: string): Promise<unknown> {
    this.queries.push(text);
    return this.silent ? new Promise(() => {}) : Promise.resolve({ rows: [] });
  }
  notify(payload: string) {
    this.emit('notification', { channel: 'sync_changes', payload });
  }
}

function driver() {
  const made: FakeConnection[] = [];
  const raw: RawConnections = {
    acquireRawConnection: async () => {
      const c = new FakeConnection();
      made.push(c);
      return c;
    },
    destroyRawConnection: async (c) => {
      (c as FakeConnection).destroyed = true;
    },
  };
  return { raw, made };
}

const HEARTBEAT = 40;

describe('the LISTEN connection', () => {
  it('replaces a connection that stops answering without closing, and catches the listeners up', async () => {
    const { raw, made } = driver();
    const heard: string[] = [];
    const resumed = vi.fn();
    const listening = await listenOn(raw, 'sync_changes', (p) => heard.push(p), resumed, HEARTBEAT);
    try {
      const first = made[0] as FakeConnection;
      expect(first.queries).toEqual(['LISTEN sync_changes']);
      expect(resumed).toHaveBeenCalledTimes(1);
      first.silent = true;
      // At most two heartbeats to notice, then the reconnect delay (1 s).
      await vi.waitFor(() => expect(made).toHaveLength(2), { timeout: 3_000, interval: 20 });
      await vi.waitFor(() => expect(resumed).toHaveBeenCalledTimes(2), { timeout: 1_000, interval: 20 });
      expect(first.destroyed).toBe(true);
      const second = made[1] as FakeConnection;
      expect(second.queries[0]).toBe('LISTEN sync_changes');
      second.notify('["chat","alice",7]');
      first.notify('["chat","alice",8]');
      // The dropped connection is no longer listened to; its late notices are not what counts.
      expect(heard).toEqual(['["chat","alice",7]', '["chat","alice",8]']);
    } finally {
      await listening.close();
    }
  });

  it('keeps a connection that answers its checks', async () => {
    const { raw, made } = driver();
    const resumed = vi.fn();
    const listening = await listenOn(raw, 'sync_changes', () => {}, resumed, HEARTBEAT);
    try {
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT * 6));
      const only = made[0] as FakeConnection;
      expect(made).toHaveLength(1);
      expect(only.queries.filter((q) => q === 'SELECT 1').length).toBeGreaterThanOrEqual(3);
      expect(only.destroyed).toBe(false);
      expect(resumed).toHaveBeenCalledTimes(1);
    } finally {
      await listening.close();
    }
    expect((made[0] as FakeConnection).destroyed).toBe(true);
  });

  it('makes a connection again after it ends, and stops checking once closed', async () => {
    const { raw, made } = driver();
    const resumed = vi.fn();
    const listening = await listenOn(raw, 'sync_changes', () => {}, resumed, HEARTBEAT);
    (made[0] as FakeConnection).emit('end');
    await vi.waitFor(() => expect(resumed).toHaveBeenCalledTimes(2), { timeout: 3_000, interval: 20 });
    await listening.close();
    const last = made[1] as FakeConnection;
    const checks = last.queries.length;
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT * 3));
    expect(last.queries).toHaveLength(checks);
    expect(made).toHaveLength(2);
  });
});
