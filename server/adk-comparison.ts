/**
 * The periodic comparison of the change log with ADK's tables, which finds writers that reach
 * ADK's tables around the server (ADK's dev UI, a Runner of its own). Its cost follows what
 * changed, not what the user holds: after a full comparison found the two alike, the next ones
 * read ADK's sessions of the user (one indexed read of a row per session) and count events only
 * for sessions whose update time moved, that appeared or that went. ADK moves a session's update
 * time on every append (to the event's timestamp), so a write around the server shows there.
 *
 * Contract: a difference is reported for whatever wrote ADK's tables since the last agreement
 * and changed a session's update time or the set of sessions; a write that left a session's update
 * time exactly as it was (an event with the very timestamp of the session's previous last event) is
 * found by the next full comparison, at most `FULL_MS` after the last. Reports can be false alarms
 * (a push committing between the reads): they cost a catch-up that finds nothing.
 */
import type { Sql } from './database.js';
import { ChangeLog, inChunks, type UserKey } from './log.js';

/** How long an agreement stands in for a full comparison. */
export const FULL_MS = 60_000;
/** Users whose agreement is kept, the most recently compared: beyond, the least recent compare fully again. */
const USERS_KEPT = 1_000;

interface Agreement {
  /** When the full comparison it stems from ran, epoch ms. */
  at: number;
  /** ADK's sessions of the user, each with its update time, as the agreement saw them. */
  times: Map<string, string>;
}

const num = (v: unknown): number => Number(v);
/** An update time as a comparable string: Postgres's driver gives a Date, libsql a number or text. */
const timeOf = (v: unknown): string => (v instanceof Date ? String(v.getTime()) : String(v));

export class AdkComparison {
  private readonly agreed = new Map<string, Agreement>();
  private readonly log: ChangeLog;

  constructor(
    private readonly sql: Sql,
    private readonly fullMs = FULL_MS,
  ) {
    this.log = new ChangeLog(sql);
  }

  /** Whether the log and ADK's tables hold different sessions or event counts for `user`. */
  async differs(user: UserKey): Promise<boolean> {
    const key = JSON.stringify([user.appName, user.userId]);
    const before = this.agreed.get(key);
    this.agreed.delete(key);
    const now = Date.now();
    // Read before the counts: a write after this read moves a time the next comparison sees.
    const times = await this.adkSessions(user);
    const full = !before || now - before.at >= this.fullMs;
    const ids = full ? undefined : moved(before.times, times);
    if (ids?.length === 0) {
      this.keep(key, { at: (before as Agreement).at, times });
      return false;
    }
    const logged = await this.log.livePositions(user, ids);
    const counted = await this.adkCounts(user, ids);
    const checked = ids ?? [...new Set([...times.keys(), ...logged.keys()])];
    const differs = checked.some(
      (id) => logged.has(id) !== times.has(id) || (logged.get(id) ?? 0) !== (counted.get(id) ?? 0),
    );
    if (!differs) this.keep(key, { at: full ? now : (before as Agreement).at, times });
    return differs;
  }

  private keep(key: string, agreement: Agreement): void {
    this.agreed.set(key, agreement);
    if (this.agreed.size > USERS_KEPT) this.agreed.delete(this.agreed.keys().next().value as string);
  }

  private async adkSessions({ appName, userId }: UserKey): Promise<Map<string, string>> {
    const rows = await this.sql('SELECT id, update_time FROM sessions WHERE app_name = ? AND user_id = ?', [
      appName,
      userId,
    ]);
    return new Map(rows.map((r) => [String(r.id), timeOf(r.update_time)]));
  }

  /** How many events ADK holds for each session (of `ids`, or all) that has any. */
  private async adkCounts({ appName, userId }: UserKey, ids?: string[]): Promise<Map<string, number>> {
    // No join with `sessions`: with a freshly filled table's stale statistics, Postgres planned
    // it as a nested loop over every event, seconds for 30,000 of them.
    const rows = await inChunks(ids, (among, chunk) =>
      this.sql(
        `SELECT session_id, count(*) AS n FROM events WHERE app_name = ? AND user_id = ?${among('session_id')} GROUP BY session_id`,
        [appName, userId, ...chunk],
      ),
    );
    return new Map(rows.map((r) => [String(r.session_id), num(r.n)]));
  }
}

/** Sessions whose update time moved, that appeared or that went, between `then` and `now`. */
function moved(then: Map<string, string>, now: Map<string, string>): string[] {
  const ids = [...now].filter(([id, time]) => then.get(id) !== time).map(([id]) => id);
  for (const id of then.keys()) if (!now.has(id)) ids.push(id);
  return ids;
}
