/**
 * Validation of sessions to import, shared by the front (before anything is
 * sent) and the worker host (which trusts nothing). Errors name the place:
 * `importSessions: sessions[3].events[12].timestamp: ...`.
 */
import { InvalidInputError } from '../core/errors.js';
import { validate } from '../core/schema.js';
import type { Event, Session } from '../types.js';
import { importedSessionSchema } from './schema.js';

const OPERATION = 'importSessions';

/** Checks sessions one at a time, remembering keys so that a session or event id given twice is caught. */
export class ImportChecker {
  private readonly seen = new Map<string, number>();

  /**
   * Validates `input`, the `index`-th session of an import, and returns a clean
   * top-level copy whose `state` and event objects are the (checked) originals:
   * zod's output would have dropped unknown event fields and `__proto__` keys.
   */
  check(input: unknown, index: number): Session {
    const valid = validate(OPERATION, importedSessionSchema, input, ['sessions', index]);
    const { id, appName, userId, lastUpdateTime } = valid;
    const raw = input as { state: Record<string, unknown>; events: Event[] };
    const key = `${appName}\u0000${userId}\u0000${id}`;
    const first = this.seen.get(key);
    if (first !== undefined) {
      throw new InvalidInputError(
        `${OPERATION}: sessions[${index}].id: session "${id}" of app "${appName}" and user "${userId}" is also sessions[${first}]`,
      );
    }
    this.seen.set(key, index);
    const events = [...raw.events];
    const positions = new Map<string, number>();
    events.forEach((event, j) => {
      const earlier = positions.get(event.id);
      if (earlier !== undefined) {
        throw new InvalidInputError(
          `${OPERATION}: sessions[${index}].events[${j}].id: event "${event.id}" is also events[${earlier}] of this session`,
        );
      }
      positions.set(event.id, j);
    });
    return { id, appName, userId, state: raw.state, events, lastUpdateTime };
  }
}
