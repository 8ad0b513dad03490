/**
 * Compaction events: adk-js's (`isCompacted`, `startTime`, `endTime`, `compactedContent`,
 * `isScratchpad`) and adk-python's (`actions.compaction`) are stored and returned exactly, and
 * `getSession({ config: { fromLatestCompaction: true } })` returns what adk-js's context builder
 * keeps of the whole history. Run on every kind of store, in Node and in browsers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Event, SessionStore } from '../../src/index.js';

export const T = 1_700_000_000_000;
export const key = (sessionId: string) => ({ appName: 'app', userId: 'u', sessionId });

export const plain = (i: number, at = T + i * 1000): Event => ({
  id: `e${i}`,
  invocationId: `inv${Math.floor(i / 2)}`,
  author: i % 2 ? 'agent' : 'user',
  timestamp: at,
  content: { role: i % 2 ? 'model' : 'user', parts: [{ text: `message ${i}` }] },
  actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
});

/** adk-js's CompactedEvent, as its LlmSummarizer makes it. */
export const jsCompaction = (
  id: string,
  at: number,
  startTime: number,
  endTime: number,
  extra: object = {},
): Event => ({
  id,
  invocationId: 'inv-c',
  author: 'system',
  timestamp: at,
  content: { role: 'model', parts: [{ text: `summary ${id}` }] },
  actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
  isCompacted: true,
  startTime,
  endTime,
  compactedContent: `summary ${id}`,
  ...extra,
});

/** adk-python's compaction event in camelCase JSON: times in seconds. */
export const pyCompaction = (id: string, at: number, start: number, end: number): Event => ({
  id,
  invocationId: 'inv-py',
  author: 'user',
  timestamp: at,
  actions: {
    stateDelta: {},
    artifactDelta: {},
    compaction: {
      startTimestamp: start / 1000,
      endTimestamp: end / 1000,
      compactedContent: { role: 'model', parts: [{ text: `summary ${id}` }] },
    },
  },
});

/** adk-js 2.0.0's `getActiveEvents` (context/compaction_utils.js): the events its context builder uses. */
export function adkActiveEvents(events: Event[]): Event[] {
  const isCompacted = (e: Event) => e.isCompacted === true;
  const latest = events.filter(isCompacted).pop();
  return latest
    ? [latest, ...events.filter((e) => !isCompacted(e) && e.timestamp > (latest.endTime as number))]
    : events;
}

export const ids = (events: Event[] | undefined) => (events ?? []).map((e) => e.id);

export function describeCompactionEvents(where: string, open: () => SessionStore): void {
  describe(`compaction events, ${where}`, () => {
    const store = open();
    afterAll(() => store.close());

    async function sessionWith(sessionId: string, events: Event[]) {
      const session = await store.createSession(key(sessionId));
      await store.appendEvents({ session, events });
    }

    it('adk-js and adk-python compaction events come back exactly as appended', async () => {
      const events = [
        plain(0),
        plain(1),
        jsCompaction('js', T + 2000, T, T + 1000, { isScratchpad: true, customMetadata: { k: 1 } }),
        pyCompaction('py', T + 3000, T, T + 2000),
        // adk-python's own snake_case, where no camelCase conversion ran: kept as written.
        {
          id: 'snake',
          timestamp: T + 4000,
          actions: { compaction: { start_timestamp: 1, end_timestamp: 2.5 } },
        } as Event,
      ];
      await sessionWith('round-trip', events);
      const read = await store.getSession(key('round-trip'));
      expect(read?.events).toEqual(events);
      expect(JSON.stringify(read?.events)).toBe(JSON.stringify(events));
    });

    it('fromLatestCompaction: the latest compaction, the events after the span it covers, and everything after it', async () => {
      const events = [
        ...[0, 1, 2, 3, 4].map((i) => plain(i)),
        jsCompaction('c0', T + 5000, T, T + 2000), // older: covered by c1's span, left out
        ...[6, 7, 8].map((i) => plain(i)),
        jsCompaction('c1', T + 9000, T, T + 6000), // e7, e8 are later than its span: kept
        plain(10),
        plain(11),
      ];
      await sessionWith('latest', events);
      const read = await store.getSession({ ...key('latest'), config: { fromLatestCompaction: true } });
      expect(ids(read?.events)).toEqual(['e7', 'e8', 'c1', 'e10', 'e11']);
      expect(ids(adkActiveEvents(read?.events ?? []))).toEqual(ids(adkActiveEvents(events)));
      // The state is the session's, whatever the events.
      const full = await store.getSession(key('latest'));
      expect(read?.state).toEqual(full?.state);
    });

    it('fromLatestCompaction with no compaction returns every event; with the other filters, both apply', async () => {
      const events = [0, 1, 2, 3].map((i) => plain(i));
      await sessionWith('none', events);
      const read = await store.getSession({ ...key('none'), config: { fromLatestCompaction: true } });
      expect(read?.events).toEqual(events);
      await sessionWith('both', [plain(0), jsCompaction('c', T + 1000, T, T), plain(2), plain(3)]);
      const recent = await store.getSession({
        ...key('both'),
        config: { fromLatestCompaction: true, numRecentEvents: 2 },
      });
      expect(ids(recent?.events)).toEqual(['e2', 'e3']);
      const after = await store.getSession({
        ...key('both'),
        config: { fromLatestCompaction: true, afterTimestamp: T + 2000 },
      });
      expect(ids(after?.events)).toEqual(['e2', 'e3']);
    });

    it('fromLatestCompaction reads adk-python’s compaction, its end in seconds against times in milliseconds', async () => {
      const events = [...[0, 1, 2, 3].map((i) => plain(i)), pyCompaction('py', T + 4000, T, T + 2000), plain(5)];
      await sessionWith('python', events);
      const read = await store.getSession({ ...key('python'), config: { fromLatestCompaction: true } });
      expect(ids(read?.events)).toEqual(['e3', 'py', 'e5']);
    });

    it('a compaction without an end covers everything before it', async () => {
      const bare = { id: 'bare', timestamp: T + 3000, isCompacted: true } as Event;
      await sessionWith('bare', [plain(0), plain(1), bare, plain(4)]);
      const read = await store.getSession({ ...key('bare'), config: { fromLatestCompaction: true } });
      expect(ids(read?.events)).toEqual(['bare', 'e4']);
    });

    it('refuses a fromLatestCompaction that is not a boolean, and compaction fields of the wrong type', async () => {
      await expect(
        store.getSession({ ...key('none'), config: { fromLatestCompaction: 'yes' as unknown as boolean } }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      const session = await store.createSession(key('bad'));
      await expect(
        store.appendEvent({ session, event: { id: 'x', timestamp: T, endTime: 'soon' as unknown as number } }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });
}
