// `nonolab migrate --from DATA_DIR --to postgres://…`: a data directory's embedded stores (SQLite + NDJSON files: the
// first study's and each further study's in studies/<slug>/) and its registry of studies and accounts (studies.sqlite)
// copied into PostgreSQL, idempotent and resumable, then verified by counts and hashes. Each study's store goes into its
// place (the first's into `public`, each other's into its schema `study_<slug>`) as follows; the registry last (migrate).
//
// How: the rows (sessions, the sequence pool with its ids and lease order, panel ids, completions, recruitment, tokens,
// audit, log repairs, and the experimenter's password hash, login sessions and marks) are upserted or mirrored, so a
// second run brings over whatever changed since the first. Each session's events
// go over in one transaction per session: the rows already in the database must be the file's first lines, byte for byte
// (else the run stops: the target is not this study's copy), and only the lines after them are inserted, so a run cut
// short resumes where it stopped and a rerun after more play copies the new events. The target mirrors the source:
// sessions the source no longer has (withdrawn since the last run) are deleted there too. Verification reads both sides
// again: counts of every table, the SHA-256 of the experimenter's tables' rows, and per session the SHA-256 of its log
// (the NDJSON lines in order) must agree.
// What it cannot do: catch events written to the files while it runs (run it again after stopping the server: the
// last run is the one that counts, and it says when everything agrees).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PgStore } from './pgStore.ts';
import { StudyRegistry, schemaOf } from './studies.ts';
import { REGISTRY_FILE, REGISTRY_SCHEMA, REGISTRY_TABLE_COLUMNS } from './registryDb.ts';
import pg from 'pg';
import { completeLines } from '../shared/log/index.ts';

/** One study's store copied: its rows and events. */
export interface StoreMigrationReport {
  sessions: number;
  sequences: number;
  events_copied: number;
  events_total: number;
  sessions_removed: string[];
  /** Problems found by the verification (empty: counts and hashes agree). */
  mismatches: string[];
  /** Per table: rows in the source and in the target after the run. */
  counts: Record<string, { source: number; target: number }>;
}

const TABLES = ['sessions', 'sequences', 'panel_ids', 'completions', 'recruitment', 'session_tokens', 'audit', 'log_repairs', 'admin_credentials', 'admin_sessions', 'admin_marks'] as const;

/** The experimenter's tables (server/admin), their columns in order and their key: compared row for row by hash. */
const ADMIN_TABLES: Record<string, { columns: string[]; key: string }> = {
  admin_credentials: { columns: ['id', 'password_hash', 'set_at'], key: 'id' },
  admin_sessions: { columns: ['token_hash', 'created_at', 'expires_at'], key: 'token_hash' },
  admin_marks: { columns: ['session_id', 'flag', 'extended_until', 'ended_at', 'updated_at'], key: 'session_id' },
};

/** SHA-256 of rows given as value lists (numbers as numbers, null as null), in key order. */
const hashRows = (rows: readonly unknown[][]): string => {
  const h = createHash('sha256');
  for (const r of rows) h.update(JSON.stringify(r)).update('\n');
  return h.digest('hex');
};

/** A session file's whole lines (a torn last line, a crash's, is not copied: the server cuts it at start-up too). */
function fileLines(path: string): string[] {
  return existsSync(path) ? completeLines(readFileSync(path, 'utf8')) : [];
}

const hashLines = (lines: readonly string[]): string => {
  const h = createHash('sha256');
  for (const l of lines) h.update(l).update('\n');
  return h.digest('hex');
};

type Row = Record<string, unknown>;

