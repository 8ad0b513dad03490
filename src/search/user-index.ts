/**
 * One app and user's full-text index: MiniSearch shards in memory, each saved
 * whole with the marker of what it holds (see ./records.ts). It is brought up
 * to date from the events themselves, never from what a change notice says:
 * a notice only names a session to look at again. A session whose revision is
 * ahead of its mark is re-read (only its new events, when nothing older was
 * replaced), so an index that missed notices (a crash, another tab's worker)
 * catches up on the next look.
 */
import MiniSearch from 'minisearch';
import type { MatchMode, QueryTerm } from '../core/text/match.js';
import { byRank, type Doc, options, queryOf, scoreOf } from '../core/text/minisearch.js';
import { bound, type Db } from '../database/idb/index.js';
import { type EventRecord, eventOf, type SessionRecord, type StoreSchema } from '../database/records/index.js';
import { SEARCH_FORMAT, type SearchShardRecord, type SessionMark } from '../database/records/search.js';
import { eventText } from './text.js';

/** A shard takes new sessions until it holds this many events: saving one stays short. */
export const SHARD_EVENTS = 5_000;
/** Sessions re-read per transaction while catching up, so the worker answers other calls in between. */
const CATCH_UP_BATCH = 16;

const docId = (uid: string, seq: number): string => `${uid}/${seq}`;
const sameErasures = (mark: SessionMark, record: SessionRecord): boolean =>
  (mark.erasures ?? 0) === (record.erasures ?? 0);
/** Whether `mark` holds the session as `record` says it is now. */
const current = (mark: SessionMark, record: SessionRecord): boolean =>
  mark.revision === record.revision && sameErasures(mark, record);

/** A ranked candidate: an event the index says matches, to be checked against the stored event. */
export interface Candidate {
  uid: string;
  seq: number;
  sessionId: string;
  score: number;
  /** The event's timestamp, and the rest of the order for equal scores (see `byRank`). */
  t: number;
  key: string;
}

interface Shard {
  index: MiniSearch<Doc>;
  /** Changed since it was last saved. */
  dirty: boolean;
}

type Run = (work: (db: Db<StoreSchema>) => Promise<void>) => Promise<void>;

export class UserIndex {
  private shards: Shard[] = [];
  /** Which shard holds each session, and at which revision: by uid and by session id. */
  private readonly marks = new Map<string, SessionMark & { shard: number }>();
  private readonly bySession = new Map<string, string>();
  /** Sessions to look at again. */
  private readonly stale = new Set<string>();
  /** Saved shards of another format were found: they are deleted before the next save. */
  clearSaved = false;
  private catching: Promise<void> | undefined;

  constructor(
    readonly appName: string,
    readonly userId: string,
  ) {}

  /** Loads the saved shards (dropping them all if any is of another format) and marks every changed session. */
  async load(run: Run): Promise<void> {
    const { appName, userId } = this;
    await run(async (db) => {
      const tx = db.transaction(['searchShards', 'sessions'], 'readonly');
      const [saved, sessions] = await Promise.all([
        tx.objectStore('searchShards').getAll(bound([appName, userId], [appName, userId, Number.POSITIVE_INFINITY])),
        tx.objectStore('sessions').getAll(bound([appName, userId], [appName, userId, []])),
      ]);
      const usable = saved.every((r) => r.format === SEARCH_FORMAT) ? saved : [];
      this.clearSaved = usable.length < saved.length;
      for (const record of usable) this.adopt(record);
      const live = new Map(sessions.map((s) => [s.uid, s]));
      // Marks of incarnations that are gone (deleted or replaced while no index was loaded).
      for (const mark of [...this.marks.values()]) if (!live.has(mark.uid)) this.purge(mark.uid);
      for (const s of sessions) {
        const mark = this.marks.get(s.uid);
        if (mark) this.bySession.set(s.id, s.uid);
        if (!mark || !current(mark, s)) this.stale.add(s.id);
      }
    });
  }

