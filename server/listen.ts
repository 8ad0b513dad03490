/**
 * The connection a Postgres server process LISTENs on, outside the pool (a pooled one could be
 * reaped or lent out), made by the driver the ORM already uses. A lost connection is made again,
 * once a second, and `resumed` runs each time one is (re)established: what was announced while it
 * was down is lost, so the caller catches its listeners up then.
 *
 * A connection can also be lost without a word: one idle for minutes is what NATs, load balancers
 * and proxies drop silently, and the process would hear no other process's changes again until
 * TCP gives up, hours later. So the connection is asked `SELECT 1` every `heartbeatMs`; one that
 * has not answered within the next `heartbeatMs` is dropped and made again. The traffic also keeps
 * the path's idle timers from firing.
 */

/** The driver's connection: what is used of pg's `Client`. */
export interface ListenClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', handler: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', handler: () => void): void;
}

/** What is used of knex's client: connections made and ended outside its pool. */
export interface RawConnections {
  acquireRawConnection(): Promise<ListenClient>;
  destroyRawConnection(connection: ListenClient): Promise<void>;
}

/** How often the listening connection is checked, and how long it has to answer. */
export const LISTEN_HEARTBEAT_MS = 30_000;
const RECONNECT_MS = 1_000;

export async function listenOn(
  raw: RawConnections,
  channel: string,
  heard: (payload: string) => void,
  resumed: () => void,
  heartbeatMs = LISTEN_HEARTBEAT_MS,
): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let current: ListenClient | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let beat: ReturnType<typeof setTimeout> | undefined;
  const again = () => {
    current = undefined;
    clearTimeout(beat);
    if (!closed && retry === undefined) retry = setTimeout(connect, RECONNECT_MS);
  };
  const drop = (connection: ListenClient) => {
    if (current !== connection) return;
    again();
    void raw.destroyRawConnection(connection).catch(() => {});
  };
  /** One check at a time: the next is timed from this one's answer. */
  const heartbeat = (connection: ListenClient) => {
    beat = setTimeout(async () => {
      let late: ReturnType<typeof setTimeout> | undefined;
      const answered = await Promise.race([
        connection.query('SELECT 1').then(
          () => true,
          () => false,
        ),
        new Promise<false>((resolve) => {
          late = setTimeout(() => resolve(false), heartbeatMs);
          late.unref?.();
        }),
      ]);
      clearTimeout(late);
      if (current !== connection) return;
      if (answered) heartbeat(connection);
      else drop(connection);
    }, heartbeatMs);
    beat.unref?.();
  };
  async function connect(): Promise<void> {
    retry = undefined;
    let connection: ListenClient | undefined;
    try {
      connection = await raw.acquireRawConnection();
      const mine = connection;
      mine.on('notification', (message) => {
        if (message.channel === channel && message.payload) heard(message.payload);
      });
      mine.on('error', () => drop(mine));
      mine.on('end', () => drop(mine));
      await mine.query(`LISTEN ${channel}`);
      if (closed) return void (await raw.destroyRawConnection(mine));
      current = mine;
      heartbeat(mine);
      resumed();
    } catch {
      if (connection) await raw.destroyRawConnection(connection).catch(() => {});
      again();
    }
  }
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(beat);
      const last = current;
      current = undefined;
      if (last) await raw.destroyRawConnection(last).catch(() => {});
    },
  };
}
