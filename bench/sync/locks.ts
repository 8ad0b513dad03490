/**
 * `npm run bench:sync:locks`: what holding a user's sequence numbers in Postgres costs, by the three
 * ways server/coordination.ts chose among, on a throw-away cluster: each transaction takes the
 * user's lock, reads `max(seq)` and inserts the next row, as a change-log write does. Eight
 * transactions at once, on one user (every one waits) and on eight users (none waits).
 */
import type { MikroORM } from '@mikro-orm/core';
import { openDatabase } from '../../server/database.js';
import { postgresBin, startPostgres } from '../../test/sync/postgres.js';

const bin = postgresBin();
if (!bin) throw new Error('Postgres is not installed (/usr/lib/postgresql/*/bin)');
const postgres = await startPostgres(bin);
const database = await openDatabase({ url: postgres.url });
const orm = (database.sessions as unknown as { orm: MikroORM }).orm;
const TOTAL = 400;
const AT_ONCE = 8;

type Sql = (query: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
const ways: Record<string, (sql: Sql, user: string) => Promise<number>> = {
  pg_advisory_xact_lock: async (sql, user) => {
    await sql('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [user]);
    const [top] = await sql('SELECT coalesce(max(seq), 0) AS seq FROM bench_log WHERE user_id = ?', [user]);
    return Number(top?.seq) + 1;
  },
  'SELECT … FOR UPDATE': async (sql, user) => {
    await sql('INSERT INTO bench_users (user_id) VALUES (?) ON CONFLICT DO NOTHING', [user]);
    await sql('SELECT user_id FROM bench_users WHERE user_id = ? FOR UPDATE', [user]);
    const [top] = await sql('SELECT coalesce(max(seq), 0) AS seq FROM bench_log WHERE user_id = ?', [user]);
    return Number(top?.seq) + 1;
  },
  'sequence table': async (sql, user) => {
    const [row] = await sql(
      'INSERT INTO bench_counters (user_id, next) VALUES (?, 1) ON CONFLICT (user_id) DO UPDATE SET next = bench_counters.next + 1 RETURNING next',
      [user],
    );
    return Number(row?.next);
  },
};

await database.sql('CREATE TABLE bench_users (user_id text PRIMARY KEY)');
await database.sql('CREATE TABLE bench_counters (user_id text PRIMARY KEY, next bigint NOT NULL)');
await database.sql('CREATE TABLE bench_log (user_id text, seq bigint, data text, PRIMARY KEY (user_id, seq))');
try {
  for (const users of [1, 8]) {
    for (const [name, next] of Object.entries(ways)) {
      await database.sql('TRUNCATE bench_users, bench_counters, bench_log');
      let issued = 0;
      const started = performance.now();
      const worker = async (w: number) => {
        while (issued < TOTAL) {
          issued += 1;
          const user = `u${w % users}`;
          await orm.em.fork().transactional(async (em) => {
            const connection = em.getConnection();
            const sql: Sql = (q, p = []) => connection.execute(q, p, 'all', em.getTransactionContext());
            const seq = await next(sql, user);
            await sql('INSERT INTO bench_log (user_id, seq, data) VALUES (?, ?, ?)', [user, seq, 'x'.repeat(200)]);
          });
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, (_, w) => worker(w)));
      const ms = performance.now() - started;
      console.log(
        `${users === 1 ? 'one user  ' : 'eight users'} | ${name.padEnd(22)} | ${Math.round((TOTAL / ms) * 1000)} commits/s`,
      );
    }
  }
} finally {
  await database.close();
  postgres.stop();
}
