/**
 * The database's own limit for the load bench's writes: the rows a push of K events leaves in
 * Postgres (K rows of ADK's `events`, K of the change log numbered under the user's lock, the
 * session's state and update time), written by hand as one transaction per push with multi-row
 * inserts, by as many writers at once as the bench has devices. No HTTP, no ORM, no validation:
 * what is left when everything the server does above the database is taken away.
 */
import { knex as makeKnex } from '@mikro-orm/postgresql';

export interface RawLoad {
  events: number;
  ms: number;
}

interface RawEvent {
  id: string;
  invocationId: string;
  timestamp: number;
  actions: { stateDelta: Record<string, unknown> };
}

/**
 * `devices` writers, each pushing `perPush` events from `make` to a session of its own, `rounds`
 * times; `userOf(i)` is the (app, user) device `i` writes as (one for all: their pushes queue on
 * that user's lock, as the server's do).
 */
export async function rawLoad(
  url: string,
  options: {
    devices: number;
    rounds: number;
    perPush: number;
    userOf: (i: number) => { appName: string; userId: string };
    make: (k: number, text: string) => RawEvent;
  },
): Promise<RawLoad> {
  const db = makeKnex({ client: 'pg', connection: url, pool: { min: 0, max: 20 } });
  try {
    const now = new Date();
    await Promise.all(
      Array.from({ length: options.devices }, (_, i) =>
        db('sessions').insert({
          ...ids(options.userOf(i)),
          id: `raw-${i}`,
          state: JSON.stringify({}),
          create_time: now,
          update_time: now,
        }),
      ),
    );
    const started = performance.now();
    for (let round = 0; round < options.rounds; round++) {
      await Promise.all(
        Array.from({ length: options.devices }, (_, i) =>
          db.transaction(async (tx) => {
            const user = ids(options.userOf(i));
            const events = Array.from({ length: options.perPush }, (_, k) => options.make(k, `r${round}`));
            await tx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`${user.app_name}/${user.user_id}`]);
            const [{ max }] = (await tx('sync_changes').where(user).max('seq as max')) as [{ max: string | null }];
            const head = Number(max ?? 0);
            await tx('events').insert(
              events.map((e) => ({
                ...user,
                id: e.id,
                session_id: `raw-${i}`,
                invocation_id: e.invocationId,
                timestamp: new Date(e.timestamp),
                event_data: JSON.stringify(e),
              })),
            );
            await tx('sync_changes').insert(
              events.map((e, k) => ({
                ...user,
                seq: head + k + 1,
                kind: 'event',
                session_id: `raw-${i}`,
                pos: round * options.perPush + k + 1,
                event_id: e.id,
                ts: e.timestamp,
                data: JSON.stringify(e),
              })),
            );
            const delta = Object.assign({}, ...events.map((e) => e.actions.stateDelta));
            await tx('sessions')
              .where({ ...user, id: `raw-${i}` })
              .update({
                state: tx.raw('state || ?::jsonb', [JSON.stringify(delta)]),
                update_time: new Date(events.at(-1)?.timestamp ?? Date.now()),
              });
          }),
        ),
      );
    }
    return { events: options.devices * options.rounds * options.perPush, ms: performance.now() - started };
  } finally {
    await db.destroy();
  }
}

const ids = ({ appName, userId }: { appName: string; userId: string }) => ({ app_name: appName, user_id: userId });
