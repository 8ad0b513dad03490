/**
 * Whether a failure is the database being out of reach (restarting, refusing connections, a
 * connection cut or ended by the database itself) rather than a fault in the request or the server.
 * Such a request is answered 503 with `Retry-After`, and the server logs one line, not a stack: it
 * is expected in a restart or a failover, and a device retries it as it does any 5xx. Drivers and
 * the ORM wrap the original error (`cause`, MikroORM's `previous`): the whole chain is read.
 */

/** Postgres SQLSTATEs of a database going away: admin/crash shutdown, starting up, an idle transaction ended. */
const GONE_STATES = new Set(['57P01', '57P02', '57P03', '25P03']);
/** Socket errors of a connection that cannot be made or was cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * pg's and knex's messages for a lost or unobtainable connection (they carry no code). knex says a
 * transaction's query is "already complete" when the transaction's connection died under it.
 */
const LOST =
  /Connection terminated|Connection ended unexpectedly|Timeout acquiring a connection|Client has encountered a connection error|Transaction query already complete/;

/** What in `error`'s chain says the database is out of reach (a code or a message), or `undefined`. */
export function unreachableDatabase(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let e = error; typeof e === 'object' && e !== null && !seen.has(e); ) {
    seen.add(e);
    const { code, message, cause, previous } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      previous?: unknown;
    };
    if (typeof code === 'string' && (GONE_STATES.has(code) || SOCKET_CODES.has(code) || /^08/.test(code))) return code;
    if (typeof message === 'string' && LOST.test(message)) return message;
    e = previous ?? cause;
  }
  return undefined;
}
