/**
 * The device reads the change stream as the SSE format is specified, not only
 * as this server happens to write it: a proxy may rewrite line ends to CRLF,
 * a notice's data may span several `data:` lines, and the network cuts chunks
 * anywhere (between CR and LF, inside a field name, inside a UTF-8 character).
 */
import { describe, expect, it } from 'vitest';
import { SyncError } from '../../../src/core/errors.js';
import { SyncTransport } from '../../../src/sync/transport.js';

const utf8 = new TextEncoder();

/** The cursors a transport announces for a stream whose body arrives as `chunks`. */
async function pokes(chunks: Uint8Array[]): Promise<number[]> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const transport = new SyncTransport({
    url: 'http://sync.test',
    token: 't',
    appName: 'chat',
    userId: 'alice',
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const seen: number[] = [];
  await transport.stream((cursor) => seen.push(cursor), new AbortController().signal);
  return seen;
}

/** `text` cut at every byte offset into two chunks, and into single bytes. */
function cuts(text: string): Uint8Array[][] {
  const bytes = utf8.encode(text);
  const all: Uint8Array[][] = [];
  for (let at = 0; at <= bytes.length; at++) all.push([bytes.slice(0, at), bytes.slice(at)]);
  all.push([...bytes].map((b) => Uint8Array.of(b)));
  return all;
}

const STREAM = [
  '\uFEFF: keep-alive — ü\r\n\r\n',
  'event: poke\r\ndata: {"cursor": 3}\r\n\r\n',
  'event: other\r\ndata: {"cursor": 99}\r\n\r\n',
  'id: 1\r\nevent: poke\r\ndata: {"cursor":\r\ndata:  7}\r\n\r\n',
  'event: poke\rdata: {"cursor": 8}\r\r',
  'event:poke\ndata:{"cursor": 9}\n\n',
].join('');

describe('change notices (SSE) on the device', () => {
  it('reads CRLF and CR line ends, multi-line data, comments, a BOM and other events, however the chunks are cut', async () => {
    for (const chunks of cuts(STREAM)) expect(await pokes(chunks)).toEqual([3, 7, 8, 9]);
  });

  it('reads the notices this server writes (LF, one data line)', async () => {
    expect(
      await pokes([
        utf8.encode('event: poke\ndata: {"cursor":1}\n\n: keep-alive\n\nevent: poke\ndata: {"cursor":2}\n\n'),
      ]),
    ).toEqual([1, 2]);
  });

  it('ends a stream whose notice is not JSON with a server SyncError, so it is opened again', async () => {
    const error = await pokes([utf8.encode('event: poke\ndata: {cursor\n\n')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).kind).toBe('server');
  });

  it('ends a stream that buffers a notice without end past 64 KiB', async () => {
    const error = await pokes([utf8.encode(`event: poke\ndata: ${'x'.repeat(70_000)}`)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
  });
});
