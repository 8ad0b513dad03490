/**
 * One server process per libsql file: `<file>.owner` holds the owning process's id from open to
 * close, created exclusively (`wx`), so a second process gets `DatabaseInUseError` naming the file
 * and the owner. A file left by a process that died (SIGKILL, a crash) names a process that no
 * longer runs and is taken over. Not SQLite's `locking_mode=EXCLUSIVE`: libsql closes a connection
 * only when its prepared statements are collected, so a closed server kept the file locked against
 * the next open in the same process (a restart, ADK's own service on the file) for an unknown time.
 * Limits: the file system must be local (process ids mean nothing across machines), and a dead
 * owner whose id the system has given to another running process blocks the file until the
 * owner file is removed by hand; the error says so.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** A second process opened a libsql file that a running server holds. */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
  constructor(
    readonly file: string,
    readonly ownerPid: number,
  ) {
    super(
      `the sync database ${file} is in use by server process ${ownerPid}: a libsql file serves one server process; run several on Postgres (DATABASE_URL). If process ${ownerPid} is not a sync server, remove ${file}.owner`,
    );
  }
}

export function ownFile(file: string): { release(): void } {
  // Not a file of this machine (`:memory:`, a `libsql://` or `file:` URL): nothing to own by name.
  if (file === ':memory:' || /^[a-z][a-z0-9+.-]+:/i.test(file)) return { release() {} };
  const path = `${file}.owner`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          // Only our own: a file another process took over after ours was removed by hand stays.
          if (readOwner(path) === process.pid) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    if (owner !== undefined && running(owner)) throw new DatabaseInUseError(file, owner);
    // A dead owner's file (or one being written this instant: read again before removing).
    if (readOwner(path) === owner) {
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  throw new DatabaseInUseError(file, readOwner(path) ?? 0);
}

function readOwner(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
