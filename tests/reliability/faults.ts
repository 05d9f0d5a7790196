// Store-specific faults and look-ups for the reliability suites that run on both stores: a process dying inside a
// PostgreSQL transaction (its connections dropped), statements of the events table failing or held at commit by a
// trigger, and "every row of a session, anywhere" on either store (SQLite's tables and the NDJSON files, or every
// table of the PostgreSQL database).
import Database from 'better-sqlite3';
import pg from 'pg';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBinDir, type PostgresCluster } from '../support/postgres.ts';
import { rowsMentioning, type TestServer } from '../support/testServer.ts';

/** Run SQL on a PostgreSQL database with a connection of its own. */
export async function sql<T = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * What PostgreSQL sees when a server process dies: every connection of the database but this one is terminated, so a
 * transaction still open is aborted (nothing of it commits). Returns how many were dropped.
 */
export async function dropConnections(databaseUrl: string): Promise<number> {
  const rows = await sql<{ dropped: boolean }>(
    databaseUrl,
    'SELECT pg_terminate_backend(pid) AS dropped FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return rows.filter((r) => r.dropped).length;
}

/**
 * A trigger on the events table for the records of one session whose client seq is `seq`: `fail` raises an error
 * (a statement failing mid-batch, after the batch's earlier rows were inserted), `sleep` holds the inserting
 * transaction (for `dropConnections` to abort it mid-batch). `clearTrigger` removes it.
 */
export async function eventsTrigger(databaseUrl: string, sessionId: string, seq: number, action: 'fail' | 'sleep'): Promise<void> {
  const body = action === 'fail' ? `RAISE EXCEPTION 'test fault: the disk is full'` : 'PERFORM pg_sleep(60)';
  await sql(
    databaseUrl,
    `CREATE OR REPLACE FUNCTION test_fault() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN
       IF NEW.session_id = '${sessionId}' AND NEW.seq = ${seq} THEN ${body}; END IF; RETURN NEW; END $f$;
     DROP TRIGGER IF EXISTS test_fault ON events;
     CREATE TRIGGER test_fault AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_fault();`,
  );
}

/**
 * Hold every commit that inserted events until `release`: a deferred constraint trigger (run at COMMIT) waits for an
 * advisory lock this connection holds. Rows inserted meanwhile are written but not committed (no other connection
 * sees them), exactly the window between the write and the fsync on the embedded store.
 */
export async function holdCommits(databaseUrl: string): Promise<{ waiting: () => Promise<number>; release: () => Promise<void> }> {
  const key = 0x74657374;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`SELECT pg_advisory_lock(${key})`);
  await client.query(
    `CREATE OR REPLACE FUNCTION test_hold() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN
       PERFORM pg_advisory_lock_shared(${key}); PERFORM pg_advisory_unlock_shared(${key}); RETURN NULL; END $f$;
     DROP TRIGGER IF EXISTS test_hold ON events;
     CREATE CONSTRAINT TRIGGER test_hold AFTER INSERT ON events DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_hold();`,
  );
  return {
    /** Transactions now waiting at their commit. */
    waiting: async () =>
      Number((await client.query("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1", [key])).rows[0].n),
    release: async () => {
      // Unlock first: dropping the trigger waits for the held transactions (they hold the events table), which wait for the lock.
      await client.query(`SELECT pg_advisory_unlock(${key})`);
      await client.query('DROP TRIGGER IF EXISTS test_hold ON events');
      await client.end();
    },
  };
}

export async function clearTrigger(databaseUrl: string): Promise<void> {
  await sql(databaseUrl, 'DROP TRIGGER IF EXISTS test_fault ON events');
}

/** A session's client seqs in its log, in log order, from either store (read behind the server's back). */
export async function loggedSeqs(server: Pick<TestServer, 'dataDir' | 'databaseUrl'>, sessionId: string): Promise<number[]> {
  if (server.databaseUrl)
    return (await sql<{ seq: number }>(server.databaseUrl, 'SELECT seq FROM events WHERE session_id = $1 AND seq IS NOT NULL ORDER BY n', [sessionId])).map((r) => r.seq);
  const file = join(server.dataDir, 'sessions', `${sessionId}.ndjson`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { origin: string; seq?: number })
    .filter((r) => r.origin === 'client')
    .map((r) => r.seq!);
}

/** A session's records of one type in its log (server and client alike), from either store. */
export async function loggedTypes(server: Pick<TestServer, 'dataDir' | 'databaseUrl'>, sessionId: string): Promise<string[]> {
  if (server.databaseUrl) return (await sql<{ t: string }>(server.databaseUrl, "SELECT record->>'type' AS t FROM events WHERE session_id = $1 ORDER BY n", [sessionId])).map((r) => r.t);
  const file = join(server.dataDir, 'sessions', `${sessionId}.ndjson`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => (JSON.parse(l) as { type: string }).type);
}

/**
 * Everything that still names a session, in either store: on PostgreSQL every row of every table whose text contains
 * its id; on the embedded store every row of every table of each SQLite database in the data directory ( read with a connection
 * of its own) and every file under sessions/ (quarantined copies too) whose name or content contains it.
 */
export async function tracesOf(server: Pick<TestServer, 'dataDir' | 'databaseUrl'>, sessionId: string): Promise<string[]> {
  if (server.databaseUrl) return rowsMentioning(server.databaseUrl, sessionId);
  const found: string[] = [];
  for (const file of readdirSync(server.dataDir).filter((f) => f.endsWith('.sqlite'))) {
    const db = new Database(join(server.dataDir, file), { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
      for (const t of tables)
        for (const row of db.prepare(`SELECT * FROM "${t}"`).all()) {
          const text = JSON.stringify(row);
          if (text.includes(sessionId)) found.push(`${file} ${t}: ${text}`);
        }
    } finally {
      db.close();
    }
  }
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.includes(sessionId) || readFileSync(path, 'utf8').includes(sessionId)) found.push(`file ${path}`);
    }
  };
  walk(join(server.dataDir, 'sessions'));
  return found;
}

/**
 * PostgreSQL itself crashes and comes back: `pg_ctl stop -m immediate` (every server process killed, no checkpoint:
 * the next start replays the WAL, as after a power cut with fsync on), `downMs` of downtime, then a start with the
 * cluster's options. Only for a cluster of the test's own (startCluster), never the run's shared one.
 */
export async function crashCluster(cluster: PostgresCluster, downMs: number): Promise<void> {
  const bin = postgresBinDir()!;
  const data = join(cluster.dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  run('pg_ctl', ['stop', '-m', 'immediate', '-D', data]);
  await new Promise((r) => setTimeout(r, downMs));
  const options = `-p ${cluster.port} -k ${cluster.dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB`;
  run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(cluster.dir, 'log'), '-o', options]);
}
