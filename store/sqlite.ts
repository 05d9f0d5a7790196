// A SQLite database as the store opens every one of its own: WAL, each commit synced to disk (FULL), deleted rows
// overwritten (a withdrawal leaves no bytes behind). One place, so the study's database and the registry of studies
// cannot drift apart in what a commit promises.
import Database from 'better-sqlite3';

export function openDurableSqlite(path: string, options: { timeout?: number; foreignKeys?: boolean } = {}): Database.Database {
  const db = new Database(path, options.timeout === undefined ? {} : { timeout: options.timeout });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  if (options.foreignKeys) db.pragma('foreign_keys = ON');
  return db;
}
