/**
 * A live session with its drafts beside its events (`watchSession` with
 * `drafts: true`): one query, one subscription, one value. A finished draft's
 * event and the draft's removal are one transaction, and every delivered value
 * shows one or the other, never both and never neither: the drafts are read
 * with the session's stored revision (in their own transaction), and the
 * session is read between two such reads that agree on it. Reads that keep
 * disagreeing (appends landing all along) are tried again, then the value is
 * the last pair read, and the next change reads again.
 */
import { jsonEqual } from '../core/json-equal.js';
import type { StoreChange } from '../database/changes.js';
import type { Draft } from '../public/drafts.js';
import type { GetSessionRequest, Session } from '../types.js';
import { DraftsReader } from './draft-reader.js';
import type { LiveDraftStore } from './drafts.js';
import { LiveQueryBase, UNCHANGED } from './query.js';
import { SessionReader } from './session.js';
import type { LiveOptions, LiveStore } from './types.js';

/** Pairs of reads that may disagree before the value is delivered as read. */
const ATTEMPTS = 4;

/** A session as `watchSession` with `drafts: true` delivers it: its events, and beside them its drafts. */
export interface SessionWithDrafts extends Session {
  /** The session's drafts, oldest first, as `watchDrafts` delivers them (previews included). */
  drafts: Draft[];
}

export class LiveSessionDrafts extends LiveQueryBase<SessionWithDrafts | undefined, LiveStore & LiveDraftStore> {
  private readonly session: SessionReader;
  private readonly drafts: DraftsReader;
  private value: Session | undefined;
  /** The session the held value was made of: the same object, the same session. */
  private shown: Session | undefined;
  /** The session's revision `value` was read at: undefined until a pair of reads agreed. */
  private revision: number | undefined;
  private sessionDirty = true;

  constructor(
    store: LiveStore & LiveDraftStore,
    private readonly request: GetSessionRequest,
    options?: LiveOptions,
  ) {
    super(store, { appName: request.appName }, options);
    this.session = new SessionReader(store, request);
    const { appName, userId, sessionId } = request;
    this.drafts = new DraftsReader(store.drafts, { appName, userId, sessionId }, (delayMs) => this.poke(delayMs));
  }

  protected reset(): void {
    this.session.reset();
    this.drafts.reset();
    this.value = this.shown = this.revision = undefined;
    this.sessionDirty = true;
  }

  protected accept(change: StoreChange): boolean {
    const { userId, sessionId } = this.request;
    const own = change.userId === userId && change.sessionId === sessionId;
    const drafts = own && this.drafts.accept(change);
    const session = this.session.accept(change);
    if (session) this.sessionDirty = true;
    return drafts || session;
  }

  protected async refresh(
    held: SessionWithDrafts | undefined,
  ): Promise<SessionWithDrafts | undefined | typeof UNCHANGED> {
    await this.drafts.refresh();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (!this.sessionDirty && this.drafts.revision === this.revision) break;
      // Moved on with no notice heard yet (an append in another tab): its ids are not known.
      if (!this.sessionDirty) this.session.force();
      this.sessionDirty = false;
      const next = await this.session.refresh(this.value);
      if (next !== UNCHANGED) this.value = next;
      const before = this.drafts.revision;
      this.drafts.dirty = true;
      await this.drafts.refresh();
      if (this.drafts.revision === before) this.revision = before;
    }
    // Still disagreeing: this pair is delivered, and read again after the usual wait.
    if (this.drafts.revision !== this.revision) this.poke();
    if (this.value === undefined) return held === undefined ? UNCHANGED : undefined;
    const drafts = this.drafts.compose();
    if (held && this.shown === this.value && jsonEqual(held.drafts, drafts)) return UNCHANGED;
    this.shown = this.value;
    return { ...this.value, drafts };
  }

  protected override stopped(): void {
    this.drafts.stop();
  }
}
