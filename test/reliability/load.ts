/**
 * Load: several tabs, each with many concurrent writers, appending to
 * separate sessions (one per writer) or all to one shared session. A tab's
 * writers share that tab's session object, as the code of one page would;
 * another tab's commit makes it stale, and the writers reload it and retry.
 */
import { type Event, type Session, type SessionService, StaleSessionError } from '../../src/index.js';
import { canonical } from './dump.js';

export interface LoadOptions {
  appName: string;
  userId: string;
  /** Names this tab's writers and their events, unique across tabs. */
  tab: string;
  writers: number;
  events: number;
  /** One session for everyone, or one per writer. */
  mode: 'shared' | 'separate';
  sharedSessionId: string;
}

export interface LoadOutcome {
  appended: number;
  staleRejections: number;
  reloads: number;
  errors: string[];
}

export const writerKey = (tab: string, w: number): string => `${tab}-w${w}`;
export const loadEventId = (tab: string, w: number, i: number): string => `${writerKey(tab, w)}-${i}`;

function loadEvent(tab: string, w: number, i: number): Event {
  const id = loadEventId(tab, w, i);
  return {
    id,
    invocationId: writerKey(tab, w),
    author: 'agent',
    timestamp: 1_900_000_000_000 + i,
    content: { role: 'model', parts: [{ text: id }] },
    actions: { stateDelta: { [writerKey(tab, w)]: i, 'temp:t': i }, artifactDelta: {} },
  };
}

/** The session a group of writers appends through, reloaded once per stale rejection. */
class Holder {
  reloads = 0;
  private reloading: Promise<Session> | undefined;
  constructor(
    private readonly store: SessionService,
    public session: Session,
  ) {}

  /** After `stale` was rejected as stale: the fresh copy (one reload however many writers ask). */
  async fresh(stale: Session): Promise<Session> {
    if (this.session !== stale) return this.session;
    this.reloading ??= (async () => {
      this.reloads++;
      const { appName, userId, id } = stale;
      // A window of one event is enough to append through and is not stale for being filtered.
      const reloaded = await this.store.getSession({ appName, userId, sessionId: id, config: { numRecentEvents: 1 } });
      if (!reloaded) throw new Error(`session ${id} vanished`);
      this.session = reloaded;
      this.reloading = undefined;
      return reloaded;
    })();
    return this.reloading;
  }
}

export interface PreparedTab {
  run(): Promise<LoadOutcome>;
}

/** Loads (or creates) the sessions this tab writes to; `run` then starts every writer at once. */
export async function prepareLoad(store: SessionService, o: LoadOptions): Promise<PreparedTab> {
  const holders: Holder[] = [];
  if (o.mode === 'shared') {
    const session = await store.getSession({
      appName: o.appName,
      userId: o.userId,
      sessionId: o.sharedSessionId,
      config: { numRecentEvents: 1 },
    });
    if (!session) throw new Error('the shared session must exist before the load starts');
    const holder = new Holder(store, session);
    for (let w = 0; w < o.writers; w++) holders.push(holder);
  } else {
    for (let w = 0; w < o.writers; w++) {
      const sessionId = writerKey(o.tab, w);
      holders.push(new Holder(store, await store.createSession({ appName: o.appName, userId: o.userId, sessionId })));
    }
  }
  return {
    async run() {
      const outcome: LoadOutcome = { appended: 0, staleRejections: 0, reloads: 0, errors: [] };
      const writer = async (w: number): Promise<void> => {
        const holder = holders[w] as Holder;
        for (let i = 0; i < o.events; i++) {
          const event = loadEvent(o.tab, w, i);
          for (;;) {
            const session = holder.session;
            try {
              await store.appendEvent({ session, event });
              outcome.appended++;
              break;
            } catch (error) {
              if (!(error instanceof StaleSessionError)) {
                outcome.errors.push(`${event.id}: ${String(error)}`);
                return;
              }
              outcome.staleRejections++;
              await holder.fresh(session);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: o.writers }, (_, w) => writer(w)));
      outcome.reloads = [...new Set(holders)].reduce((n, h) => n + h.reloads, 0);
      return outcome;
    },
  };
}

/** Runs one tab's load from start to end (what a remote page does). */
export async function runLoad(stores: SessionService[], o: LoadOptions): Promise<LoadOutcome> {
  const tabs = await Promise.all(stores.map((s, t) => prepareLoad(s, { ...o, tab: `${o.tab}${t}` })));
  const outcomes = await Promise.all(tabs.map((t) => t.run()));
  return sumOutcomes(outcomes);
}

export function sumOutcomes(outcomes: LoadOutcome[]): LoadOutcome {
  return outcomes.reduce(
    (a, b) => ({
      appended: a.appended + b.appended,
      staleRejections: a.staleRejections + b.staleRejections,
      reloads: a.reloads + b.reloads,
      errors: [...a.errors, ...b.errors],
    }),
    { appended: 0, staleRejections: 0, reloads: 0, errors: [] },
  );
}

/**
 * Problems with what a load left behind, given every tab's name: each
 * writer's events all stored, once each, in its own order; nothing else; and
 * the session state equal to the fold of the stored deltas.
 */
export function loadProblems(
  sessions: Session[],
  o: Omit<LoadOptions, 'tab'>,
  tabs: string[],
  extraIds: string[] = [],
): string[] {
  const problems: string[] = [];
  const expected = new Set(extraIds);
  for (const tab of tabs)
    for (let w = 0; w < o.writers; w++) for (let i = 0; i < o.events; i++) expected.add(loadEventId(tab, w, i));
  const seen = new Map<string, number>();
  for (const s of sessions) {
    const lastIndex = new Map<string, number>();
    const folded: Record<string, unknown> = {};
    for (const e of s.events) {
      seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
      const [writer, index] = splitId(e.id);
      if (writer !== undefined) {
        const before = lastIndex.get(writer) ?? -1;
        if (index <= before) problems.push(`${e.id} is stored after ${writer}-${before} in ${s.id}`);
        lastIndex.set(writer, index);
      }
      const delta = e.actions?.stateDelta ?? {};
      for (const k of Object.keys(delta)) {
        if (k.startsWith('temp:')) problems.push(`${e.id} was stored with ${k}`);
        folded[k] = delta[k];
      }
    }
    const own = Object.fromEntries(Object.entries(s.state).filter(([k]) => !k.includes(':')));
    if (canonical(own) !== canonical(folded)) problems.push(`state of ${s.id} is not the fold of its stored deltas`);
  }
  for (const id of expected) {
    const n = seen.get(id) ?? 0;
    if (n !== 1) problems.push(`${id} stored ${n} times`);
  }
  for (const id of seen.keys()) if (!expected.has(id)) problems.push(`unexpected event ${id}`);
  return problems.slice(0, 20);
}

function splitId(id: string): [string | undefined, number] {
  const at = id.lastIndexOf('-');
  const index = Number(id.slice(at + 1));
  return Number.isInteger(index) && at > 0 ? [id.slice(0, at), index] : [undefined, -1];
}
