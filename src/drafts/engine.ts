/**
 * The drafts engine, on the store's database (a `DatabaseOwner`): a draft's
 * head and its chunks (database/records/drafts.ts). A write is one transaction
 * adding one chunk, checked against the head (the draft still stored, still this
 * writer's); a read folds a session's chunks into each draft's content. Every
 * write is told to subscribers as a `drafted` change, which names the draft.
 *
 * Limits: a session holds at most `MAX_DRAFTS_PER_SESSION` drafts. A draft
 * whose writer is gone and that was not written for `DRAFT_EXPIRY_MS` is
 * expired: left out of reads, and removed by the next `beginDraft` in its
 * session (and with the session).
 */
import { DraftInUseError, DraftNotFoundError } from '../core/draft-errors.js';
import { AlreadyExistsError, InvalidInputError, SessionNotFoundError } from '../core/errors.js';
import { DRAFT_EXPIRY_MS, MAX_DRAFTS_PER_SESSION } from '../core/limits.js';
import type { StoreChange } from '../database/changes.js';
import type { DatabaseOwner } from '../database/database.js';
import type { Tx } from '../database/idb/index.js';
import {
  type DraftChunkRecord,
  type DraftHeadRecord,
  type DraftKey,
  draftChunks,
  removeDraft,
  sessionDrafts,
} from '../database/records/drafts.js';
import type { StoreSchema } from '../database/records/index.js';
import type { Draft } from '../public/drafts.js';
import type { SessionKey } from '../public/sessions.js';
import { contentOf } from './content.js';
import { draftLock, heldDrafts } from './liveness.js';
import type {
  BeginDraft,
  ClaimDraft,
  ClaimedDraft,
  DraftBackend,
  DraftKeyRequest,
  DraftTail,
  DraftTails,
  DraftTailsRequest,
  WriteDraft,
} from './protocol.js';

const engines = new WeakMap<DatabaseOwner, DraftEngine>();

/** The drafts engine of `owner`'s database: one per database owner. */
export function draftEngineFor(owner: DatabaseOwner): DraftEngine {
  let found = engines.get(owner);
  if (!found) {
    found = new DraftEngine(owner);
    engines.set(owner, found);
  }
  return found;
}

type DraftTx = Tx<StoreSchema, 'sessions' | 'drafts' | 'draftChunks'>;

const keyOf = (r: DraftKeyRequest): DraftKey => [r.appName, r.userId, r.sessionId, r.draftId];

function draftOf(head: DraftHeadRecord, chunks: readonly DraftChunkRecord[], interrupted: boolean): Draft {
  return { ...headOf(head, chunks, interrupted), content: contentOf(chunks.flatMap((c) => c.deltas)) };
}

function headOf(
  head: DraftHeadRecord,
  chunks: readonly DraftChunkRecord[],
  interrupted: boolean,
): Omit<Draft, 'content'> {
  const [appName, userId, sessionId, id] = head.k;
  return {
    id,
    appName,
    userId,
    sessionId,
    author: head.author,
    ...(head.invocationId === undefined ? {} : { invocationId: head.invocationId }),
    ...(head.branch === undefined ? {} : { branch: head.branch }),
    ...(head.customMetadata === undefined ? {} : { customMetadata: head.customMetadata }),
    startedAt: head.startedAt,
    updatedAt: chunks.at(-1)?.at ?? head.startedAt,
    interrupted,
  };
}

const expired = (draft: Omit<Draft, 'content'>, now: number): boolean =>
  draft.interrupted && draft.updatedAt < now - DRAFT_EXPIRY_MS;

export class DraftEngine implements DraftBackend {
  constructor(private readonly owner: DatabaseOwner) {}

  private changed(r: DraftKeyRequest): void {
    const { appName, userId, sessionId, draftId } = r;
    const change: StoreChange = {
      type: 'drafted',
      appName,
      userId,
      sessionId,
      revision: -1,
      lastUpdateTime: Date.now(),
      eventIds: [],
      scopes: { app: false, user: false },
      draftId,
    };
    this.owner.announce([change]);
  }