  /**
   * Takes in a saved shard. Two tabs' workers may each have put a session in a
   * shard of their own: the first shard that holds it keeps it, the others drop
   * its events, so no event is ever indexed twice.
   */
  private adopt(record: SearchShardRecord): void {
    const shard: Shard = { index: MiniSearch.loadJSON<Doc>(record.index, options), dirty: false };
    this.shards[record.shard] = shard;
    for (const mark of record.sessions) {
      if (this.marks.has(mark.uid)) {
        for (const seq of mark.seqs) shard.index.discard(docId(mark.uid, seq));
        shard.dirty = true;
        continue;
      }
      this.marks.set(mark.uid, { ...mark, shard: record.shard });
    }
  }

  /** Drops an incarnation's indexed events. */
  private purge(uid: string): void {
    const mark = this.marks.get(uid);
    if (!mark) return;
    const shard = this.shards[mark.shard] as Shard;
    for (const seq of mark.seqs) shard.index.discard(docId(uid, seq));
    shard.dirty = true;
    this.marks.delete(uid);
    if (this.bySession.get(mark.sessionId) === uid) this.bySession.delete(mark.sessionId);
  }

  /** A session to look at again before the next search. */
  touch(sessionId: string): void {
    this.stale.add(sessionId);
  }

  get behind(): boolean {
    return this.stale.size > 0;
  }

  /** Brings every session marked stale up to date; one catch-up at a time. */
  async catchUp(run: Run): Promise<void> {
    while (this.stale.size > 0 || this.catching) {
      if (this.catching) {
        await this.catching;
        continue;
      }
      const batch = [...this.stale].slice(0, CATCH_UP_BATCH);
      for (const id of batch) this.stale.delete(id);
      this.catching = run((db) => this.refresh(db, batch)).then(
        () => {
          this.catching = undefined;
        },
        (error: unknown) => {
          for (const id of batch) this.stale.add(id);
          this.catching = undefined;
          throw error;
        },
      );
      await this.catching;
    }
  }

  private async refresh(db: Db<StoreSchema>, sessionIds: string[]): Promise<void> {
    const { appName, userId } = this;
    const tx = db.transaction(['sessions', 'events'], 'readonly');
    const sessions = tx.objectStore('sessions');
    const events = tx.objectStore('events');
    const records = await Promise.all(sessionIds.map((id) => sessions.get([appName, userId, id])));
    const reads = records.map((record, i) => {
      const sessionId = sessionIds[i] as string;
      const known = this.marks.get(this.bySession.get(sessionId) ?? '');
      if (!record) return { sessionId, known, record, whole: true, events: Promise.resolve([]) };
      if (known && known.uid === record.uid && current(known, record)) return undefined;
      // An erase changed events in place: only a whole read drops their words.
      const incremental = known !== undefined && known.uid === record.uid && sameErasures(known, record);
      const from = incremental ? known.nextSeq : 0;
      return {
        sessionId,
        known,
        record,
        whole: !incremental,
        events: events.getAll(bound([record.uid, from], [record.uid, Number.POSITIVE_INFINITY])),
      };
    });
    const loaded = await Promise.all(reads.map((r) => r?.events));
    // A session whose new events do not account for its whole revision change had one replaced: read it whole.
    const again: { sessionId: string; record: SessionRecord; known: SessionMark | undefined }[] = [];
    reads.forEach((r, i) => {
      if (!r) return;
      const found = loaded[i] as EventRecord[];
      if (!r.record) {
        this.forget(r.sessionId);
        return;
      }
      if (!r.whole && r.known && r.record.revision - r.known.revision !== found.length) {
        again.push({ sessionId: r.sessionId, record: r.record, known: r.known });
        return;
      }
      this.apply(r.record, r.whole ? undefined : r.known, found);
    });
    if (again.length === 0) return;
    const whole = await Promise.all(
      again.map(({ record }) => events.getAll(bound([record.uid, 0], [record.uid, Number.POSITIVE_INFINITY]))),
    );
    again.forEach(({ record }, i) => {
      this.apply(record, undefined, whole[i] as EventRecord[]);
    });
  }

  /** Drops a session's indexed events. */
  private forget(sessionId: string): void {
    const uid = this.bySession.get(sessionId);
    if (uid !== undefined) this.purge(uid);
  }

