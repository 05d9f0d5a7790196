// One process owns a data directory's files (the embedded store: SQLite + NDJSON). A second server started on the
// same directory must refuse, naming the directory and the process that holds it.
//
// The lock is the operating system's: an exclusive SQLite transaction on `nonolab.lock` held for the process's
// life (a POSIX advisory lock under SQLite), which the kernel drops when the process ends, however it ends (SIGKILL,
// a crash, power loss): no stale lock file to clean up, no PID to guess from. The holder's PID is written beside it
// (`nonolab.lock.pid`), only to be named in the refusal. Within one process the lock is shared: tests start a new
// server on the data of one they abandoned mid-crash, as a restarted process would.
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The data directory is held by another process. */
export class DataDirLockedError extends Error {
  constructor(readonly dir: string, readonly pid: number | null) {
    super(
      `the data directory ${dir} is in use by another nonolab server${pid === null ? '' : ` (pid ${pid})`}: one process owns its files. ` +
        'Stop that server, or give this one another NONOLAB_DATA_DIR (or a shared PostgreSQL database with NONOLAB_DATABASE_URL for several processes).',
    );
  }
}

const held = new Map<string, { db: Database.Database; users: number }>();

export interface DataDirLock {
  release(): void;
}

/** Take the data directory's lock, or throw DataDirLockedError if another process holds it. */
export function lockDataDir(dir: string): DataDirLock {
  const path = join(dir, 'nonolab.lock');
  let entry = held.get(path);
  if (!entry) {
    const db = new Database(path, { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS held_by (pid INTEGER)');
      // The first write under EXCLUSIVE locking mode takes the file's lock and keeps it until the connection closes.
      db.exec('BEGIN EXCLUSIVE; DELETE FROM held_by; INSERT INTO held_by VALUES (' + process.pid + '); COMMIT');
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY' || (err as { code?: string }).code === 'SQLITE_LOCKED') throw new DataDirLockedError(dir, holderPid(path));
      throw err;
    }
    writeFileSync(`${path}.pid`, `${process.pid}\n`);
    held.set(path, (entry = { db, users: 0 }));
  }
  entry.users += 1;
  let released = false;
  const mine = entry;
  return {
    release() {
      if (released) return;
      released = true;
      mine.users -= 1;
      if (mine.users === 0 && held.get(path) === mine) {
        held.delete(path);
        mine.db.close();
      }
    },
  };
}

function holderPid(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(`${path}.pid`, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
