/**
 * A session's drafts, live: re-read on every change to the session (a draft's
 * write names its session, and a finishing append removes the draft), and when
 * a writer dies, which no change notice tells: for each draft being written the
 * query waits on its writer's lock (`untilWriterGone`) and reads again when it is
 * free, so a tab that crashed mid-stream shows as interrupted in every other tab.
 */
import { jsonEqual } from '../core/json-equal.js';
import type { StoreChange } from '../database/changes.js';
import type { DraftsFront } from '../drafts/index.js';
import type { Draft } from '../public/drafts.js';
import type { SessionKey } from '../public/sessions.js';
import { LiveQueryBase, UNCHANGED } from './query.js';
import type { LiveOptions, LiveStore } from './types.js';

/** What `watchDrafts` needs of a store: its `drafts`, and its change feed. */
export interface LiveDraftStore extends Pick<LiveStore, 'subscribe' | 'onClose'> {
  /** The store's drafts: what is read, and whose writers are waited on. */
  readonly drafts: Pick<DraftsFront, 'list' | 'untilWriterGone'>;
}

export class LiveDrafts extends LiveQueryBase<Draft[], LiveDraftStore> {
  /** The drafts whose writers are waited on, by id. */
  private readonly waits = new Map<string, AbortController>();

  constructor(
    store: LiveDraftStore,
    private readonly key: SessionKey,
    options?: LiveOptions,
  ) {
    super(store, { ...key }, options);
  }

  protected reset(): void {}

  protected accept(change: StoreChange): boolean {
    return change.type !== 'appended' || change.draftId !== undefined;
  }

  protected async refresh(held: Draft[] | undefined): Promise<Draft[] | typeof UNCHANGED> {
    const drafts = await this.store.drafts.list(this.key);
    this.watchWriters(drafts);
    return jsonEqual(drafts, held) ? UNCHANGED : drafts;
  }

  private watchWriters(drafts: readonly Draft[]): void {
    const writing = new Set(drafts.filter((d) => !d.interrupted).map((d) => d.id));
    for (const [id, wait] of this.waits) {
      if (writing.has(id)) continue;
      wait.abort();
      this.waits.delete(id);
    }
    for (const id of writing) {
      if (this.waits.has(id)) continue;
      const wait = new AbortController();
      this.waits.set(id, wait);
      this.store.drafts.untilWriterGone({ ...this.key, draftId: id }, wait.signal).then(() => {
        if (this.waits.get(id) !== wait) return;
        this.waits.delete(id);
        this.poke();
      });
    }
  }

  protected override stopped(): void {
    for (const wait of this.waits.values()) wait.abort();
    this.waits.clear();
  }
}
