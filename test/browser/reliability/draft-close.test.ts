/**
 * A reply streaming into a draft when the user closes the tab: a second page of
 * the same browser context (opened through Playwright) streams a reply, in its
 * thread or through its own dedicated worker, and is closed at a random moment.
 * From this page afterwards: the draft is there, interrupted (the closed tab's
 * lock is gone), its text a prefix of what was streamed holding every chunk
 * older than the loss window; no event holds a partial reply; keeping it stores
 * exactly that text marked interrupted, and resuming it continues without
 * duplicating a word.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { type Draft, IndexedDbSessionService, type Session, watchDrafts } from '../../../src/index.js';
import { report } from '../../reliability/scale.js';
import { random } from '../../reliability/stream.js';
import { deleteDatabase, driverLacks, uniqueDbName } from '../helpers.js';
import { scale } from './scale.js';

const APP = 'draft-close';
const USER = 'ada';
const TOKENS = 200;
const MAX_LOSS_MS = 100;
/** What a write may take on a loaded machine, beyond the loss window. */
const WRITE_SLACK_MS = 400;

const issued = (from: number, to: number): string =>
  Array.from({ length: to - from }, (_, i) => `w${from + i} `).join('');

describe('crash mid-stream: the tab of a streaming reply closed (Playwright)', () => {
  it.skipIf(driverLacks.remotePages)(
    `keeps every chunk older than the loss window, interrupted, never as a complete event (${scale.draftCloseTrials} trials)`,
    async () => {
      const dbName = uniqueDbName('draft-close');
      const rng = random(scale.seed + 7);
      const reader = new IndexedDbSessionService({ dbName });
      const tally = { interrupted: 0, finished: 0, kept: 0, resumed: 0, chunksChecked: 0 };
      for (let t = 0; t < scale.draftCloseTrials; t++) {
        const kind = t % 2 === 0 ? 'in-thread' : 'dedicated';
        const sessionId = `reply-${t}`;
        const key = { appName: APP, userId: USER, sessionId };
        const id = await commands.remoteOpen('test-context');
        const h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
        await commands.remoteCall(id, 'startDraft', [
          h,
          { ...key, tokens: TOKENS, pauseMs: 10, maxLossMs: MAX_LOSS_MS, seed: scale.seed + t },
        ]);
        // The reply takes about a second; the close lands at a random moment of it (or after it, now and then).
        // This page watches the draft as another tab would: it must turn interrupted when the writer's tab goes.
        let watched: readonly Draft[] = [];
        const stopWatching = watchDrafts(reader, key).watch((drafts) => {
          watched = drafts;
        });
        const afterMs = Math.floor(rng() * 1300);
        const closingFrom = Date.now() + afterMs;
        const closed = await commands.remoteCloseAfter(id, { afterAcks: 0, extraMs: afterMs, timeoutMs: 0 });
        expect(closed.errors, `page errors in trial ${t}`).toEqual([]);
        const label = `trial ${t} (${kind})`;
        const session = (await reader.getSession(key)) as Session;
        // Finished before the close (its acknowledgement may not have reached Node before the page went).
        if (closed.acks.includes('finished') || session.events.length > 0) {
          tally.finished++;
          expect(
            session.events.map((e) => e.content?.parts?.[0]?.text),
            label,
          ).toEqual([issued(0, TOKENS)]);
          expect(await reader.drafts.list(key), label).toEqual([]);
          stopWatching();
          continue;
        }
        // No event holds part of the reply: it is a draft until kept or finished.
        expect(session.events, label).toEqual([]);
        await expect.poll(() => watched.map((d) => d.interrupted), { timeout: 10_000 }).toEqual([true]);
        stopWatching();
        tally.interrupted++;
        const [draft] = await reader.drafts.list(key);
        const text = draft?.content.parts?.map((p) => p.text).join('') ?? '';
        expect(issued(0, TOKENS).startsWith(text), `${label}: stored text is a prefix`).toBe(true);
        const stored = text.split(' ').filter(Boolean).length;
        // Every chunk appended a loss window (and a write's time) before the close is stored.
        for (const ack of closed.acks) {
          const [kindOf, index, at] = ack.split(':');
          if (kindOf !== 'd' || Number(at) >= closingFrom - MAX_LOSS_MS - WRITE_SLACK_MS) continue;
          tally.chunksChecked++;
          expect(
            Number(index),
            `${label}: chunk ${index} appended ${closingFrom - Number(at)} ms before the close`,
          ).toBeLessThan(stored);
        }
        if (t % 4 < 2) {
          const kept = await reader.drafts.keep({ session, draftId: 'reply' });
          expect([kept.interrupted, kept.content?.parts?.map((p) => p.text).join('')], label).toEqual([true, text]);
          tally.kept++;
        } else {
          const resumed = await reader.drafts.resume({ session, draftId: 'reply' });
          for (let i = stored; i < TOKENS; i++) resumed.append({ text: `w${i} ` });
          const event = await resumed.finish();
          expect(event.content?.parts, label).toEqual([{ text: issued(0, TOKENS) }]);
          tally.resumed++;
        }
        expect((await reader.getSession(key))?.events, label).toHaveLength(1);
        expect(await reader.drafts.list(key), label).toEqual([]);
      }
      await reader.close();
      await deleteDatabase(dbName);
      expect(tally.interrupted).toBeGreaterThan(0);
      expect(tally.chunksChecked).toBeGreaterThan(0);
      report('crash: streaming reply closed', { seed: scale.seed, trials: scale.draftCloseTrials, ...tally, lost: 0 });
    },
    scale.timeoutMs,
  );
});