  /**
   * Indexes `found`: with `base`, the session's events from its mark's `nextSeq`
   * on, added to what is indexed; without, all its events, in place of it.
   */
  private apply(
    record: SessionRecord,
    base: (SessionMark & { shard: number }) | undefined,
    found: EventRecord[],
  ): void {
    if (!base) this.forget(record.id);
    const shardNo = base?.shard ?? this.openShard();
    const shard = this.shards[shardNo] as Shard;
    const seqs = base ? [...base.seqs] : [];
    const docs: Doc[] = [];
    for (const e of found) {
      const text = eventText(eventOf(e));
      if (text === undefined) continue;
      const id = docId(record.uid, e.seq);
      if (shard.index.has(id)) shard.index.discard(id);
      else seqs.push(e.seq);
      docs.push({ id, text, t: e.timestamp });
    }
    shard.index.addAll(docs);
    shard.dirty = true;
    this.marks.set(record.uid, {
      uid: record.uid,
      sessionId: record.id,
      revision: record.revision,
      nextSeq: record.nextSeq,
      ...(record.erasures !== undefined && { erasures: record.erasures }),
      seqs,
      shard: shardNo,
    });
    this.bySession.set(record.id, record.uid);
  }

  private openShard(): number {
    const last = this.shards.length - 1;
    const open = this.shards[last];
    if (open && open.index.documentCount < SHARD_EVENTS) return last;
    this.shards.push({ index: new MiniSearch<Doc>(options), dirty: true });
    return this.shards.length - 1;
  }

  /** Candidates for `terms`, best first: what the index says matches (checked later against the events). */
  candidates(terms: readonly QueryTerm[], mode: MatchMode, sessionId?: string): Candidate[] {
    const query = queryOf(terms, mode);
    if (!query) return [];
    const onlyUid = sessionId === undefined ? undefined : this.bySession.get(sessionId);
    if (sessionId !== undefined && onlyUid === undefined) return [];
    const found: Candidate[] = [];
    for (const shard of this.shards) {
      if (!shard) continue;
      const filter = onlyUid === undefined ? undefined : (r: { id: string }) => r.id.startsWith(`${onlyUid}/`);
      for (const r of shard.index.search(query, filter ? { filter } : {})) {
        const id = r.id as string;
        const cut = id.lastIndexOf('/');
        const uid = id.slice(0, cut);
        const mark = this.marks.get(uid);
        if (!mark) continue;
        const seq = Number(id.slice(cut + 1));
        // Sessions by id, then later events first: `seq` padded so the key orders as the number does.
        const key = `${mark.sessionId}\u0000${(Number.MAX_SAFE_INTEGER - seq).toString().padStart(16, '0')}`;
        found.push({ uid, seq, sessionId: mark.sessionId, score: scoreOf(r), t: r.t as number, key });
      }
    }
    return found.sort(byRank);
  }

  /**
   * Drops the words of discarded events (replaced, erased, or of a session gone) from every changed
   * shard: MiniSearch keeps them until it vacuums, and a shard saved before would write them back
   * to the database. Before each save.
   */
  async vacuum(): Promise<void> {
    for (const shard of this.shards) if (shard?.dirty && shard.index.dirtCount > 0) await shard.index.vacuum();
  }

  /**
   * One shard changed since it was saved, as the record to put, marked saved;
   * `undefined` when none is. One at a time: serialising a shard holds the thread.
   */
  takeDirty(): SearchShardRecord | undefined {
    const no = this.shards.findIndex((shard) => shard?.dirty);
    const shard = this.shards[no];
    if (!shard) return undefined;
    shard.dirty = false;
    const sessions: SessionMark[] = [];
    for (const { shard: at, ...mark } of this.marks.values()) if (at === no) sessions.push(mark);
    return {
      appName: this.appName,
      userId: this.userId,
      shard: no,
      format: SEARCH_FORMAT,
      sessions,
      index: JSON.stringify(shard.index),
    };
  }

  /** A shard whose save failed: to be saved again. */
  markDirty(shard: number): void {
    const found = this.shards[shard];
    if (found) found.dirty = true;
  }

  get shardCount(): number {
    return this.shards.length;
  }

  get documentCount(): number {
    return this.shards.reduce((n, s) => n + (s?.index.documentCount ?? 0), 0);
  }
}
