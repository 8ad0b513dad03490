/**
 * The libsql owner file, in this process (milliseconds, no server launched): a file naming a live
 * process of this host is refused, one naming a dead process or this process (a restarted
 * container's PID 1) is taken over, one naming another host is refused with that host in the
 * message; a start that fails later (its port taken) lets the file go. cluster.test.ts keeps one
 * refusal through a real server process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSyncServer } from '../../../server/index.js';
import { DatabaseInUseError, ownFile } from '../../../server/owner-file.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sync-owner-'));
  file = join(dir, 'sync.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const leave = (content: string) => writeFileSync(`${file}.owner`, content);
const refusal = (): DatabaseInUseError => {
  try {
    ownFile(file).release();
  } catch (error) {
    if (error instanceof DatabaseInUseError) return error;
    throw error;
  }
  throw new Error('the file was taken, not refused');
};

describe('owner file', () => {
  it('is written with our id and host, refuses a second open while held, and goes at release', () => {
    const owner = ownFile(file);
    expect(readFileSync(`${file}.owner`, 'utf8')).toBe(`${process.pid}\n${hostname()}\n`);
    const error = refusal();
    expect(error.ownerPid).toBe(process.pid);
    expect(error.ownerHost).toBeUndefined();
    owner.release();
    expect(existsSync(`${file}.owner`)).toBe(false);
  });

  it("takes over a file naming this process's id that this process does not hold (a restarted container's PID 1)", () => {
    leave(`${process.pid}\n${hostname()}\n`);
    ownFile(file).release();
    leave(`${process.pid}\n`);
    ownFile(file).release();
  });

  it('refuses a file naming a live process of this host, naming it', () => {
    leave(`${process.ppid}\n${hostname()}\n`);
    const error = refusal();
    expect(error.ownerPid).toBe(process.ppid);
    expect(error.message).toContain(`${file}.owner`);
    expect(readFileSync(`${file}.owner`, 'utf8')).toBe(`${process.ppid}\n${hostname()}\n`);
  });

  it('takes over a file naming a process that has ended', () => {
    const { pid } = spawnSync('true');
    leave(`${pid}\n${hostname()}\n`);
    const owner = ownFile(file);
    expect(readFileSync(`${file}.owner`, 'utf8')).toBe(`${process.pid}\n${hostname()}\n`);
    owner.release();
  });

  it('refuses a file naming another host, whatever its id, naming the host and the fix', () => {
    const { pid } = spawnSync('true');
    for (const id of [pid, process.pid]) {
      leave(`${id}\nother-container\n`);
      const error = refusal();
      expect(error.ownerHost).toBe('other-container');
      expect(error.message).toMatch(/on host other-container, not this host .*remove \S+sync\.db\.owner/);
    }
  });
});

describe('a start that fails after taking the file', () => {
  it('releases it: the port was taken, and the next start on the file comes up', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      await expect(startSyncServer({ file, port, authenticate: () => undefined })).rejects.toThrow(/EADDRINUSE/);
      const server = await startSyncServer({ file, port: 0, authenticate: () => undefined });
      await server.close();
    } finally {
      busy.close();
    }
  }, 10_000);
});
