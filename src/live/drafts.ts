/**
 * A session's drafts, live (`watchDrafts`): read again, only the chunks not yet
 * held, on every change to the session (a draft's write names its session, and
 * a finishing append removes the draft), when a writer dies, and laid over with
 * their writers' previews as those arrive (./draft-reader.ts).
 */
import { jsonEqual } from '../core/json-equal.js';
import type { StoreChange } from '../database/changes.js';
import type { DraftsFront } from '../drafts/index.js';
import type { Draft } from '../public/drafts.js';
import type { SessionKey } from '../public/sessions.js';
import { DraftsReader } from './draft-reader.js';
import { LiveQueryBase, UNCHANGED } from './query.js';
import type { LiveOptions, LiveStore } from './types.js';

/** What `watchDrafts` needs of a store: its `drafts`, and its change feed. */
export interface LiveDraftStore extends Pick<LiveStore, 'subscribe' | 'onClose'> {
  /** The store's drafts: what is read, and whose writers are waited on. */
  readonly drafts: Pick<DraftsFront, 'list' | 'untilWriterGone'>;
}

export class LiveDrafts extends LiveQueryBase<Draft[], LiveDraftStore> {
  private readonly reader: DraftsReader;

  constructor(store: LiveDraftStore, key: SessionKey, options?: LiveOptions) {
    super(store, { ...key }, options);
    this.reader = new DraftsReader(store.drafts, key, (delayMs) => this.poke(delayMs));
  }

  protected reset(): void {
    this.reader.reset();
  }

  protected accept(change: StoreChange): boolean {
    return this.reader.accept(change);
  }

  protected async refresh(held: Draft[] | undefined): Promise<Draft[] | typeof UNCHANGED> {
    await this.reader.refresh();
    const drafts = this.reader.compose();
    return jsonEqual(drafts, held) ? UNCHANGED : drafts;
  }

  protected override stopped(): void {
    this.reader.stop();
  }
}
