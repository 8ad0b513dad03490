/**
 * What a live query holds of a session's drafts, and how it reads them again.
 * A read asks only for the chunks it lacks: each draft is held as the fold of
 * its chunks before the last, and the last chunk; the next read starts from
 * that last chunk (a writer's retry may have replaced it), and a draft begun
 * anew under the same id, or a chunk gone, is read whole. Over what is stored,
 * a draft being written shows its writer's previews (src/drafts/preview.ts):
 * the appends past those its last stored chunk holds. The preview rule: a
 * preview is taken only from the writer the stored head names, only while the
 * draft is not interrupted, and only when it starts at or before what is
 * stored; such a draft is marked `previewed`. Once its writer is gone the
 * draft shows what is stored and nothing more.
 *
 * Each draft being written has its writer's lock waited on (`untilWriterGone`):
 * when the writer dies, which no change notice tells, the drafts are read
 * again, and the draft shows as interrupted.
 */
import type { StoreChange } from '../database/changes.js';
import {
  DRAFTS_LIVE,
  type DraftPreview,
  type DraftsFront,
  type DraftsLive,
  type DraftTail,
  foldDelta,
  isPreview,
  previewChannel,
} from '../drafts/index.js';
import type { Draft } from '../public/drafts.js';
import type { Part, SessionKey } from '../public/sessions.js';

/** What a drafts reader needs of `store.drafts`. */
export type ReadableDrafts = Pick<DraftsFront, 'list' | 'untilWriterGone'>;

interface Held {
  head: Omit<Draft, 'content'>;
  /** The writer the stored head names; absent from a store without tail reads. */
  writer?: string;
  /** The fold of every chunk before `seq`: changed in place by later reads, never handed out. */
  before: Part[];
  /** The last chunk's seq (0: none read). */
  seq: number;
  /** What is stored: `before` and the last chunk, as handed out (frozen once published). */
  parts: Part[];
  /** Appends the stored chunks hold, by the writer's count (preview.ts); absent when unknown. */
  appends?: number;
}

const copy = (parts: readonly Part[]): Part[] => parts.map((part) => ({ ...part }));

export class DraftsReader {
  private held = new Map<string, Held>();
  private readonly previews = new Map<string, DraftPreview>();
  private readonly waits = new Map<string, AbortController>();
  private channel: BroadcastChannel | undefined;
  private following = false;
  /** The stored drafts must be read again (a change, a writer gone, a start). */
  dirty = true;
  /** The session's revision as of the last read (-1: no session, or a store that does not tell). */
  revision = -1;

  constructor(
    private readonly drafts: ReadableDrafts,
    private readonly key: SessionKey,
    /** Asks the query for a new value: at once (0) for a preview, or after its usual wait. */
    private readonly poke: (delayMs?: number) => void,
  ) {}

  private get live(): DraftsLive | undefined {
    return (this.drafts as { [DRAFTS_LIVE]?: DraftsLive })[DRAFTS_LIVE];
  }

  /** Whether `change` (of this session) can change its drafts: any but an append that finished none. */
  accept(change: StoreChange): boolean {
    if (change.type === 'appended' && change.draftId === undefined) return false;
    this.dirty = true;
    return true;
  }

  reset(): void {
    this.held = new Map();
    this.dirty = true;
  }

  /** Reads the stored drafts again if they may have changed; starts hearing previews. */
  async refresh(): Promise<void> {
    this.follow();
    if (!this.dirty) return;
    this.dirty = false;
    const live = this.live;
    if (live) this.take(await live.readTails({ ...this.key, since: this.since() }));
    else this.takeListed(await this.drafts.list(this.key));
    this.watchWriters();
    for (const [id, preview] of this.previews)
      if (!this.previewOf(this.held.get(id), preview)) this.previews.delete(id);
  }