/** One study's store (`from`: its data directory) into its place in the database (`schema`: none for the first study's, `public`). */
async function migrateStore(opts: { from: string; to: string; schema?: string; log: (m: string) => void }): Promise<StoreMigrationReport> {
  const log = opts.log;
  const dbPath = join(opts.from, 'nonolab.sqlite');
  if (!existsSync(dbPath)) throw new Error(`--from ${opts.from}: no nonolab.sqlite there (not a nonolab data directory)`);
  const src = new Database(dbPath, { readonly: true, fileMustExist: true });
  const store = await PgStore.open(opts.to, { max: 2, schema: opts.schema });
  const pool = store.pool;
  try {
    const all = (sql: string): Row[] => src.prepare(sql).all() as Row[];
    const sessions = all('SELECT * FROM sessions ORDER BY created_at, id');
    const sequences = all('SELECT * FROM sequences ORDER BY id');
    const hasTable = (name: string) => !!src.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
    const rowsOf = (name: string): Row[] => (hasTable(name) ? all(`SELECT * FROM ${name}`) : []);

    // The rows, upserted (a rerun takes every change), all in one transaction.
    let removed: string[] = [];
    const tx = await pool.connect();
    try {
      await tx.query('BEGIN');
      for (const s of sessions)
        await tx.query(
          `INSERT INTO sessions (id, token_hash, mode, label, status, created_at, updated_at, step, step_started_at, acked_seq, sequence_id, config_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
           ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, mode = excluded.mode, label = excluded.label, status = excluded.status,
             created_at = excluded.created_at, updated_at = excluded.updated_at, step = excluded.step, step_started_at = excluded.step_started_at,
             acked_seq = excluded.acked_seq, sequence_id = excluded.sequence_id, config_hash = excluded.config_hash`,
          [s.id, s.token_hash, s.mode, s.label, s.status, s.created_at, s.updated_at, s.step, s.step_started_at ?? 0, s.acked_seq, s.sequence_id, s.config_hash],
        );
      for (const q of sequences)
        await tx.query(
          `INSERT INTO sequences (id, round, puzzle_ids, status, session_id, lease_order) VALUES ($1, $2, $3::jsonb, $4, $5, $6)
           ON CONFLICT (id) DO UPDATE SET round = excluded.round, puzzle_ids = excluded.puzzle_ids, status = excluded.status, session_id = excluded.session_id, lease_order = excluded.lease_order`,
          [q.id, q.round, q.puzzle_ids, q.status, q.session_id, q.lease_order ?? null],
        );
      if (sequences.length > 0) await tx.query("SELECT setval(pg_get_serial_sequence('sequences', 'id'), (SELECT MAX(id) FROM sequences))");
      const ids = sessions.map((s) => s.id as string);
      // Mirror: what the source no longer has (withdrawn since the last run) goes from the target too.
      const gone = (await tx.query('SELECT id FROM sessions WHERE NOT (id = ANY($1::text[]))', [ids])).rows.map((r: { id: string }) => r.id);
      for (const table of ['panel_ids', 'completions', 'session_tokens', 'log_repairs', 'events'])
        await tx.query(`DELETE FROM ${table} WHERE NOT (session_id = ANY($1::text[]))`, [ids]);
      await tx.query('DELETE FROM sessions WHERE NOT (id = ANY($1::text[]))', [ids]);
      await tx.query('UPDATE sequences SET status = $1, session_id = NULL WHERE session_id IS NOT NULL AND NOT (session_id = ANY($2::text[]))', ['free', ids]);
      for (const p of rowsOf('panel_ids'))
        await tx.query(
          `INSERT INTO panel_ids (session_id, provider, participant_id, study_id, panel_session_id) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (session_id) DO UPDATE SET provider = excluded.provider, participant_id = excluded.participant_id, study_id = excluded.study_id, panel_session_id = excluded.panel_session_id`,
          [p.session_id, p.provider, p.participant_id, p.study_id, p.panel_session_id],
        );
      await tx.query('DELETE FROM completions');
      for (const c of rowsOf('completions')) await tx.query('INSERT INTO completions (session_id, code, completed_at) VALUES ($1, $2, $3)', [c.session_id, c.code, c.completed_at]);
      for (const r of rowsOf('recruitment'))
        await tx.query(
          'INSERT INTO recruitment (id, open, target_completed, updated_at) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO UPDATE SET open = excluded.open, target_completed = excluded.target_completed, updated_at = excluded.updated_at',
          [r.open === 1, r.target_completed, r.updated_at],
        );
      for (const t of rowsOf('session_tokens'))
        await tx.query('INSERT INTO session_tokens (token_hash, session_id) VALUES ($1, $2) ON CONFLICT (token_hash) DO UPDATE SET session_id = excluded.session_id', [t.token_hash, t.session_id]);
      for (const a of rowsOf('audit')) await tx.query('INSERT INTO audit (id, at, action, detail) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [a.id, a.at, a.action, a.detail]);
      await tx.query("SELECT setval(pg_get_serial_sequence('audit', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM audit), 1))");
      for (const r of rowsOf('log_repairs'))
        await tx.query('INSERT INTO log_repairs (id, session_id, at, bad_lines, kept_lines, quarantine) VALUES ($1, $2, $3, $4::jsonb, $5, $6) ON CONFLICT (id) DO NOTHING', [
          r.id,
          r.session_id,
          r.at,
          r.bad_lines,
          r.kept_lines,
          r.quarantine,
        ]);
      await tx.query("SELECT setval(pg_get_serial_sequence('log_repairs', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM log_repairs), 1))");
      // The experimenter's state: the password hash (logins made before the move stay good after it) and the marks,
      // mirrored (a login ended or a mark cleared since the last run goes from the target too).
      for (const c of rowsOf('admin_credentials'))
        await tx.query(
          'INSERT INTO admin_credentials (id, password_hash, set_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at',
          [c.id, c.password_hash, c.set_at],
        );
      await tx.query('DELETE FROM admin_sessions');
      for (const l of rowsOf('admin_sessions')) await tx.query('INSERT INTO admin_sessions (token_hash, created_at, expires_at) VALUES ($1, $2, $3)', [l.token_hash, l.created_at, l.expires_at]);
      await tx.query('DELETE FROM admin_marks');
      for (const m of rowsOf('admin_marks'))
        await tx.query('INSERT INTO admin_marks (session_id, flag, extended_until, ended_at, updated_at) VALUES ($1, $2, $3, $4, $5)', [m.session_id, m.flag, m.extended_until, m.ended_at, m.updated_at]);
      await tx.query('COMMIT');
      if (gone.length) log(`removed ${gone.length} session(s) the data directory no longer has (withdrawn since the last run)`);
      removed = gone;
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      tx.release();
    }

    // The events, one transaction per session: check the prefix already there, insert the rest.
    let copied = 0;
    let total = 0;
    const dir = join(opts.from, 'sessions');
    for (const [i, s] of sessions.entries()) {
      const id = s.id as string;
      const lines = fileLines(join(dir, `${id}.ndjson`));
      total += lines.length;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const have = (await client.query('SELECT line FROM events WHERE session_id = $1 ORDER BY n', [id])).rows.map((r: { line: string }) => r.line);
        if (have.length > lines.length || hashLines(have) !== hashLines(lines.slice(0, have.length)))
          throw new Error(`session ${id}: the database holds ${have.length} record(s) that are not the first lines of its file; is ${opts.to.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')} this study's copy?`);
        const rest = lines.slice(have.length);
        if (rest.length > 0) {
          const seqs = rest.map((l) => {
            const r = JSON.parse(l) as { origin?: string; seq?: number };
            return r.origin === 'client' ? (r.seq ?? null) : null;
          });
          await client.query(
            'INSERT INTO events (session_id, n, seq, record, line) SELECT $1, $2 + t.i, t.seq, t.line::jsonb, t.line FROM unnest($3::text[], $4::int[]) WITH ORDINALITY AS t(line, seq, i)',
            [id, have.length, rest, seqs],
          );
        }
        await client.query('COMMIT');
        copied += rest.length;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
      if ((i + 1) % 500 === 0) log(`events: ${i + 1}/${sessions.length} sessions`);
    }
    const orphanFiles = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.ndjson') && !sessions.some((s) => `${s.id}.ndjson` === f)) : [];
    if (orphanFiles.length) log(`left out ${orphanFiles.length} log file(s) without a session row (the server deletes them at start-up)`);

    // Verification: counts of every table, and each session's log hash, read again from both sides.
    const mismatches: string[] = [];
    const counts: StoreMigrationReport['counts'] = {};
    for (const table of TABLES) {
      const source = hasTable(table) ? (src.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
      const target = Number((await pool.query(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n);
      counts[table] = { source, target };
      if (source !== target) mismatches.push(`${table}: ${source} row(s) in the data directory, ${target} in the database`);
    }
    for (const [table, { columns, key }] of Object.entries(ADMIN_TABLES)) {
      const sql = `SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${key}`;
      const source = hasTable(table) ? (src.prepare(sql).raw().all() as unknown[][]) : [];
      const target = ((await pool.query({ text: sql, rowMode: 'array' })).rows as unknown[][]);
      // Both sides sorted here by the key's text (the databases' collations may differ).
      const sortByKey = (rows: unknown[][]) => [...rows].sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : String(x[0]) > String(y[0]) ? 1 : 0));
      const want = hashRows(sortByKey(source));
      const got = hashRows(sortByKey(target));
      if (want !== got) mismatches.push(`${table}: its rows' SHA-256 differs (data directory ${want.slice(0, 12)}, database ${got.slice(0, 12)})`);
    }
    const dbEvents = new Map<string, string[]>();
    for (const r of (await pool.query('SELECT session_id, line FROM events ORDER BY session_id, n')).rows as { session_id: string; line: string }[]) {
      let list = dbEvents.get(r.session_id);
      if (!list) dbEvents.set(r.session_id, (list = []));
      list.push(r.line);
    }
    let eventsInDb = 0;
    for (const list of dbEvents.values()) eventsInDb += list.length;
    counts.events = { source: total, target: eventsInDb };
    if (total !== eventsInDb) mismatches.push(`events: ${total} line(s) in the session files, ${eventsInDb} row(s) in the database`);
    for (const s of sessions) {
      const id = s.id as string;
      const want = hashLines(fileLines(join(dir, `${id}.ndjson`)));
      const got = hashLines(dbEvents.get(id) ?? []);
      if (want !== got) mismatches.push(`session ${id}: its log's SHA-256 differs (file ${want.slice(0, 12)}, database ${got.slice(0, 12)})`);
    }
    return { sessions: sessions.length, sequences: sequences.length, events_copied: copied, events_total: total, sessions_removed: removed, mismatches, counts };
  } finally {
    src.close();
    await store.close();
  }
}

/**
 * Everything a data directory holds, into one PostgreSQL database: the first study's store (into `public`, as a
 * single-study server keeps it), each other study's store (studies/<slug>/ into the schema study_<slug>) and the
 * registry of studies and accounts (studies.sqlite into nonolab_registry). Each store is copied as above; the registry
 * is mirrored in one transaction after them (a study the data directory no longer has goes, its schema with it), and
 * verified by its tables' counts and rows' SHA-256. The report's top-level numbers are the first study's; `studies`
 * has each other study's, `counts` the registry's tables too, and `mismatches` every problem found (named by study).
 */
export interface MigrationReport extends StoreMigrationReport {
  /** The studies beyond the first, by slug. */
  studies: Record<string, StoreMigrationReport>;
  /** Whether the data directory had a registry (studies.sqlite) to carry. */
  registry: boolean;
}

type RegistryRows = Record<string, unknown[][]>;

/** The registry's rows, table by table, as value lists sorted by their JSON (both sides the same order whatever the collation). */
async function registryRows(read: (sql: string) => Promise<unknown[][]>): Promise<RegistryRows> {
  const out: RegistryRows = {};
  for (const [table, { columns }] of Object.entries(REGISTRY_TABLE_COLUMNS)) {
    const rows = (await read(`SELECT ${columns.join(', ')} FROM ${table}`)).map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    out[table] = rows.sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : JSON.stringify(x) > JSON.stringify(y) ? 1 : 0));
  }
  return out;
}

