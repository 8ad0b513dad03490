/**
 * A TCP relay between a server process and Postgres that a test can partition: `cut()` stops
 * relaying both ways but closes nothing, as a network partition does (neither end hears a FIN or a
 * reset, so Postgres keeps the process's backends, their transactions and their advisory locks);
 * new connections made while cut hang too. `heal()` closes every connection the cut froze (as the
 * partition's TCP timeouts would in the end) and relays new ones again.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface Partition {
  /** `postgres://` URL of `url` with its host and port replaced by the relay's. */
  url: string;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startPartition(url: string): Promise<Partition> {
  const target = new URL(url);
  let cut = false;
  const pairs = new Set<[Socket, Socket]>();
  const frozen = new Set<Socket>();
  const server = createServer((client) => {
    if (cut) {
      client.pause();
      frozen.add(client);
      client.on('error', () => {});
      return;
    }
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const [from, to] of [pair, [upstream, client] as const]) {
      from.on('data', (chunk) => {
        if (!cut) to.write(chunk);
      });
      from.on('error', drop);
      from.on('close', drop);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as { port: number }).port);
  return {
    url: relayed.toString(),
    cut() {
      cut = true;
      for (const [client, upstream] of pairs) {
        // Whatever arrives while cut is lost, as on a partitioned link: no socket reads it back later.
        client.pause();
        upstream.pause();
        frozen.add(client);
        frozen.add(upstream);
      }
    },
    heal() {
      cut = false;
      for (const socket of frozen) socket.destroy();
      frozen.clear();
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      for (const socket of frozen) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