  /** The drafts as a reader sees them, oldest first: what is stored, and the previews over it. */
  compose(): Draft[] {
    return [...this.held.values()].map((held) => {
      const preview = this.previewOf(held, this.previews.get(held.head.id));
      if (!preview) return { ...held.head, content: { role: 'model', parts: held.parts } };
      const parts = copy(held.parts);
      for (const delta of preview) foldDelta(parts, delta);
      return { ...held.head, content: { role: 'model', parts }, previewed: true };
    });
  }

  stop(): void {
    for (const wait of this.waits.values()) wait.abort();
    this.waits.clear();
    this.following = false;
    this.channel?.close();
    this.channel = undefined;
    this.previews.clear();
  }

  /** The preview's appends `held` lacks, when the rule lets it show them (see the module's comment). */
  private previewOf(held: Held | undefined, preview: DraftPreview | undefined): DraftPreview['deltas'] | undefined {
    if (!held || !preview || held.head.interrupted || held.writer !== preview.writer) return undefined;
    const at = held.appends;
    if (at === undefined || at < preview.base || at >= preview.base + preview.deltas.length) return undefined;
    return preview.deltas.slice(at - preview.base);
  }

  private since(): { draftId: string; seq: number; startedAt: number }[] {
    return [...this.held.values()]
      .filter((h) => h.seq > 0)
      .map((h) => ({ draftId: h.head.id, seq: h.seq, startedAt: h.head.startedAt }));
  }

  private take({ revision, drafts }: { revision: number; drafts: DraftTail[] }): void {
    this.revision = revision;
    const next = new Map<string, Held>();
    for (const tail of drafts) {
      const old = this.held.get(tail.draft.id);
      const before = tail.from > 0 && old?.seq === tail.from ? old.before : [];
      const last = tail.chunks.at(-1);
      for (const chunk of tail.chunks.slice(0, -1)) for (const delta of chunk.deltas) foldDelta(before, delta);
      const parts = copy(before);
      for (const delta of last?.deltas ?? []) foldDelta(parts, delta);
      const seq = last?.seq ?? 0;
      next.set(tail.draft.id, {
        head: tail.draft,
        writer: tail.writer,
        before,
        seq,
        parts,
        // A draft without chunks holds none of its writer's appends.
        ...(tail.appends !== undefined ? { appends: tail.appends } : seq === 0 ? { appends: 0 } : {}),
      });
    }
    this.held = next;
  }

  private takeListed(drafts: Draft[]): void {
    this.held = new Map(
      drafts.map(({ content, ...head }) => [head.id, { head, before: [], seq: 0, parts: content.parts ?? [] }]),
    );
  }

  /** Opens the previews' channel (once a read is asked for: the query runs). */
  private follow(): void {
    const live = this.live;
    if (this.following || !live || typeof BroadcastChannel === 'undefined') return;
    this.following = true;
    const { appName, userId, sessionId } = this.key;
    void Promise.resolve(live.dbName).then(
      (dbName) => {
        if (!this.following || this.channel) return;
        const channel = new BroadcastChannel(previewChannel(dbName));
        (channel as { unref?: () => void }).unref?.();
        channel.onmessage = ({ data }: MessageEvent<unknown>) => {
          if (!isPreview(data) || data.appName !== appName || data.userId !== userId || data.sessionId !== sessionId)
            return;
          this.previews.set(data.draftId, data);
          if (this.previewOf(this.held.get(data.draftId), data)) this.poke(0);
        };
        this.channel = channel;
      },
      () => {},
    );
  }

  private watchWriters(): void {
    const writing = new Set([...this.held.values()].filter((h) => !h.head.interrupted).map((h) => h.head.id));
    for (const [id, wait] of this.waits) {
      if (writing.has(id)) continue;
      wait.abort();
      this.waits.delete(id);
    }
    for (const id of writing) {
      if (this.waits.has(id)) continue;
      const wait = new AbortController();
      this.waits.set(id, wait);
      this.drafts.untilWriterGone({ ...this.key, draftId: id }, wait.signal).then(() => {
        if (this.waits.get(id) !== wait) return;
        this.waits.delete(id);
        this.dirty = true;
        this.poke();
      });
    }
  }
}
