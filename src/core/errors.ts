/**
 * The typed error family. Every error the store raises on purpose is a
 * `SessionStoreError` with a stable `code`; the class, `name`, `code`, message
 * and the class's own fields (`SyncError.kind`, `MissingTemplateKeyError.key`)
 * survive the worker boundary (see `toWireError` / `fromWireError`), so
 * `instanceof` and the fields work on the page as in the worker.
 */

/** The `code` of each error of the family: stable across releases and across the worker boundary. */
export type ErrorCode =
  | 'ALREADY_EXISTS'
  | 'SESSION_NOT_FOUND'
  | 'INVOCATION_NOT_FOUND'
  | 'EVENT_NOT_FOUND'
  | 'DRAFT_NOT_FOUND'
  | 'DRAFT_IN_USE'
  | 'STALE_SESSION'
  | 'INVALID_INPUT'
  | 'QUOTA_EXCEEDED'
  | 'STORE_CLOSED'
  | 'UPGRADE_BLOCKED'
  | 'TIMEOUT'
  | 'STORAGE_ERROR'
  | 'SYNC_FAILED'
  | 'LOAD_FAILED';

/** The base of every error the store raises on purpose: `instanceof` it, or read its `code`. */
export class SessionStoreError extends Error {
  /** Which error this is. */
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // The family's names are written out (minifiers rename classes); a subclass from elsewhere keeps its own.
    this.name = familyNames.get(new.target) ?? new.target.name;
  }
}

/** A session with this id already exists for the same app and user. */
export class AlreadyExistsError extends SessionStoreError {
  constructor(message: string) {
    super('ALREADY_EXISTS', message);
  }
}

/** The session does not exist (never created, or deleted). */
export class SessionNotFoundError extends SessionStoreError {
  constructor(message: string) {
    super('SESSION_NOT_FOUND', message);
  }
}

/**
 * The stored session changed after the given session object was loaded or last
 * appended through. Reload it with `getSession` and retry.
 */
export class StaleSessionError extends SessionStoreError {
  constructor(message: string) {
    super('STALE_SESSION', message);
  }
}

/** The request failed validation; the message names the field and why. Nothing changed. */
export class InvalidInputError extends SessionStoreError {
  constructor(message: string) {
    super('INVALID_INPUT', message);
  }
}

/** The origin's storage quota is exhausted; the write was rolled back whole. */
export class QuotaExceededError extends SessionStoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('QUOTA_EXCEEDED', message, options);
  }
}

/** The store was closed, its worker died, or another tab upgraded or deleted the database. */
export class StoreClosedError extends SessionStoreError {
  constructor(message: string) {
    super('STORE_CLOSED', message);
  }
}

/** A schema upgrade waited too long for other tabs to close their connections. */
export class UpgradeBlockedError extends SessionStoreError {
  constructor(message: string) {
    super('UPGRADE_BLOCKED', message);
  }
}

/** A call through the client took longer than its configured timeout. Its outcome is unknown. */
export class TimeoutError extends SessionStoreError {
  constructor(message: string) {
    super('TIMEOUT', message);
  }
}

/** IndexedDB failed for a reason outside the other codes; the transaction was rolled back. */
export class StorageError extends SessionStoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORAGE_ERROR', message, options);
  }
}

/**
 * A sync step failed (src/sync): `network` (no answer: offline, server down),
 * `auth` (the token was refused: 401/403), `server` (5xx or a garbled answer),
 * `refused` (the server rejected the request: a 4xx other than those). Sync
 * retries on its schedule; nothing stored on the device is lost by a failure.
 */
export class SyncError extends SessionStoreError {
  constructor(
    message: string,
    /** What failed: see the class's description. */
    readonly kind: 'network' | 'auth' | 'server' | 'refused' = 'network',
    /** The HTTP status; 0 when there was no answer. */
    readonly status = 0,
  ) {
    super('SYNC_FAILED', message);
  }
}

export type Family = abstract new (...args: never[]) => SessionStoreError;

/** The class of each code that crosses the worker boundary (`LOAD_FAILED` is raised on the page only). */
const classes: Partial<Record<ErrorCode, Family>> = {
  ALREADY_EXISTS: AlreadyExistsError,
  SESSION_NOT_FOUND: SessionNotFoundError,
  STALE_SESSION: StaleSessionError,
  INVALID_INPUT: InvalidInputError,
  QUOTA_EXCEEDED: QuotaExceededError,
  STORE_CLOSED: StoreClosedError,
  UPGRADE_BLOCKED: UpgradeBlockedError,
  TIMEOUT: TimeoutError,
  STORAGE_ERROR: StorageError,
  SYNC_FAILED: SyncError,
};

