/**
 * Load in a real browser: 4 tabs (each a client with its own dedicated worker,
 * and again as 4 real pages through Playwright), each with 20 concurrent
 * writers, appending to one session per writer or all to one shared session.
 * Everything acknowledged is stored exactly once, each writer's events in its
 * order, state is the fold of the stored deltas; on the shared session the
 * tabs' copies go stale and every stale writer recovers by reload-and-retry.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { IndexedDbSessionService, type Session, type SessionService } from '../../../src/index.js';
import {
  type LoadOptions,
  type LoadOutcome,
  loadProblems,
  prepareLoad,
  sumOutcomes,
  writerKey,
} from '../../reliability/load.js';
import { report } from '../../reliability/scale.js';
import { dedicatedClient, deleteDatabase, driverLacks, uniqueDbName } from '../helpers.js';
import { scale } from './scale.js';

const APP = 'load-app';
const USER = 'load-user';
const SHARED = 'shared';

/** An event written after every tab loaded its copy of the shared session: all copies are stale from the start. */
async function staleEveryCopy(store: SessionService): Promise<void> {
  const session = await store.getSession({ appName: APP, userId: USER, sessionId: SHARED });
  await store.appendEvent({
    session: session as Session,
    event: { id: 'opening', timestamp: 1, actions: { stateDelta: { opened: true } } },
  });
}

async function readBack(
  store: SessionService,
  mode: LoadOptions['mode'],
  tabs: string[],
  writers: number,
): Promise<Session[]> {
  const ids =
    mode === 'shared' ? [SHARED] : tabs.flatMap((tab) => Array.from({ length: writers }, (_, w) => writerKey(tab, w)));
  const sessions: Session[] = [];
  for (const sessionId of ids) {
    const s = await store.getSession({ appName: APP, userId: USER, sessionId });
    if (s) sessions.push(s);
    else throw new Error(`session ${sessionId} is missing`);
  }
  return sessions;
}

function expectOutcome(total: LoadOutcome, mode: LoadOptions['mode'], expected: number): void {
  expect(total.errors).toEqual([]);
  expect(total.appended).toBe(expected);
  if (mode === 'separate') expect(total.staleRejections).toBe(0);
  else {
    // Every tab's first append went through a stale copy, so recovery was exercised.
    expect(total.staleRejections).toBeGreaterThan(0);
    expect(total.reloads).toBeGreaterThan(0);
  }
}

describe('load', () => {
  const { loadTabs: tabs, loadWriters: writers, loadEvents: events } = scale;
  for (const mode of ['separate', 'shared'] as const) {
    it(
      `${tabs} tabs (dedicated workers) x ${writers} writers x ${events} events, ${mode} sessions`,
      async () => {
        const dbName = uniqueDbName(`load-${mode}`);
        const clients = Array.from({ length: tabs }, () => dedicatedClient(dbName).client);
        try {
          if (mode === 'shared') await clients[0]?.createSession({ appName: APP, userId: USER, sessionId: SHARED });
          const labels = clients.map((_, t) => `tab${t}`);
          const options = { appName: APP, userId: USER, writers, events, mode, sharedSessionId: SHARED };
          const prepared = await Promise.all(
            clients.map((c, t) => prepareLoad(c, { ...options, tab: labels[t] as string })),
          );
          if (mode === 'shared') await staleEveryCopy(clients[0] as SessionService);
          const started = performance.now();
          const total = sumOutcomes(await Promise.all(prepared.map((p) => p.run())));
          const seconds = (performance.now() - started) / 1000;
          expectOutcome(total, mode, tabs * writers * events);
          const sessions = await readBack(clients[0] as SessionService, mode, labels, writers);
          expect(loadProblems(sessions, options, labels, mode === 'shared' ? ['opening'] : [])).toEqual([]);
          report(`load, ${tabs} dedicated-worker tabs, ${mode}`, {
            tabs,
            writers,
            eventsPerWriter: events,
            stored: total.appended,
            staleRejections: total.staleRejections,
            reloads: total.reloads,
            seconds: Number(seconds.toFixed(1)),
            lost: 0,
            duplicates: 0,
          });
        } finally {
          await Promise.all(clients.map((c) => c.close()));
          await deleteDatabase(dbName);
        }
      },
      scale.timeoutMs,
    );

    it.skipIf(driverLacks.remotePages)(
      `${tabs} pages (Playwright) x ${writers} writers x ${scale.pageLoadEvents} events, ${mode} sessions`,
      async () => {
        const dbName = uniqueDbName(`page-load-${mode}`);
        const ids = await Promise.all(Array.from({ length: tabs }, () => commands.remoteOpen('test-context')));
        const local = new IndexedDbSessionService({ dbName });
        try {
          if (mode === 'shared') await local.createSession({ appName: APP, userId: USER, sessionId: SHARED });
          const labels = ids.map((_, t) => `page${t}`);
          const options = {
            appName: APP,
            userId: USER,
            writers,
            events: scale.pageLoadEvents,
            mode,
            sharedSessionId: SHARED,
          };
          await Promise.all(
            ids.map(async (id, t) => {
              // Half the pages run the store in their own thread, half in a dedicated worker.
              const h = await commands.remoteCall<number>(id, 'open', [t % 2 ? 'dedicated' : 'in-thread', dbName]);
              await commands.remoteCall(id, 'loadPrepare', [h, { ...options, tab: labels[t] }]);
            }),
          );
          if (mode === 'shared') await staleEveryCopy(local);
          const total = sumOutcomes(
            await Promise.all(ids.map((id) => commands.remoteCall<LoadOutcome>(id, 'loadRun', []))),
          );
          expectOutcome(total, mode, tabs * writers * scale.pageLoadEvents);
          const sessions = await readBack(local, mode, labels, writers);
          expect(loadProblems(sessions, options, labels, mode === 'shared' ? ['opening'] : [])).toEqual([]);
          report(`load, ${tabs} Playwright pages, ${mode}`, {
            tabs,
            writers,
            eventsPerWriter: scale.pageLoadEvents,
            stored: total.appended,
            staleRejections: total.staleRejections,
            reloads: total.reloads,
            lost: 0,
            duplicates: 0,
          });
        } finally {
          await Promise.all(ids.map((id) => commands.remoteClose(id)));
          await local.close();
          await deleteDatabase(dbName);
        }
      },
      scale.timeoutMs,
    );
  }
});