  /** Which drafts of this database are being written, as of now. */
  private async written(): Promise<(r: DraftKeyRequest) => boolean> {
    const held = await heldDrafts();
    return (r) => held(draftLock(this.owner.dbName, r));
  }

  async beginDraft(r: BeginDraft): Promise<Draft> {
    const alive = await this.written();
    const now = Date.now();
    const head: DraftHeadRecord = {
      k: keyOf(r),
      author: r.author,
      ...(r.invocationId === undefined ? {} : { invocationId: r.invocationId }),
      ...(r.branch === undefined ? {} : { branch: r.branch }),
      ...(r.customMetadata === undefined ? {} : { customMetadata: r.customMetadata }),
      writer: r.writer,
      startedAt: now,
    };
    await this.owner.transact(async (db) => {
      const tx: DraftTx = db.transaction(['sessions', 'drafts', 'draftChunks'], 'readwrite');
      const [session, drafts] = await Promise.all([
        tx.objectStore('sessions').get([r.appName, r.userId, r.sessionId]),
        readIn(tx, r, alive),
      ]);
      if (!session)
        throw new SessionNotFoundError(
          `beginDraft: no session ${r.sessionId} (app "${r.appName}", user "${r.userId}")`,
        );
      if (drafts.some((d) => d.id === r.draftId)) {
        throw new AlreadyExistsError(`beginDraft: session ${r.sessionId} already holds draft ${r.draftId}`);
      }
      const gone = drafts.filter((d) => expired(d, now));
      for (const d of gone) removeDraft(tx, [d.appName, d.userId, d.sessionId, d.id]);
      if (drafts.length - gone.length >= MAX_DRAFTS_PER_SESSION) {
        throw new InvalidInputError(
          `beginDraft: session ${r.sessionId} holds ${MAX_DRAFTS_PER_SESSION} drafts, the most it may: finish, abandon or drop one first`,
        );
      }
      tx.objectStore('drafts').put(head);
      await tx.done;
    });
    this.changed(r);
    return draftOf(head, [], false);
  }

  async writeDraft(r: WriteDraft): Promise<void> {
    await this.owner.transact(async (db) => {
      const tx = db.transaction(['drafts', 'draftChunks'], 'readwrite');
      const head = await tx.objectStore('drafts').get(keyOf(r));
      if (!head)
        throw new DraftNotFoundError(
          `writeDraft: draft ${r.draftId} is not stored (finished, dropped, or its session deleted)`,
        );
      if (head.writer !== r.writer)
        throw new DraftInUseError(`writeDraft: draft ${r.draftId} was taken over by another writer`);
      tx.objectStore('draftChunks').put({
        k: [...keyOf(r), r.seq],
        at: Date.now(),
        deltas: r.deltas,
        ...(r.appends === undefined ? {} : { n: r.appends }),
      });
      await tx.done;
    });
    this.changed(r);
  }

  async readDrafts(r: SessionKey): Promise<Draft[]> {
    const alive = await this.written();
    const now = Date.now();
    const drafts = await this.owner.transact((db) => readIn(db.transaction(['drafts', 'draftChunks']), r, alive));
    return drafts.filter((d) => !expired(d, now));
  }

