// Opens the store a server runs on: the embedded SQLite + NDJSON files in the data directory (the default), or
// PostgreSQL when a database URL is given (NONOLAB_DATABASE_URL=postgres://…). Nothing above this file knows which.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventLog, type EventStore } from './eventLog.ts';
import { SqliteStore, type StudyStore } from './store.ts';
import { PgEventStore, PgStore } from './pgStore.ts';
import { DataDirLockedError, lockDataDir } from './dataDirLock.ts';
import { isPostgresUrl, redactUrl } from './databaseUrl.ts';

export { isPostgresUrl, redactUrl } from './databaseUrl.ts';

export interface OpenStores {
  store: StudyStore;
  events: EventStore;
  close(): Promise<void>;
}

/** The database named cannot be used (a bad URL, a server that does not answer, refused credentials). */
export class StoreError extends Error {}

/** `schema`: on PostgreSQL, the schema of a study beyond the first (store/studies.ts: schemaOf); none: the first study's. */
export async function openStores(opts: { dataDir: string; databaseUrl?: string; schema?: string }): Promise<OpenStores> {
  const url = opts.databaseUrl;
  if (url !== undefined && url !== '' && !isPostgresUrl(url)) throw new StoreError(`NONOLAB_DATABASE_URL: expected postgres://user:password@host:port/database, got '${redactUrl(url)}'`);
  if (isPostgresUrl(url)) {
    let store: PgStore;
    try {
      store = await PgStore.open(url, { schema: opts.schema });
    } catch (err) {
      throw new StoreError(`NONOLAB_DATABASE_URL: cannot use the database at ${redactUrl(url)}: ${(err as Error).message}`);
    }
    mkdirSync(opts.dataDir, { recursive: true });
    return { store, events: new PgEventStore(store), close: () => store.close() };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  // One process owns the files: a second server on the same directory refuses here, before it opens anything.
  let lock;
  try {
    lock = lockDataDir(opts.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new StoreError(err.message);
    throw err;
  }
  let store: SqliteStore;
  try {
    store = new SqliteStore(join(opts.dataDir, 'nonolab.sqlite'));
  } catch (err) {
    lock.release();
    throw err;
  }
  store.startCheckpointer();
  const events = new EventLog(join(opts.dataDir, 'sessions'));
  // The acked seq and step of every session written in one flush: one SQLite transaction, run synchronously.
  events.afterSyncGroup = (run) => store.commitUnsyncedNow(run);
  events.afterSyncOps = store.direct;
  return {
    store,
    events,
    async close() {
      events.close();
      try {
        await store.close();
      } finally {
        lock.release();
      }
    },
  };
}
