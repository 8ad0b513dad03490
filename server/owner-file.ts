/**
 * One server process per libsql file: `<file>.owner` holds the owning process's id and host name
 * from open to close, created exclusively (`wx`), so a second process gets `DatabaseInUseError`
 * naming the file, the owner and its host. A file left by a process that died (SIGKILL, a crash)
 * is taken over: one naming a process that no longer runs, or naming this very process when this
 * process does not hold it (a container's server is PID 1 in every incarnation, so after a crash
 * the new one finds its own id). A file naming another host is refused, never taken over: process
 * ids mean nothing across machines or containers (two containers on one volume each see the
 * other's id as dead), so whether its owner runs cannot be known here; the error says how to free it.
 * Not SQLite's `locking_mode=EXCLUSIVE`: libsql closes a connection only when its prepared
 * statements are collected, so a closed server kept the file locked against the next open in the
 * same process (a restart, ADK's own service on the file) for an unknown time.
 * Limits: a dead owner whose id the system has given to another running process blocks the file
 * until the owner file is removed by hand; the error says so.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** A second process opened a libsql file that a running server (or one on another host) holds. */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
  constructor(
    readonly file: string,
    readonly ownerPid: number,
    /** The owner's host when it is not this one. */
    readonly ownerHost?: string,
  ) {
    super(
      ownerHost === undefined
        ? `the sync database ${file} is in use by server process ${ownerPid}: a libsql file serves one server process; run several on Postgres (DATABASE_URL). If process ${ownerPid} is not a sync server, remove ${file}.owner`
        : `the sync database ${file} is in use by server process ${ownerPid} on host ${ownerHost}, not this host (${hostname()}): a libsql file serves one server process; run several on Postgres (DATABASE_URL). If no sync server runs on ${ownerHost} (a container that is gone), remove ${file}.owner`,
    );
  }
}

/** Owner files this process holds: only these make our own id in a file mean "running". */
const held = new Set<string>();

export function ownFile(file: string): { release(): void } {
  // Not a file of this machine (`:memory:`, a `libsql://` or `file:` URL): nothing to own by name.
  if (file === ':memory:' || /^[a-z][a-z0-9+.-]+:/i.test(file)) return { release() {} };
  const path = `${file}.owner`;
  const here = hostname();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n${here}\n`);
      closeSync(fd);
      held.add(path);
      let mine = true;
      return {
        release() {
          if (!mine) return;
          mine = false;
          held.delete(path);
          // Only our own: a file another process took over after ours was removed by hand stays.
          const owner = readOwner(path);
          if (owner?.pid === process.pid && (owner.host ?? here) === here) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    if (owner !== undefined) {
      // A file of an earlier release names no host: it was written on this one.
      if (owner.host !== undefined && owner.host !== here) throw new DatabaseInUseError(file, owner.pid, owner.host);
      const alive = owner.pid === process.pid ? held.has(path) : running(owner.pid);
      if (alive) throw new DatabaseInUseError(file, owner.pid);
    }
    // A dead owner's file (or one being written this instant: read again before removing).
    if (sameOwner(readOwner(path), owner)) {
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  const last = readOwner(path);
  throw new DatabaseInUseError(file, last?.pid ?? 0, last?.host === here ? undefined : last?.host);
}

interface Owner {
  pid: number;
  host?: string;
}

function readOwner(path: string): Owner | undefined {
  try {
    const [first, second] = readFileSync(path, 'utf8').split('\n');
    const pid = Number.parseInt(first ?? '', 10);
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    const host = second?.trim();
    return host ? { pid, host } : { pid };
  } catch {
    return undefined;
  }
}

const sameOwner = (a: Owner | undefined, b: Owner | undefined): boolean => a?.pid === b?.pid && a?.host === b?.host;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
