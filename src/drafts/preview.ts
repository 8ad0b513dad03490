/**
 * Previews: what a writer has appended and not yet stored, posted to other tabs
 * as it grows (a BroadcastChannel per database, apart from the change feed, so
 * nothing but a live drafts reader hears them). Appends are numbered by the
 * writer from its draft's start, and each write records how many it holds
 * through (`WriteDraft.appends`): a reader lays a preview's appends past that
 * number over what it read, and needs no order between the two channels. A
 * preview carries every append since the writer's last but one stored write,
 * so one that arrives late or after a write is still of use, and one lost
 * costs nothing. Nothing here is stored: a writer that dies takes its
 * previews with it, and readers fall back to what is stored.
 */
import type { DraftDelta } from '../public/drafts.js';
import type { SessionKey } from '../public/sessions.js';

/** One preview of a draft: its writer's appends `base + 1` to `base + deltas.length`. */
export interface DraftPreview extends SessionKey {
  draftId: string;
  /** The writer (the name part of its lock): a reader takes previews only from the writer stored in the head. */
  writer: string;
  base: number;
  deltas: DraftDelta[];
}

/** The channel of database `dbName`'s previews. */
export const previewChannel = (dbName: string): string => `idb-adk-sessions:${dbName}:draft-previews`;

/** At most one preview per draft this often (ms), the first of a burst at once. */
export const PREVIEW_MS = 20;

/** A preview holding more appends than this is not posted (writes failing for long): readers keep to the stored. */
export const MAX_PREVIEW_APPENDS = 2000;

/** Whether `value` has a preview's shape (a channel is open to any script of the origin). */
export function isPreview(value: unknown): value is DraftPreview {
  const p = value as Partial<DraftPreview> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.appName === 'string' &&
    typeof p.userId === 'string' &&
    typeof p.sessionId === 'string' &&
    typeof p.draftId === 'string' &&
    typeof p.writer === 'string' &&
    Number.isInteger(p.base) &&
    Array.isArray(p.deltas) &&
    p.deltas.every(
      (d: DraftDelta | null) =>
        typeof d === 'object' &&
        d !== null &&
        ['text', 'thought'].every((k) => ['undefined', 'string'].includes(typeof d[k as 'text'])) &&
        (d.parts === undefined ||
          (Array.isArray(d.parts) && d.parts.every((part) => typeof part === 'object' && part !== null))),
    )
  );
}

/**
 * A writer's preview state: its appends since `base`, trimmed as writes are stored. `post`
 * sends one; the writer calls `appended` per append and `stored` per write stored.
 */
export class PreviewTail {
  private deltas: DraftDelta[] = [];
  private base: number;
  /** Appends held through the last stored write. */
  private stored: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private due = false;
  count: number;

  constructor(
    count: number,
    private readonly post: ((base: number, deltas: DraftDelta[]) => void) | undefined,
  ) {
    this.count = this.base = this.stored = count;
  }

  appended(delta: DraftDelta): void {
    this.count++;
    if (!this.post) return;
    this.deltas.push(delta);
    if (this.timer) this.due = true;
    else this.send();
  }

  private send(): void {
    this.due = false;
    if (this.deltas.length <= MAX_PREVIEW_APPENDS) this.post?.(this.base, this.deltas);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.due) this.send();
    }, PREVIEW_MS);
  }

  /** A write holding appends through `upTo` is stored: appends up to the write before it are dropped. */
  written(upTo: number): void {
    this.deltas = this.deltas.slice(this.stored - this.base);
    this.base = this.stored;
    this.stored = upTo;
  }

  end(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deltas = [];
  }
}