  /**
   * Reads only the chunks a reader lacks: from the seq it names on (that chunk again, as a writer's
   * retry may have replaced it), all of them when that chunk is gone or the draft is another begun
   * under the same id. The session's revision comes from the same transaction, so a reader can
   * tell a draft finished into an event it has not read yet from one dropped.
   */
  async readDraftTails(r: DraftTailsRequest): Promise<DraftTails> {
    const alive = await this.written();
    const now = Date.now();
    const since = new Map(r.since.map((known) => [known.draftId, known]));
    return this.owner.transact(async (db) => {
      const tx = db.transaction(['sessions', 'drafts', 'draftChunks']);
      const [session, heads] = await Promise.all([
        tx.objectStore('sessions').get([r.appName, r.userId, r.sessionId]),
        tx.objectStore('drafts').getAll(sessionDrafts(r.appName, r.userId, r.sessionId)),
      ]);
      const tails = await Promise.all(
        heads.map(async (head): Promise<DraftTail> => {
          const known = since.get(head.k[3]);
          const from = known && known.startedAt === head.startedAt ? known.seq : 0;
          let chunks = from > 0 ? await tx.objectStore('draftChunks').getAll(draftChunks(head.k, from)) : [];
          const whole = from === 0 || chunks[0]?.k[4] !== from;
          if (whole) chunks = await tx.objectStore('draftChunks').getAll(draftChunks(head.k));
          const [appName, userId, sessionId, draftId] = head.k;
          const interrupted = !alive({ appName, userId, sessionId, draftId });
          const last = chunks.at(-1);
          return {
            draft: headOf(head, chunks, interrupted),
            from: whole ? 0 : from,
            chunks: chunks.map((c) => ({ seq: c.k[4], deltas: c.deltas })),
            writer: head.writer,
            ...(last?.n === undefined ? {} : { appends: last.n }),
          };
        }),
      );
      // Read from a chunk on, a draft still holds its last chunk: `updatedAt` is right either way.
      const drafts = tails.filter((t) => !expired(t.draft, now)).sort((a, b) => a.draft.startedAt - b.draft.startedAt);
      return { revision: session?.revision ?? -1, drafts };
    });
  }

  /** The caller holds the draft's lock (liveness.ts): that is what excludes a live writer and a second claimer. */
  async claimDraft(r: ClaimDraft): Promise<ClaimedDraft> {
    const claimed = await this.owner.transact(async (db) => {
      const tx = db.transaction(['drafts', 'draftChunks'], 'readwrite');
      const [head, chunks] = await Promise.all([
        tx.objectStore('drafts').get(keyOf(r)),
        tx.objectStore('draftChunks').getAll(draftChunks(keyOf(r))),
      ]);
      if (!head)
        throw new DraftNotFoundError(
          `resume: draft ${r.draftId} is not stored (finished, dropped, or its session deleted)`,
        );
      tx.objectStore('drafts').put({ ...head, writer: r.writer });
      await tx.done;
      const last = chunks.at(-1);
      return {
        draft: draftOf(head, chunks, false),
        nextSeq: (last?.k[4] ?? 0) + 1,
        ...(last?.n === undefined ? {} : { appends: last.n }),
      };
    });
    this.changed(r);
    return claimed;
  }

  async dropDraft(r: DraftKeyRequest): Promise<boolean> {
    const found = await this.owner.transact(async (db) => {
      const tx = db.transaction(['drafts', 'draftChunks'], 'readwrite');
      const head = await tx.objectStore('drafts').getKey(keyOf(r));
      if (head !== undefined) removeDraft(tx, keyOf(r));
      await tx.done;
      return head !== undefined;
    });
    if (found) this.changed(r);
    return found;
  }
}

/** The session's drafts as stored (expired ones too), oldest first: two key-range reads. */
async function readIn(
  tx: Tx<StoreSchema, 'drafts' | 'draftChunks'>,
  r: SessionKey,
  alive: (r: DraftKeyRequest) => boolean,
): Promise<Draft[]> {
  const range = sessionDrafts(r.appName, r.userId, r.sessionId);
  const [heads, chunks] = await Promise.all([
    tx.objectStore('drafts').getAll(range),
    tx.objectStore('draftChunks').getAll(range),
  ]);
  const byDraft = new Map<string, DraftChunkRecord[]>();
  for (const chunk of chunks) {
    const id = chunk.k[3];
    const list = byDraft.get(id);
    if (list) list.push(chunk);
    else byDraft.set(id, [chunk]);
  }
  return heads
    .map((h) => {
      const [appName, userId, sessionId, draftId] = h.k;
      return draftOf(h, byDraft.get(draftId) ?? [], !alive({ appName, userId, sessionId, draftId }));
    })
    .sort((a, b) => a.startedAt - b.startedAt);
}
