// The statements the registry of studies and experimenters runs (store/studies.ts holds its rules), on either
// database: the tables (the same SQL text for both), and one implementation of RegistryDb per database. Embedded:
// `studies.sqlite` in the data directory (WAL with a busy timeout, so the `nonolab study …` / `nonolab user …`
// commands can change it while the server runs); PostgreSQL: the schema `nonolab_registry`, so every server process
// on the database sees the same studies, accounts and logins.
import Database from 'better-sqlite3';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDurableSqlite } from './sqlite.ts';
import { pgTransaction } from './pgStore.ts';

export const REGISTRY_FILE = 'studies.sqlite';

/** The PostgreSQL schema holding the registry's tables. */
export const REGISTRY_SCHEMA = 'nonolab_registry';


/**
 * The statements a registry runs, on one database: SQL with `?` placeholders, the same text for SQLite and PostgreSQL.
 * `transaction` runs `fn` in one transaction (inside one already: as part of it).
 */
export interface RegistryDb {
  readonly kind: 'sqlite' | 'postgres';
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
  transaction<T>(fn: (db: RegistryDb) => Promise<T>): Promise<T>;
  /** The error is a unique key taken meanwhile (by another process: the check before the insert did not see it). */
  isUniqueViolation(err: unknown): boolean;
  close(): Promise<void>;
}

/** The tables, for either database: {time} a time in ms, {serial} an increasing row id. */
const REGISTRY_TABLES = `
CREATE TABLE IF NOT EXISTS studies (
  slug TEXT PRIMARY KEY,
  study_id TEXT NOT NULL,
  title TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  config_json TEXT NOT NULL,
  first INTEGER NOT NULL DEFAULT 0,
  archived INTEGER NOT NULL DEFAULT 0,
  created_at {time} NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS studies_first ON studies(first) WHERE first = 1;
CREATE TABLE IF NOT EXISTS study_versions (
  slug TEXT NOT NULL REFERENCES studies(slug) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  config_hash TEXT NOT NULL,
  config_json TEXT NOT NULL,
  created_at {time} NOT NULL,
  PRIMARY KEY (slug, version),
  UNIQUE (slug, config_hash)
);
CREATE TABLE IF NOT EXISTS accounts (
  name TEXT PRIMARY KEY,
  password_hash TEXT,
  admin INTEGER NOT NULL DEFAULT 0,
  created_at {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS memberships (
  slug TEXT NOT NULL REFERENCES studies(slug) ON DELETE CASCADE,
  account TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'viewer')),
  PRIMARY KEY (slug, account)
);
CREATE TABLE IF NOT EXISTS account_logins (
  token_hash TEXT PRIMARY KEY,
  account TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
  password_hash TEXT NOT NULL,
  created_at {time} NOT NULL,
  expires_at {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS registry_audit (
  id {serial},
  at {time} NOT NULL,
  account TEXT,
  action TEXT NOT NULL,
  detail TEXT NOT NULL
);
`;

/** The registry's tables, their columns in order and their key: what `migrate` copies and compares row for row. */
export const REGISTRY_TABLE_COLUMNS: Record<string, { columns: string[]; key: string }> = {
  studies: { columns: ['slug', 'study_id', 'title', 'config_hash', 'config_json', 'first', 'archived', 'created_at'], key: 'slug' },
  study_versions: { columns: ['slug', 'version', 'config_hash', 'config_json', 'created_at'], key: 'slug, version' },
  accounts: { columns: ['name', 'password_hash', 'admin', 'created_at'], key: 'name' },
  memberships: { columns: ['slug', 'account', 'role'], key: 'slug, account' },
  account_logins: { columns: ['token_hash', 'account', 'password_hash', 'created_at', 'expires_at'], key: 'token_hash' },
  registry_audit: { columns: ['id', 'at', 'account', 'action', 'detail'], key: 'id' },
};

/**
 * The embedded registry's statements. better-sqlite3 runs each synchronously; a transaction's body awaits only these
 * (already settled) promises, so it runs to its end before any other request's callback, and transactions are queued
 * one behind the other (never a BEGIN inside another's).
 */
class SqliteRegistryDb implements RegistryDb {
  readonly kind = 'sqlite' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly db: Database.Database) {}

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.db.prepare(sql).all(...params) as T[];
  }
  async run(sql: string, params: readonly unknown[] = []): Promise<void> {
    this.db.prepare(sql).run(...params);
  }
  transaction<T>(fn: (db: RegistryDb) => Promise<T>): Promise<T> {
    const inside: RegistryDb = { kind: 'sqlite', all: (s, p) => this.all(s, p), run: (s, p) => this.run(s, p), transaction: (f) => f(inside), isUniqueViolation: (e) => this.isUniqueViolation(e), close: async () => {} };
    const next = this.queue.then(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(inside);
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
  isUniqueViolation(err: unknown): boolean {
    const code = (err as { code?: unknown } | null)?.code;
    return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  }
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

// bigint columns (times in ms) as numbers, as the PostgreSQL store reads them (store/pgStore.ts).
pg.types.setTypeParser(20, (v) => Number(v));
const REGISTRY_LOCK = 0x6e6f6e71;
const placeholders = (sql: string): string => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/** The PostgreSQL registry's statements: a pool whose connections see the schema nonolab_registry (search_path). */
class PgRegistryDb implements RegistryDb {
  readonly kind = 'postgres' as const;
  constructor(private readonly q: pg.Pool | pg.PoolClient) {}

  static async open(url: string): Promise<PgRegistryDb> {
    const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${REGISTRY_SCHEMA}` });
    pool.on('error', () => {});
    try {
      await pgTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [REGISTRY_LOCK]);
        // Made only when absent: a role without CREATE on the database works in a schema made for it beforehand.
        if ((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [REGISTRY_SCHEMA])).rowCount === 0) await client.query(`CREATE SCHEMA ${REGISTRY_SCHEMA}`);
        await client.query(REGISTRY_TABLES.replace(/\{time\}/g, 'BIGINT').replace(/\{serial\}/g, 'BIGSERIAL PRIMARY KEY'));
      });
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PgRegistryDb(pool);
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.q.query(placeholders(sql), params as unknown[])).rows as T[];
  }
  async run(sql: string, params: readonly unknown[] = []): Promise<void> {
    await this.q.query(placeholders(sql), params as unknown[]);
  }
  async transaction<T>(fn: (db: RegistryDb) => Promise<T>): Promise<T> {
    if (!(this.q instanceof pg.Pool)) return fn(this);
    return pgTransaction(this.q, (client) => fn(new PgRegistryDb(client)));
  }
  isUniqueViolation(err: unknown): boolean {
    return (err as { code?: unknown } | null)?.code === '23505';
  }
  async close(): Promise<void> {
    if (this.q instanceof pg.Pool) await this.q.end();
  }
}

/** The embedded registry's database in the data directory (made, with its tables, if absent). */
export function openSqliteRegistryDb(dataDir: string): RegistryDb {
  mkdirSync(dataDir, { recursive: true });
  const db = openDurableSqlite(join(dataDir, REGISTRY_FILE), { timeout: 5_000, foreignKeys: true });
  db.exec(REGISTRY_TABLES.replace(/\{time\}/g, 'INTEGER').replace(/\{serial\}/g, 'INTEGER PRIMARY KEY AUTOINCREMENT'));
  return new SqliteRegistryDb(db);
}

/** The registry's schema in a PostgreSQL database (made, with its tables, if absent, by whichever process comes first). */
export function openPgRegistryDb(url: string): Promise<RegistryDb> {
  return PgRegistryDb.open(url);
}