export async function migrate(opts: { from: string; to: string; log?: (m: string) => void }): Promise<MigrationReport> {
  const log = opts.log ?? (() => {});
  if (!existsSync(join(opts.from, 'nonolab.sqlite'))) throw new Error(`--from ${opts.from}: no nonolab.sqlite there (not a nonolab data directory)`);
  const registryPath = join(opts.from, REGISTRY_FILE);
  const src = existsSync(registryPath) ? new Database(registryPath, { readonly: true, fileMustExist: true }) : null;
  try {
    const source = src ? await registryRows(async (sql) => src.prepare(sql).raw().all() as unknown[][]) : null;
    const sourceStudies = (source?.studies ?? []).map(([slug, , , , , first]) => ({ slug: slug as string, first: first === 1 }));
    let target: pg.Pool | null = null;
    if (source) {
      // The registry's tables made if absent; a database whose first study is another's is refused before anything is copied.
      await (await StudyRegistry.openPostgres(opts.to)).close();
      target = new pg.Pool({ connectionString: opts.to, max: 1, options: `-c search_path=${REGISTRY_SCHEMA}` });
      target.on('error', () => {});
    }
    try {
      if (target) {
        const theirs = (await target.query('SELECT slug FROM studies WHERE first = 1')).rows[0] as { slug: string } | undefined;
        const ours = sourceStudies.find((x) => x.first)?.slug;
        if (theirs && ours && theirs.slug !== ours)
          throw new Error(`the database's first study is '${theirs.slug}', the data directory's '${ours}': is ${opts.to.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')} this data directory's copy?`);
      }

      // Each study's store: the first's, then the others' (a study never served yet has no store: nothing to copy).
      const report: MigrationReport = { ...(await migrateStore({ from: opts.from, to: opts.to, log })), studies: {}, registry: source !== null };
      for (const s of sourceStudies) {
        if (s.first) continue;
        const dir = StudyRegistry.dataDirOf(opts.from, s);
        if (!existsSync(join(dir, 'nonolab.sqlite'))) {
          log(`study ${s.slug}: no store yet in ${dir} (never served): its registry rows only`);
          continue;
        }
        const one = await migrateStore({ from: dir, to: opts.to, schema: schemaOf(s), log: (m) => log(`study ${s.slug}: ${m}`) });
        report.studies[s.slug] = one;
        report.mismatches.push(...one.mismatches.map((m) => `study ${s.slug}: ${m}`));
      }
      if (!target || !source) return report;

      // The registry, mirrored in one transaction: what the data directory no longer has goes (a deleted study's schema too).
      const tx = await target.connect();
      try {
        await tx.query('BEGIN');
        const slugs = sourceStudies.map((x) => x.slug);
        const gone = (await tx.query('SELECT slug, first FROM studies WHERE NOT (slug = ANY($1::text[]))', [slugs])).rows as { slug: string; first: number }[];
        for (const g of gone) {
          const schema = schemaOf({ slug: g.slug, first: g.first === 1 });
          if (schema) await tx.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        }
        if (gone.length) log(`registry: removed ${gone.length} study(ies) the data directory no longer has: ${gone.map((g) => g.slug).join(', ')}`);
        for (const table of ['account_logins', 'memberships', 'study_versions']) await tx.query(`DELETE FROM ${table}`);
        await tx.query('DELETE FROM studies WHERE NOT (slug = ANY($1::text[]))', [slugs]);
        await tx.query('DELETE FROM accounts WHERE NOT (name = ANY($1::text[]))', [source.accounts.map((a) => a[0] as string)]);
        for (const r of source.studies)
          await tx.query(
            `INSERT INTO studies (slug, study_id, title, config_hash, config_json, first, archived, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (slug) DO UPDATE SET study_id = excluded.study_id, title = excluded.title, config_hash = excluded.config_hash, config_json = excluded.config_json,
               first = excluded.first, archived = excluded.archived, created_at = excluded.created_at`,
            r,
          );
        for (const r of source.accounts)
          await tx.query(
            'INSERT INTO accounts (name, password_hash, admin, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO UPDATE SET password_hash = excluded.password_hash, admin = excluded.admin, created_at = excluded.created_at',
            r,
          );
        for (const r of source.study_versions) await tx.query('INSERT INTO study_versions (slug, version, config_hash, config_json, created_at) VALUES ($1, $2, $3, $4, $5)', r);
        for (const r of source.memberships) await tx.query('INSERT INTO memberships (slug, account, role) VALUES ($1, $2, $3)', r);
        for (const r of source.account_logins) await tx.query('INSERT INTO account_logins (token_hash, account, password_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', r);
        await tx.query('DELETE FROM registry_audit WHERE NOT (id = ANY($1::bigint[]))', [source.registry_audit.map((a) => a[0] as number)]);
        for (const r of source.registry_audit)
          await tx.query('INSERT INTO registry_audit (id, at, account, action, detail) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET at = excluded.at, account = excluded.account, action = excluded.action, detail = excluded.detail', r);
        await tx.query("SELECT setval(pg_get_serial_sequence('registry_audit', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM registry_audit), 1))");
        await tx.query('COMMIT');
      } catch (err) {
        await tx.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        tx.release();
      }

      // Verification: each table's count and its rows' SHA-256, read again from both sides.
      const copied = await registryRows(async (sql) => (await target!.query({ text: sql, rowMode: 'array' })).rows as unknown[][]);
      for (const table of Object.keys(REGISTRY_TABLE_COLUMNS)) {
        report.counts[table] = { source: source[table].length, target: copied[table].length };
        if (source[table].length !== copied[table].length) report.mismatches.push(`registry: ${table}: ${source[table].length} row(s) in the data directory, ${copied[table].length} in the database`);
        const want = hashRows(source[table]);
        const got = hashRows(copied[table]);
        if (want !== got) report.mismatches.push(`registry: ${table}: its rows' SHA-256 differs (data directory ${want.slice(0, 12)}, database ${got.slice(0, 12)})`);
      }
      return report;
    } finally {
      await target?.end();
    }
  } finally {
    src?.close();
  }
}
