/**
 * `npx tsx bench/sync/comparison.ts [--sessions 1000] [--events 100]`: what the sync server's
 * periodic comparison of its change log with ADK's tables (server/adk-comparison.ts) costs for one
 * user on a throw-away Postgres: a full comparison (every event counted), one after an agreement
 * with nothing moved, and one after a session moved. Each five times; medians, ms.
 */
import { AdkComparison } from '../../server/adk-comparison.js';
import { openDatabase } from '../../server/database.js';
import { ChangeLog, type NewRow } from '../../server/log.js';
import { postgresBin, startPostgres } from '../../test/sync/postgres.js';
import { median } from '../stats.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SESSIONS = flag('sessions', 1000);
const EVENTS = flag('events', 100);
const bin = postgresBin();
if (!bin) throw new Error('Postgres is not installed (/usr/lib/postgresql/*/bin)');
const postgres = await startPostgres(bin);
const database = await openDatabase({ url: postgres.url });
const user = { appName: 'bench', userId: 'u' };
const log = new ChangeLog(database.sql);
let t = Date.now();
const event = (s: number, i: number) => ({
  id: `s${s}-e${i}`,
  invocationId: `inv-${i}`,
  author: 'model',
  timestamp: ++t,
  content: { role: 'model', parts: [{ text: 'a line of a conversation, about as long as people write' }] },
  actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {} },
});

console.log(`filling ${SESSIONS} sessions x ${EVENTS} events`);
for (let s = 0; s < SESSIONS; s++) {
  const sessionId = `s${s}`;
  await database.sessions.createSession({ ...user, sessionId });
  const events = Array.from({ length: EVENTS }, (_, i) => event(s, i));
  await database.appendEvents({ ...user, sessionId }, events as never);
  const rows: NewRow[] = [{ kind: 'created', sessionId, pos: 0, eventId: null, ts: 0, data: {} }];
  events.forEach((e, i) => {
    rows.push({ kind: 'event', sessionId, pos: i + 1, eventId: e.id, ts: e.timestamp, data: e });
  });
  await log.append(user, rows);
}
await database.sql('ANALYZE');

async function timed(label: string, before: () => Promise<AdkComparison>) {
  const ms: number[] = [];
  for (let r = 0; r < 5; r++) {
    const comparison = await before();
    const started = performance.now();
    if (await comparison.differs(user)) throw new Error(`${label}: the log and ADK's tables differ`);
    ms.push(performance.now() - started);
  }
  console.log(`${label}: ${median(ms).toFixed(1)} ms`);
}
let s = 0;
const agreed = async () => {
  const comparison = new AdkComparison(database.sql);
  await comparison.differs(user);
  return comparison;
};
await timed(`full comparison (${SESSIONS * EVENTS} events)`, async () => new AdkComparison(database.sql));
await timed('after an agreement, nothing moved', agreed);
await timed('after an agreement, one session moved (a push)', async () => {
  const comparison = await agreed();
  const sessionId = `s${s++ % SESSIONS}`;
  const e = event(s, EVENTS + s);
  await database.appendEvents({ ...user, sessionId }, [e] as never);
  const head = await log.head(user, sessionId);
  await log.append(user, [
    { kind: 'event', sessionId, pos: (head?.pos ?? 0) + 1, eventId: e.id, ts: e.timestamp, data: e },
  ]);
  return comparison;
});
await database.close();
postgres.stop();
