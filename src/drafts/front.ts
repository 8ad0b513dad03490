/**
 * The drafts API every store offers as `store.drafts`: a reply stored as it
 * streams (`begin`, then the writer's `append` and `finish`), and what a tab
 * finds after a crash or a reload (`list`, then `keep`, `resume` or `drop`).
 * What it does is a chunk of its own (./writers.ts), kept out of the page's
 * first bundle: fetched by the first call, or soon after the store is ready,
 * while the page is surely still online (a local model streams offline too).
 */
import { StorageError } from '../core/errors.js';
import { lazy } from '../core/lazy.js';
import type { DraftsFront } from '../public/drafts.js';
import { DRAFTS_LIVE, type DraftBackend, type DraftsLive } from './protocol.js';
import type { FinishAppend } from './writer.js';

/** How long after the store is ready the drafts' code is fetched unasked: past the page's start-up. */
const WARM_DELAY_MS = 1000;

/**
 * The `DraftsFront` of a store: `finish` appends through `finishAppend`, writers end when the
 * store closes (`onClose`), and locks are named for database `dbName`. A store builds one.
 */
export function draftsFrontOver(
  backend: DraftBackend,
  finishAppend: FinishAppend,
  onClose: (listener: () => void) => void,
  dbName: string | Promise<string>,
  ready: Promise<void>,
): DraftsFront & { releaseAll(): Promise<void>; [DRAFTS_LIVE]: DraftsLive } {
  const front = lazy(async () => {
    try {
      const { BackedDraftsFront } = await import('./writers.js');
      return new BackedDraftsFront(backend, finishAppend, onClose, dbName);
    } catch (error) {
      throw new StorageError(`the store's drafts could not be loaded: ${String(error)}`, { cause: error });
    }
  });
  ready.then(
    () => {
      const timer = setTimeout(() => void front().catch(() => {}), WARM_DELAY_MS);
      // In Node (a script) the warm-up must not keep the process alive.
      (timer as { unref?: () => void }).unref?.();
    },
    () => {},
  );
  return {
    begin: async (request) => (await front()).begin(request),
    list: async (request) => (await front()).list(request),
    resume: async (request) => (await front()).resume(request),
    keep: async (request) => (await front()).keep(request),
    drop: async (request) => (await front()).drop(request),
    untilWriterGone: async (request, signal) => (await front()).untilWriterGone(request, signal),
    // Before the store closes: a writer's pending appends are written, its draft let go.
    releaseAll: async () => (await front.started())?.releaseAll(),
    [DRAFTS_LIVE]: { readTails: (request) => backend.readDraftTails(request), dbName },
  };
}