/**
 * The family's names, written out (minifiers rename classes), which are also
 * how `fromWireError` finds an error's class. A module declaring a subclass
 * of the family adds it here (`MissingTemplateKeyError`, in ../template.ts;
 * `InvocationNotFoundError`, in ./invocation-not-found.ts; `EventNotFoundError`, in ./event-not-found.ts), so neither the page
 * nor the worker's start-up carries classes it never throws or catches.
 */
export const familyNames = new Map<Family, string>([
  [SessionStoreError, 'SessionStoreError'],
  [AlreadyExistsError, 'AlreadyExistsError'],
  [SessionNotFoundError, 'SessionNotFoundError'],
  [StaleSessionError, 'StaleSessionError'],
  [InvalidInputError, 'InvalidInputError'],
  [QuotaExceededError, 'QuotaExceededError'],
  [StoreClosedError, 'StoreClosedError'],
  [UpgradeBlockedError, 'UpgradeBlockedError'],
  [TimeoutError, 'TimeoutError'],
  [StorageError, 'StorageError'],
  [SyncError, 'SyncError'],
]);

/** The structured-clone-safe form of an error. */
export interface WireError {
  code: ErrorCode | 'UNKNOWN';
  name: string;
  message: string;
  stack?: string;
  /** The error's own fields with plain values: `code` and `name`, and what its class adds (`kind`, `status`, `key`). */
  fields?: Record<string, string | number | boolean | null>;
}

/**
 * `error`'s own enumerable fields with plain values. Read generally, not per
 * class, so a field added to a class later crosses the boundary without anyone
 * remembering to list it.
 */
const fieldsOf = (error: Error): WireError['fields'] =>
  Object.fromEntries(
    Object.entries(error).filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
  );

export function toWireError(error: unknown): WireError {
  if (error instanceof SessionStoreError) {
    return { code: error.code, name: error.name, message: error.message, stack: error.stack, fields: fieldsOf(error) };
  }
  if (error instanceof Error) {
    return {
      code: 'UNKNOWN',
      name: error.name,
      message: error.message,
      stack: error.stack,
    };
  }
  return { code: 'UNKNOWN', name: 'Error', message: String(error) };
}

/**
 * The error `wire` describes, of its class: found by name (a subclass such as
 * `MissingTemplateKeyError`), else by code; a code of the family whose class
 * this realm never loaded (the page of an app that does not import it) gives a
 * `SessionStoreError` with that code and name. It is built as an `Error` with the
 * class's prototype, not through the class's constructor, whose parameters
 * differ from class to class; the fields the constructor set are then set.
 */
export function fromWireError(wire: WireError): Error {
  const named = [...familyNames].find(([, name]) => name === wire.name)?.[0];
  const Class = wire.code === 'UNKNOWN' ? undefined : (named ?? classes[wire.code] ?? SessionStoreError);
  const error: Error = Class ? Reflect.construct(Error, [wire.message], Class) : new Error(wire.message);
  for (const [field, value] of Object.entries({ code: wire.code, name: wire.name, ...wire.fields })) {
    // Defined, not assigned: a field named `__proto__` from the wire stays a field. `code` only on the family.
    if ((Class || field !== 'code') && (value === null || typeof value !== 'object')) {
      Object.defineProperty(error, field, { value, writable: true, enumerable: true, configurable: true });
    }
  }
  if (wire.stack) error.stack = wire.stack;
  return error;
}

function isQuotaError(error: unknown): boolean {
  return error instanceof Error && error.name === 'QuotaExceededError';
}

/**
 * Maps whatever IndexedDB threw (a DOMException, an abort whose cause is a quota
 * error, ...) onto the family. Errors already in the family pass through.
 */
export function normalizeStorageError(error: unknown, transaction?: { error: unknown }): Error {
  if (error instanceof SessionStoreError) return error;
  const cause = transaction?.error ?? error;
  if (isQuotaError(cause) || isQuotaError(error)) {
    return new QuotaExceededError('storage quota exceeded: the write was rolled back', { cause });
  }
  if (error instanceof Error && error.name === 'InvalidStateError') {
    return new StoreClosedError(`the database connection is closed (${error.message})`);
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'UnknownError')) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return new StorageError(`IndexedDB transaction failed: ${detail}`, {
      cause,
    });
  }
  if (error instanceof Error && error.name === 'DataCloneError') {
    return new InvalidInputError(`value cannot be stored: ${error.message}`);
  }
  return error instanceof Error ? error : new StorageError(String(error));
}
