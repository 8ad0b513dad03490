/**
 * The store's boundary check: every request validated before the engine sees
 * it, with errors that name the operation, the field and the reason. A worker
 * host serves it and an in-thread store calls it, so the page-side fronts only
 * shape requests, and a page that runs the store in a worker carries no schema.
 */
import { InvalidInputError, toWireError } from '../core/errors.js';
import { EVENT_JSON, withJsonField } from '../core/json.js';
import { eventSchema, sessionKeySchema, validate } from '../core/schema.js';
import type { Event } from '../types.js';
import type { SessionEngine } from './engine.js';
import { ImportChecker } from './import-check.js';
import type { AppendBatch, Backend, ImportBatch } from './protocol.js';
import {
  appendBatchSchema,
  appStateRequestSchema,
  eraseRequestSchema,
  getSessionRequestSchema,
  importBatchSchema,
  listSessionKeysRequestSchema,
  listSessionsRequestSchema,
  listUsersRequestSchema,
  rewindRequestSchema,
  userStateRequestSchema,
  validateCreate,
} from './schema.js';

/** How long import validation runs before it yields to the event loop, in ms: an in-thread page stays responsive. */
const SLICE_MS = 25;

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Validates an import's sessions (given as data from another realm) into a
 * batch, in time slices. Rejects with the first problem; nothing is written.
 */
export async function checkImport(operation: string, request: unknown): Promise<ImportBatch> {
  const { sessions, onConflict } = validate(operation, importBatchSchema, request);
  const checker = new ImportChecker();
  const valid: ImportBatch['sessions'] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < sessions.length; i++) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTask();
      sliceStart = performance.now();
    }
    valid.push(checker.check(sessions[i], i));
  }
  return { sessions: valid, onConflict };
}

/**
 * The session methods over the engine `engine()` gives (it may throw, as a
 * host's does before hello), behind the boundary check: what a worker host
 * serves and an in-thread store calls.
 */
export function checked(engine: () => SessionEngine): Backend {
  return {
    createSession: async (request) => engine().createSession(validateCreate('createSession', request)),
    getSession: async (r) => engine().loadSession(validate('getSession', getSessionRequestSchema, r)),
    listSessions: async (r) => engine().listSessions(validate('listSessions', listSessionsRequestSchema, r)),
    deleteSession: async (r) => engine().deleteSession(validate('deleteSession', sessionKeySchema, r)),
    getUserState: async (r) => engine().getUserState(validate('getUserState', userStateRequestSchema, r)),
    getAppState: async (r) => engine().getAppState(validate('getAppState', appStateRequestSchema, r)),
    listApps: async () => engine().listApps(),
    listUsers: async (r) => engine().listUsers(validate('listUsers', listUsersRequestSchema, r)),
    listSessionKeys: async (r) =>
      engine().listSessionKeys(validate('listSessionKeys', listSessionKeysRequestSchema, r)),
    appendEvents: async (request) => {
      const batch = validate('appendEvent', appendBatchSchema, request) as AppendBatch;
      // Each event stands alone: an invalid one fails by itself, the others are stored.
      const valid: Event[] = [];
      const checks = batch.events.map((event) => {
        try {
          // A raw caller may send what the page-side front would have converted (a Date, say).
          const { event: stored } = withJsonField({ event }, 'event', EVENT_JSON);
          validate('appendEvent', eventSchema, stored, ['event']);
          refuseSeconds((stored as Event).timestamp);
          valid.push(stored as Event);
          return null;
        } catch (error) {
          return toWireError(error);
        }
      });
      const refused = batch.allOrNothing && checks.find((check) => check !== null);
      if (refused) return { ref: batch.ref, lastUpdateTime: batch.lastUpdateTime, results: checks.map(() => refused) };
      // With nothing valid the session is not even read: bad input is told as such, never as a stale session.
      if (valid.length === 0) return { ref: batch.ref, lastUpdateTime: batch.lastUpdateTime, results: checks };
      const outcome = await engine().appendEvents({ ...batch, events: valid });
      let next = 0;
      return { ...outcome, results: checks.map((check) => check ?? outcome.results[next++] ?? null) };
    },
    sealInterrupted: async (r) => engine().sealInterrupted(validate('sealInterrupted', sessionKeySchema, r)),
    rewind: async (r) => engine().rewind(validate('rewind', rewindRequestSchema, r)),
    erase: async (r) => engine().erase(validate('erase', eraseRequestSchema, r)),
    importSessions: async (request, onProgress) =>
      engine().importSessions(await checkImport('importSessions', request), onProgress),
    close: async () => engine().close(),
  };
}

/**
 * Numbers in [1e9, 1e11) as an event time look like seconds since the epoch
 * (adk-python's unit: 1e9 s is 2001, 1e11 s the year 5138) and, read as ADK
 * JS's milliseconds, would date the event Jan 1970 to Mar 1973, which no live
 * app writes. Below stay the small synthetic times of tests and examples (1,
 * 2, 5000); from 1e11 on, every millisecond time since 1973. Only appends are
 * checked: imports and sync carry events already stored, in whatever unit.
 */
function refuseSeconds(t: number): void {
  if (t >= 1e9 && t < 1e11) {
    throw new InvalidInputError(`appendEvent: event.timestamp: ${t} looks like seconds; event times are epoch ms`);
  }
}
