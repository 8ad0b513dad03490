/**
 * What may cross a port to start sync: data only, so a conflict policy here is
 * `rebase` or `fork`; a conflict callback or a `fetch` of the app's own needs an
 * in-thread store, where they are handed to the sync engine as they are.
 */
import * as z from 'zod/mini';
import { MAX_ID_LENGTH } from '../core/limits.js';
import { atMostUnits } from '../core/schema.js';

const id = z.string().check(z.minLength(1), atMostUnits(MAX_ID_LENGTH));
const ms = z.number().check(z.int(), z.positive());

export const syncStartSchema = z.object({
  url: z.string().check(z.refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')),
  token: z.string().check(z.minLength(1)),
  appName: id,
  userId: id,
  conflict: z.optional(z.enum(['rebase', 'fork'])),
  live: z.optional(z.boolean()),
  intervalMs: z.optional(ms),
  retry: z.optional(z.object({ minMs: ms, maxMs: ms })),
  pushDelayMs: z.optional(z.number().check(z.int(), z.nonnegative())),
  requestTimeoutMs: z.optional(ms),
});

/** What the page may ask of sync: the engine's options that survive a structured clone. */
export type SyncStartRequest = z.output<typeof syncStartSchema>;
