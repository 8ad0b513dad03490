/**
 * A reply streamed in one tab, read live in another: a second page of the same
 * browser context (opened through Playwright) streams a reply into a draft, in
 * its thread or through its own dedicated worker, and this page follows it with
 * `watchDrafts` and `watchSession(..., { drafts: true })`. What this page sees
 * only grows, is always a prefix of the reply, and the finished event takes the
 * draft's place in one value. When the writing tab is closed before storing what
 * it previewed, this page shows the draft interrupted with what was stored only.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import {
  type Draft,
  IndexedDbSessionService,
  type SessionWithDrafts,
  watchDrafts,
  watchSession,
} from '../../../src/index.js';
import { deleteDatabase, driverLacks, uniqueDbName } from '../helpers.js';

const APP = 'two-tabs';
const USER = 'ada';
const TOKENS = 120;

const reply = (tokens: number): string => Array.from({ length: tokens }, (_, i) => `w${i} `).join('');
const text = (draft: Draft | undefined): string => draft?.content.parts?.map((p) => p.text ?? '').join('') ?? '';

/** Every text seen only grows and is a prefix of the reply. */
function expectGrowingPrefixes(texts: readonly string[], whole: string, label: string): void {
  texts.forEach((seen, i) => {
    expect(whole.startsWith(seen), `${label}: "${seen.slice(-20)}" is a prefix`).toBe(true);
    if (i > 0) expect(seen.length, `${label}: grows`).toBeGreaterThanOrEqual((texts[i - 1] as string).length);
  });
}

describe('two tabs: a reply streamed in one, read live in the other (Playwright)', () => {
  for (const kind of ['in-thread', 'dedicated'] as const) {
    it.skipIf(driverLacks.remotePages)(
      `sees the draft grow and its finished event replace it in one value (writer ${kind})`,
      async () => {
        const dbName = uniqueDbName(`two-tabs-${kind}`);
        const key = { appName: APP, userId: USER, sessionId: 'reply' };
        const reader = new IndexedDbSessionService({ dbName });
        const drafts: string[] = [];
        const values: (SessionWithDrafts | undefined)[] = [];
        const stopDrafts = watchDrafts(reader, key).watch((seen) => {
          if (seen[0]) drafts.push(text(seen[0]));
        });
        const stopSession = watchSession(reader, key, { drafts: true }).watch((value) => values.push(value));
        const id = await commands.remoteOpen('test-context');
        const h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
        await commands.remoteCall(id, 'startDraft', [
          h,
          { ...key, tokens: TOKENS, pauseMs: 8, maxLossMs: 250, seed: 31 },
        ]);
        const whole = reply(TOKENS);
        await expect
          .poll(() => values.at(-1)?.events.map((e) => e.content?.parts?.[0]?.text), { timeout: 20_000 })
          .toEqual([whole]);
        stopDrafts();
        stopSession();
        const closed = await commands.remoteClose(id);
        expect(closed.errors).toEqual([]);

        expectGrowingPrefixes(drafts, whole, 'watchDrafts');
        // Seen growing: more than the first and last sights.
        expect(new Set(drafts).size).toBeGreaterThan(2);
        const shown = values.filter((v) => v !== undefined);
        const withDraft = shown.filter((v) => v.drafts.length > 0);
        expectGrowingPrefixes(
          withDraft.map((v) => text(v.drafts[0])),
          whole,
          'watchSession',
        );
        expect(withDraft.length).toBeGreaterThan(2);
        // From the draft's first sight on, the reply is in every value once: a draft, or the event.
        for (const value of shown.slice(shown.indexOf(withDraft[0] as SessionWithDrafts))) {
          expect(value.drafts.length + value.events.length).toBe(1);
        }
        expect(shown.at(-1)?.drafts).toEqual([]);
        await reader.close();
        await deleteDatabase(dbName);
      },
      60_000,
    );
  }

  it.skipIf(driverLacks.remotePages)(
    'shows a draft whose tab closed before storing what it previewed as interrupted, with what was stored only',
    async () => {
      const dbName = uniqueDbName('two-tabs-closed');
      const key = { appName: APP, userId: USER, sessionId: 'reply' };
      const reader = new IndexedDbSessionService({ dbName });
      let seen: readonly Draft[] = [];
      const stop = watchDrafts(reader, key).watch((drafts) => {
        seen = drafts;
      });
      const id = await commands.remoteOpen('test-context');
      const h = await commands.remoteCall<number>(id, 'open', ['in-thread', dbName]);
      // A loss window no test outlasts: nothing is stored, everything is previewed.
      await commands.remoteCall(id, 'startDraft', [
        h,
        { ...key, tokens: 40, pauseMs: 4, maxLossMs: 600_000, seed: 7, finish: false },
      ]);
      await expect.poll(() => text(seen[0]), { timeout: 20_000 }).toBe(reply(40));
      expect(seen[0]?.previewed).toBe(true);
      expect(seen[0]?.interrupted).toBe(false);
      const closed = await commands.remoteClose(id);
      expect(closed.errors).toEqual([]);
      await expect.poll(() => seen[0]?.interrupted, { timeout: 10_000 }).toBe(true);
      expect(text(seen[0])).toBe('');
      expect(seen[0]?.previewed).toBeUndefined();
      expect((await reader.drafts.list(key))[0]?.content.parts).toEqual([]);
      stop();
      await reader.close();
      await deleteDatabase(dbName);
    },
    60_000,
  );
});
