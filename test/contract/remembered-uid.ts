/**
 * An engine remembers each session's uid, and where its events ended, to read
 * its events in the same round as its record. That memory goes stale when
 * another instance appends to the session, or deletes it and creates it again;
 * reads must then still return the session as stored, whatever the read's filter.
 */
import { describe, expect, it } from 'vitest';
import type { Event, SessionService } from '../../src/index.js';

const event = (id: string, timestamp: number): Event => ({ id, invocationId: 'i', timestamp });
const key = { appName: 'app', userId: 'u', sessionId: 's' };

export function describeRememberedUid(label: string, openTwo: () => [SessionService, SessionService]): void {
  describe(`reads with a remembered uid: ${label}`, () => {
    it('return the session created again by another instance, with every filter', async () => {
      const [a, b] = openTwo();
      const first = await a.createSession(key);
      for (const [i, t] of [10, 20, 30].entries()) await a.appendEvent({ session: first, event: event(`old${i}`, t) });
      // `a` now remembers the first incarnation's uid.
      expect((await a.getSession(key))?.events.map((e) => e.id)).toEqual(['old0', 'old1', 'old2']);

      await b.deleteSession(key);
      const second = await b.createSession({ ...key, state: { again: true } });
      await b.appendEvent({ session: second, event: event('new0', 15) });
      await b.appendEvent({ session: second, event: event('new1', 25) });

      const ids = async (config?: { numRecentEvents?: number; afterTimestamp?: number }) =>
        (await a.getSession({ ...key, ...(config ? { config } : {}) }))?.events.map((e) => e.id);
      expect(await ids({ numRecentEvents: 1 })).toEqual(['new1']);
      expect(await ids({ afterTimestamp: 20 })).toEqual(['new1']);
      expect(await ids()).toEqual(['new0', 'new1']);
      expect((await a.getSession(key))?.state).toEqual({ again: true });

      await b.deleteSession(key);
      expect(await a.getSession(key)).toBeUndefined();
      await a.close();
      await b.close();
    });

    it('return the newest events in a window after another instance appended a few, or many', async () => {
      const [a, b] = openTwo();
      const session = await a.createSession(key);
      const appendTo = async (service: SessionService, from: number, count: number) => {
        const current = (await service.getSession(key)) as typeof session;
        await Promise.all(
          Array.from({ length: count }, (_, k) =>
            service.appendEvent({ session: current, event: event(`e${from + k}`, from + k) }),
          ),
        );
      };
      const recent = async (config: { numRecentEvents: number; afterTimestamp?: number }) =>
        (await a.getSession({ ...key, config }))?.events.map((e) => e.id);
      await appendTo(a, 0, 10);
      // `a` now remembers the session as 10 events long.
      expect(await recent({ numRecentEvents: 3 })).toEqual(['e7', 'e8', 'e9']);

      await appendTo(b, 10, 5);
      expect(await recent({ numRecentEvents: 3 })).toEqual(['e12', 'e13', 'e14']);
      await appendTo(b, 15, 300);
      expect(await recent({ numRecentEvents: 3 })).toEqual(['e312', 'e313', 'e314']);
      await appendTo(b, 315, 2);
      expect(await recent({ numRecentEvents: 4, afterTimestamp: 314 })).toEqual(['e314', 'e315', 'e316']);
      expect(await recent({ numRecentEvents: 400 })).toHaveLength(317);
      await a.close();
      await b.close();
    });
  });
}
