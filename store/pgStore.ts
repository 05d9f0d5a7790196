// The PostgreSQL store (NONOLAB_DATABASE_URL=postgres://…): sessions, the sequence pool, panel ids, audit rows, the
// events themselves and the experimenter's password, logins and marks in one database that many server processes
// (and machines) share. One PgStore is one study's: the first study's tables are in the database's default schema
// (`public`, as a single-study server always kept them); each further study's are the same tables in its own schema
// (`study_<slug>`, store/studies.ts: schemaOf), chosen by the search_path of every connection of its pool, with its
// own feed channel and pool lock, so no statement here names a schema and no study reads or waits on another's rows.
//
// Why the promises of docs/reliability.md hold here:
// - An event is acknowledged only after the transaction that inserted it committed, with synchronous commit (the
//   server's WAL fsync'd). Its row's primary key is (session_id, n), the record's place in the session's log, and
//   (session_id, seq) is unique for client events: a retry can never write one event twice, in any process.
// - A session's writes are serialised across processes by a row lock (`SELECT … FOR UPDATE` on its sessions row):
//   the next place n is read after the lock is held, so a log only grows in order, by whole batches. The acked seq
//   and step are updated in the same transaction, so they can never disagree with the rows.
// - A start's rows and its session_start record, and a completion's rows and its session_complete record, are one
//   transaction (`appendLog` inside `transaction`): a crash leaves the whole change or none of it, so start-up has
//   nothing to repair but an interrupted withdrawal. A connection lost mid-transaction aborts it; the route answers 503.
// - Leases: every lease takes a transaction-level advisory lock on the pool first (pg_advisory_xact_lock) and reads
//   the pool after holding it, so two processes can never hand one ordering to two sessions, and the balanced draw
//   sees every earlier lease (SKIP LOCKED would hand out distinct rows too, but could not balance over the ones
//   skipped).
// - Withdrawal deletes the rows (events, session, tokens, panel ids, completion, the experimenter's marks); the audit row says only that one
//   happened. (Dead tuples are reclaimed by autovacuum; a database backup taken before holds them, as any backup does.)
// - The dashboard's live feed crosses processes with LISTEN/NOTIFY: after each commit of records the process notifies
//   the session and the places written (apart from the commit: see PgStore.feed); the other processes read those rows
//   and feed them to their dashboards.
import type { LoggedEvent } from '../shared/schema/event.ts';
import type { StoredSessionStatus } from '../shared/schema/session.ts';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { EventStore, Progress } from './eventLog.ts';
import { SessionRemovedError } from './eventLog.ts';
import type { AuditRow, CompletionRow, LogRepair, PanelRow, PanelSessionRow, SequenceRow, SequenceStatus, SessionMarks, SessionRow, SessionStatus, StoreOps, StudyStore } from './store.ts';

// bigint columns (times in ms, counts) as numbers: every value here stays far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

const POOL_LOCK = 0x6e6f6e6f; // 'nono'
const SCHEMA_LOCK = 0x6e6f6e70;
const FEED_CHANNEL = 'nonolab_feed';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  mode TEXT NOT NULL,
  label TEXT,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,
  step_started_at BIGINT NOT NULL DEFAULT 0,
  acked_seq INTEGER NOT NULL DEFAULT 0,
  sequence_id INTEGER NOT NULL,
  config_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_status ON sessions(status);
CREATE TABLE IF NOT EXISTS sequences (
  id SERIAL PRIMARY KEY,
  round INTEGER NOT NULL,
  puzzle_ids JSONB NOT NULL,
  status TEXT NOT NULL,
  session_id TEXT,
  lease_order INTEGER
);
CREATE INDEX IF NOT EXISTS sequences_status ON sequences(round, status);
CREATE TABLE IF NOT EXISTS panel_ids (
  session_id TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  participant_id TEXT NOT NULL,
  study_id TEXT,
  panel_session_id TEXT,
  UNIQUE (provider, participant_id)
);
CREATE TABLE IF NOT EXISTS completions (
  session_id TEXT PRIMARY KEY,
  code TEXT NOT NULL,
  completed_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS completions_code ON completions(code);
CREATE TABLE IF NOT EXISTS recruitment (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  open BOOLEAN NOT NULL,
  target_completed INTEGER,
  updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
  id BIGSERIAL PRIMARY KEY,
  at BIGINT NOT NULL,
  action TEXT NOT NULL,
  detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS session_tokens (
  token_hash TEXT PRIMARY KEY,
  session_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS session_tokens_session ON session_tokens(session_id);
CREATE TABLE IF NOT EXISTS log_repairs (
  id BIGSERIAL PRIMARY KEY,
  session_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  bad_lines JSONB NOT NULL,
  kept_lines INTEGER NOT NULL,
  quarantine TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  session_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  seq INTEGER,
  record JSONB NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY (session_id, n),
  UNIQUE (session_id, seq)
);
CREATE TABLE IF NOT EXISTS admin_credentials (id INTEGER PRIMARY KEY CHECK (id = 1), password_hash TEXT NOT NULL, set_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS admin_sessions (token_hash TEXT PRIMARY KEY, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS admin_marks (
  session_id TEXT PRIMARY KEY,
  flag TEXT,
  extended_until BIGINT,
  ended_at BIGINT,
  updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS admin_login_failures (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, reset_at BIGINT NOT NULL);
-- One batch of a session, in one statement (one round trip, its own transaction): lock the session's row, append the
-- records after its log's last place, store the acked seq and step. -1: no such session (withdrawn), nothing written.
-- The other processes are told after the commit, apart (PgStore.feed: a NOTIFY here serialised every commit); p_notice
-- is no longer used (kept, so that a database made before keeps one function of this name).
CREATE OR REPLACE FUNCTION nonolab_append(p_session TEXT, p_lines TEXT[], p_seqs INTEGER[], p_acked INTEGER, p_step INTEGER, p_now BIGINT, p_notice TEXT)
RETURNS INTEGER LANGUAGE plpgsql AS $fn$
DECLARE
  st TEXT;
  base INTEGER;
  k INTEGER := COALESCE(array_length(p_lines, 1), 0);
BEGIN
  SELECT status INTO st FROM sessions WHERE id = p_session FOR UPDATE;
  IF NOT FOUND OR st = 'withdrawing' THEN RETURN -1; END IF;
  SELECT COALESCE(MAX(n), 0) INTO base FROM events WHERE session_id = p_session;
  IF k > 0 THEN
    INSERT INTO events (session_id, n, seq, record, line)
      SELECT p_session, base + t.i, t.seq, t.line::jsonb, t.line FROM unnest(p_lines, p_seqs) WITH ORDINALITY AS t(line, seq, i);
  END IF;
  IF p_acked IS NOT NULL THEN
    UPDATE sessions SET acked_seq = p_acked, step_started_at = CASE WHEN p_step > step THEN p_now ELSE step_started_at END,
      step = GREATEST(step, p_step), updated_at = p_now WHERE id = p_session;
  END IF;
  RETURN base;
END
$fn$;
`;

type Queryable = pg.Pool | pg.PoolClient;

/**
 * An error that says the database could not be reached or went away (PostgreSQL restarted or crashed, the connection
 * cut, too many connections), not that a request was wrong: the route answers 503 and the client retries. SQLSTATE
 * class 08 (connection exception), 57P01-57P03 (shut down, crashed, starting up), 53300 (too many connections), and
 * node-postgres's and the socket's own errors for a lost connection.
 */
export const STORE_UNAVAILABLE = "the study's database cannot be reached just now; nothing of this request was stored, please try again";

export function storeUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /^Connection terminated|^Client has encountered a connection error|timeout exceeded when trying to connect/.test(message);
}

/** The store operations in SQL, over the pool (each its own transaction) or over one transaction's client. */
class PgOps implements StoreOps {
  constructor(
    protected readonly q: Queryable,
    /** This process on the feed channel (its own notifications are not fed back to it). */
    readonly processTag: string,
    /** Inside a transaction: the records it appended (session, first and last place), told to the other processes after its commit. */
    readonly appended?: { sessionId: string; first: number; last: number }[],
    /** The schema of the study's tables (undefined: the default, `public`, the first study's). */
    readonly schema?: string,
  ) {}

  private async rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.q.query(sql, params)).rows as T[];
  }

  private async one<T>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    return (await this.rows<T>(sql, params))[0];
  }

  private async run(sql: string, params: unknown[] = []): Promise<void> {
    await this.q.query(sql, params);
  }

  insertSession(r: SessionRow): Promise<void> {
    return this.run(
      `INSERT INTO sessions (id, token_hash, mode, label, status, created_at, updated_at, step, step_started_at, acked_seq, sequence_id, config_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [r.id, r.token_hash, r.mode, r.label, r.status, r.created_at, r.updated_at, r.step, r.step_started_at, r.acked_seq, r.sequence_id, r.config_hash],
    );
  }
  async sessionByToken(tokenHash: string): Promise<SessionRow | undefined> {
    return (
      (await this.one<SessionRow>('SELECT * FROM sessions WHERE token_hash = $1', [tokenHash])) ??
      (await this.one<SessionRow>('SELECT s.* FROM session_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = $1', [tokenHash]))
    );
  }
  session(id: string): Promise<SessionRow | undefined> {
    return this.one('SELECT * FROM sessions WHERE id = $1', [id]);
  }
  sessionForUpdate(id: string): Promise<SessionRow | undefined> {
    return this.one('SELECT * FROM sessions WHERE id = $1 FOR UPDATE', [id]);
  }
  sessions(): Promise<SessionRow[]> {
    return this.rows('SELECT * FROM sessions ORDER BY created_at, id');
  }
  updateProgress(id: string, ackedSeq: number, step: number, now: number): Promise<void> {
    return this.run(
      'UPDATE sessions SET acked_seq = $1, step_started_at = CASE WHEN $2 > step THEN $3 ELSE step_started_at END, step = GREATEST(step, $2), updated_at = $3 WHERE id = $4',
      [ackedSeq, step, now, id],
    );
  }
  setProgress(id: string, ackedSeq: number, step: number): Promise<void> {
    return this.run('UPDATE sessions SET acked_seq = $1, step = $2 WHERE id = $3', [ackedSeq, step, id]);
  }
  unusedSince(before: number): Promise<SessionRow[]> {
    return this.rows("SELECT * FROM sessions WHERE status = 'active' AND acked_seq = 0 AND created_at < $1", [before]);
  }
  inactiveSince(before: number): Promise<SessionRow[]> {
    return this.rows("SELECT * FROM sessions WHERE status = 'active' AND updated_at < $1", [before]);
  }
  insertPanel(sessionId: string, p: { provider: string; participant_id: string; study_id?: string; session_id?: string }): Promise<void> {
    return this.run('INSERT INTO panel_ids (session_id, provider, participant_id, study_id, panel_session_id) VALUES ($1, $2, $3, $4, $5)', [
      sessionId,
      p.provider,
      p.participant_id,
      p.study_id ?? null,
      p.session_id ?? null,
    ]);
  }
  async sessionOfPanel(provider: string, participantId: string): Promise<string | undefined> {
    return (await this.one<{ session_id: string }>('SELECT session_id FROM panel_ids WHERE provider = $1 AND participant_id = $2', [provider, participantId]))?.session_id;
  }
  panelOf(sessionId: string): Promise<PanelRow | undefined> {
    return this.one('SELECT * FROM panel_ids WHERE session_id = $1', [sessionId]);
  }
  panelsByParticipant(participantId: string): Promise<PanelRow[]> {
    return this.rows('SELECT * FROM panel_ids WHERE participant_id = $1 ORDER BY provider', [participantId]);
  }
  panelSessions(): Promise<PanelSessionRow[]> {
    return this.rows(
      `SELECT p.*, s.status, s.created_at, s.updated_at, c.code AS completion_code, c.completed_at
       FROM panel_ids p JOIN sessions s ON s.id = p.session_id LEFT JOIN completions c ON c.session_id = p.session_id
       ORDER BY s.created_at`,
    );
  }
  setCompletion(sessionId: string, code: string, completedAt: number): Promise<void> {
    return this.run(
      'INSERT INTO completions (session_id, code, completed_at) VALUES ($1, $2, $3) ON CONFLICT (session_id) DO UPDATE SET code = excluded.code, completed_at = excluded.completed_at',
      [sessionId, code, completedAt],
    );
  }
  clearCompletion(sessionId: string): Promise<void> {
    return this.run('DELETE FROM completions WHERE session_id = $1', [sessionId]);
  }
  completionOf(sessionId: string): Promise<CompletionRow | undefined> {
    return this.one('SELECT * FROM completions WHERE session_id = $1', [sessionId]);
  }
  completionsByCode(code: string): Promise<CompletionRow[]> {
    return this.rows('SELECT * FROM completions WHERE code = $1 ORDER BY completed_at', [code]);
  }
  allCompletions(): Promise<CompletionRow[]> {
    return this.rows('SELECT * FROM completions ORDER BY completed_at');
  }
  async countByStatus(status: SessionStatus): Promise<number> {
    return (await this.one<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE status = $1', [status]))!.n;
  }
  recruitmentSetting(): Promise<{ open: boolean; target_completed: number | null; updated_at: number } | undefined> {
    return this.one('SELECT open, target_completed, updated_at FROM recruitment WHERE id = 1');
  }
  setRecruitment(open: boolean, targetCompleted: number | null, now: number): Promise<void> {
    return this.run(
      'INSERT INTO recruitment (id, open, target_completed, updated_at) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO UPDATE SET open = excluded.open, target_completed = excluded.target_completed, updated_at = excluded.updated_at',
      [open, targetCompleted, now],
    );
  }
  setSessionSequence(id: string, sequenceId: number): Promise<void> {
    return this.run('UPDATE sessions SET sequence_id = $1 WHERE id = $2', [sequenceId, id]);
  }
  addToken(id: string, tokenHash: string): Promise<void> {
    return this.run('INSERT INTO session_tokens (token_hash, session_id) VALUES ($1, $2)', [tokenHash, id]);
  }
  setStatus(id: string, status: SessionStatus, now: number): Promise<void> {
    return this.run('UPDATE sessions SET status = $1, updated_at = $2 WHERE id = $3', [status, now, id]);
  }
  async deleteSession(id: string): Promise<void> {
    await this.run('DELETE FROM panel_ids WHERE session_id = $1', [id]);
    await this.run('DELETE FROM log_repairs WHERE session_id = $1', [id]);
    await this.run('DELETE FROM session_tokens WHERE session_id = $1', [id]);
    await this.run('DELETE FROM completions WHERE session_id = $1', [id]);
    await this.run('DELETE FROM events WHERE session_id = $1', [id]);
    await this.run('DELETE FROM sessions WHERE id = $1', [id]);
    // After the session's row (whose lock a concurrent setMarks holds until it commits): no mark can outlive it.
    await this.run('DELETE FROM admin_marks WHERE session_id = $1', [id]);
  }
  async currentRound(): Promise<number> {
    return (await this.one<{ r: number | null }>('SELECT MAX(round) AS r FROM sequences'))?.r ?? 0;
  }
  sequencesOfRound(round: number): Promise<SequenceRow[]> {
    return this.rows('SELECT * FROM sequences WHERE round = $1 ORDER BY id', [round]);
  }
  allSequences(): Promise<SequenceRow[]> {
    return this.rows('SELECT * FROM sequences ORDER BY id');
  }
  sequence(id: number): Promise<SequenceRow | undefined> {
    return this.one('SELECT * FROM sequences WHERE id = $1', [id]);
  }
  insertRound(round: number, sequences: string[][]): Promise<void> {
    return this.run("INSERT INTO sequences (round, puzzle_ids, status, session_id) SELECT $1, p::jsonb, 'free', NULL FROM unnest($2::text[]) WITH ORDINALITY AS t(p, i) ORDER BY i", [
      round,
      sequences.map((s) => JSON.stringify(s)),
    ]);
  }
  setSequence(id: number, status: SequenceStatus, sessionId: string | null): Promise<void> {
    return this.run('UPDATE sequences SET status = $1, session_id = $2 WHERE id = $3', [status, sessionId, id]);
  }
  async leaseSequenceTo(id: number, sessionId: string): Promise<void> {
    const done = await this.q.query(
      "UPDATE sequences SET status = 'leased', session_id = $1, lease_order = (SELECT COALESCE(MAX(lease_order), 0) + 1 FROM sequences) WHERE id = $2 AND status = 'free'",
      [sessionId, id],
    );
    if (done.rowCount !== 1) throw new Error(`sequence ${id} is no longer free`);
  }
  /** The first study's pool lock is the one a single-study server always took; each other study's is its own. */
  lockPool(): Promise<void> {
    return this.schema === undefined ? this.run('SELECT pg_advisory_xact_lock($1)', [POOL_LOCK]) : this.run('SELECT pg_advisory_xact_lock($1, hashtext($2))', [POOL_LOCK, this.schema]);
  }
  insertLogRepair(r: LogRepair): Promise<void> {
    return this.run('INSERT INTO log_repairs (session_id, at, bad_lines, kept_lines, quarantine) VALUES ($1, $2, $3, $4, $5)', [
      r.session_id,
      r.at,
      JSON.stringify(r.bad_lines),
      r.kept_lines,
      r.quarantine,
    ]);
  }
  logRepairs(): Promise<LogRepair[]> {
    return this.rows('SELECT session_id, at, bad_lines, kept_lines, quarantine FROM log_repairs ORDER BY id');
  }
  audit(at: number, action: string, detail: string): Promise<void> {
    return this.run('INSERT INTO audit (at, action, detail) VALUES ($1, $2, $3)', [at, action, detail]);
  }
  auditRows(): Promise<AuditRow[]> {
    return this.rows('SELECT at, action, detail FROM audit ORDER BY id');
  }
  /** `nonolab_append` on this connection: inside a transaction, the records commit with the rest of it. */
  async appendLog(sessionId: string, records: readonly object[]): Promise<void> {
    const lines = records.map((r) => JSON.stringify(r));
    const seqs = records.map((r) => ((r as { origin?: string }).origin === 'client' ? ((r as { seq?: number }).seq ?? null) : null));
    const result = await this.q.query('SELECT nonolab_append($1, $2::text[], $3::int[], NULL, NULL, NULL, $4) AS base', [sessionId, lines, seqs, this.processTag]);
    const base = (result.rows[0] as { base: number }).base;
    if (base < 0) throw new SessionRemovedError(`session ${sessionId} was removed`);
    // Told to the other processes once the transaction has committed (PgStore.transaction).
    if (records.length > 0) this.appended?.push({ sessionId, first: base + 1, last: base + records.length });
  }
  async adminPasswordHash(): Promise<string | undefined> {
    return (await this.one<{ password_hash: string }>('SELECT password_hash FROM admin_credentials WHERE id = 1'))?.password_hash;
  }
  /**
   * In a transaction: the new hash first (its row lock waits for logins being stored with the old one: they hold it
   * FOR SHARE), then, in a statement of its own that sees those logins, the end of every login.
   */
  async setAdminPassword(hash: string, now: number): Promise<void> {
    await this.run(
      'INSERT INTO admin_credentials (id, password_hash, set_at) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at',
      [hash, now],
    );
    await this.run('DELETE FROM admin_sessions');
  }
  async initAdminPassword(hash: string, now: number): Promise<boolean> {
    return (await this.q.query('INSERT INTO admin_credentials (id, password_hash, set_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [hash, now])).rowCount === 1;
  }
  /** Stored only while the password is still the one checked, its row held FOR SHARE until the login is committed. */
  async insertAdminLogin(tokenHash: string, createdAt: number, expiresAt: number, passwordHash: string): Promise<boolean> {
    const done = await this.q.query(
      `WITH expired AS (DELETE FROM admin_sessions WHERE expires_at <= $2)
       INSERT INTO admin_sessions (token_hash, created_at, expires_at)
       SELECT $1, $2, $3 FROM admin_credentials WHERE id = 1 AND password_hash = $4 FOR SHARE`,
      [tokenHash, createdAt, expiresAt, passwordHash],
    );
    return done.rowCount === 1;
  }
  async adminLoginExpiry(tokenHash: string): Promise<number | undefined> {
    return (await this.one<{ expires_at: number }>('SELECT expires_at FROM admin_sessions WHERE token_hash = $1', [tokenHash]))?.expires_at;
  }
  deleteAdminLogin(tokenHash: string): Promise<void> {
    return this.run('DELETE FROM admin_sessions WHERE token_hash = $1', [tokenHash]);
  }
  marksOf(sessionId: string): Promise<SessionMarks | undefined> {
    return this.one('SELECT flag, extended_until, ended_at FROM admin_marks WHERE session_id = $1', [sessionId]);
  }
  allMarks(): Promise<(SessionMarks & { session_id: string })[]> {
    return this.rows('SELECT session_id, flag, extended_until, ended_at FROM admin_marks ORDER BY session_id');
  }
  async flaggedSessions(): Promise<string[]> {
    return (await this.rows<{ session_id: string }>('SELECT session_id FROM admin_marks WHERE flag IS NOT NULL ORDER BY session_id')).map((r) => r.session_id);
  }
  /** One statement, atomic across processes; counts of windows that are over go on the way. */
  async countLoginFailure(key: string, now: number, windowMs: number): Promise<{ hits: number; reset_at: number }> {
    return (await this.one<{ hits: number; reset_at: number }>(
      `WITH over AS (DELETE FROM admin_login_failures WHERE reset_at <= $2 AND key <> $1)
       INSERT INTO admin_login_failures (key, hits, reset_at) VALUES ($1, 1, $2::bigint + $3::bigint)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN admin_login_failures.reset_at <= $2 THEN 1 ELSE admin_login_failures.hits + 1 END,
         reset_at = CASE WHEN admin_login_failures.reset_at <= $2 THEN excluded.reset_at ELSE admin_login_failures.reset_at END
       RETURNING hits, reset_at`,
      [key, now, windowMs],
    ))!;
  }
  uncountLoginFailure(key: string): Promise<void> {
    return this.run('UPDATE admin_login_failures SET hits = GREATEST(hits - 1, 0) WHERE key = $1', [key]);
  }
  clearLoginFailures(key: string): Promise<void> {
    return this.run('DELETE FROM admin_login_failures WHERE key = $1', [key]);
  }
  /**
   * One statement: the session's row is locked (FOR SHARE) while the mark is written, so a withdrawal either sees the
   * mark (and deletes it with the session) or ran first (and nothing is written).
   */
  setMarks(sessionId: string, change: Partial<SessionMarks>, now: number): Promise<SessionMarks | undefined> {
    return this.one(
      `INSERT INTO admin_marks (session_id, flag, extended_until, ended_at, updated_at)
       SELECT id, $2::text, $3::bigint, $4::bigint, $5::bigint FROM sessions WHERE id = $1 AND status <> 'withdrawing' FOR SHARE
       ON CONFLICT (session_id) DO UPDATE SET
         flag = CASE WHEN $6::boolean THEN excluded.flag ELSE admin_marks.flag END,
         extended_until = CASE WHEN $7::boolean THEN excluded.extended_until ELSE admin_marks.extended_until END,
         ended_at = CASE WHEN $8::boolean THEN excluded.ended_at ELSE admin_marks.ended_at END,
         updated_at = excluded.updated_at
       RETURNING flag, extended_until, ended_at`,
      [
        sessionId,
        change.flag ?? null,
        change.extended_until ?? null,
        change.ended_at ?? null,
        now,
        change.flag !== undefined,
        change.extended_until !== undefined,
        change.ended_at !== undefined,
      ],
    );
  }
}

/** A message on the feed channel: records committed or a session's status changed, by process `from`. */
type FeedMessage = { from: string; kind: 'appended'; session_id: string; first: number; last: number } | { from: string; kind: 'session'; session_id: string; status: StoredSessionStatus };

/**
 * Run `fn` in one transaction on a connection of `pool`: BEGIN, COMMIT, or ROLLBACK when it throws. A connection lost
 * while the transaction waits on this process (PostgreSQL restarted, the connection cut) is an 'error' event on the
 * checked-out client: without a listener it would end the process. The transaction is aborted by PostgreSQL; its next
 * statement fails, and the client is discarded rather than returned to the pool.
 */
export async function pgTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const lost = () => {
    broken = true;
  };
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw err;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}

export class PgStore extends PgOps implements StudyStore {
  readonly kind = 'postgres' as const;
  private listener: pg.Client | null = null;

  /** The feed channel of this study's processes (the first study's is the one a single-study server used). */
  private readonly feedChannel: string;

  private constructor(
    readonly pool: pg.Pool,
    private readonly url: string,
    schema: string | undefined,
  ) {
    super(pool, `${process.pid}-${randomBytes(4).toString('hex')}`, undefined, schema);
    this.feedChannel = schema === undefined ? FEED_CHANNEL : `${FEED_CHANNEL}_${schema}`;
  }

  /**
   * Connect and create the tables (once, whichever process comes first). `schema`: a study's own schema (made if
   * absent), set as the search_path of every connection, so every statement here names that study's tables; none: the
   * database's default (`public`), the first study's.
   */
  static async open(url: string, opts: { max?: number; schema?: string } = {}): Promise<PgStore> {
    if (opts.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(opts.schema)) throw new Error(`not a schema name: '${opts.schema}'`);
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? Number(process.env.NONOLAB_DATABASE_POOL ?? 20),
      ...(opts.schema === undefined ? {} : { options: `-c search_path=${opts.schema}` }),
    });
    // An idle client losing its server (a restart of PostgreSQL) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    try {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        // Made only when absent: a role without CREATE on the database works in a schema made for it beforehand.
        if (opts.schema !== undefined && (await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [opts.schema])).rowCount === 0)
          await client.query(`CREATE SCHEMA ${opts.schema}`);
        await client.query(SCHEMA);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PgStore(pool, url, opts.schema);
  }

  async transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    const appended: { sessionId: string; first: number; last: number }[] = [];
    const result = await pgTransaction(this.pool, (client) => fn(new PgOps(client, this.processTag, appended, this.schema)));
    // Committed: the other processes' live views learn of its records (a lost notice costs a live update, never a record).
    for (const a of appended) void this.publishAppended(a.sessionId, a.first, a.last).catch(() => {});
    return result;
  }

  async transactionDeferred<T>(fn: (tx: StoreOps) => Promise<T>): Promise<{ result: T; durable: Promise<void> }> {
    return { result: await this.transaction(fn), durable: Promise.resolve() };
  }

  async scrub(): Promise<void> {}

  /** Tell the other processes (LISTEN/NOTIFY) that a session's status changed. */
  async publishSession(sessionId: string, status: StoredSessionStatus): Promise<void> {
    await this.feed({ from: this.processTag, kind: 'session', session_id: sessionId, status });
  }

  /** Tell the other processes that a session's records `first`..`last` (places in its log) are committed. */
  async publishAppended(sessionId: string, first: number, last: number): Promise<void> {
    await this.feed({ from: this.processTag, kind: 'appended', session_id: sessionId, first, last });
  }

  private feedQueue: string[] = [];
  private feedFlushing: Promise<void> | null = null;

  /**
   * Put a message on the feed channel, after the commit it tells of. PostgreSQL serialises the commits of the
   * transactions that NOTIFY (a database-wide lock from the notify until the commit is flushed to disk): a notify inside
   * each append's synchronously committed transaction made every commit of every process wait for the one before it
   * and its fsync (the bench's appends queued on that lock, at about 140 commits/s whatever the processes). Here the
   * messages go in a transaction of their own with asynchronous commit (a notification needs no durability: it reaches
   * the listeners at commit), those queued meanwhile together, so the lock is held for no fsync.
   */
  private feed(message: FeedMessage): Promise<void> {
    this.feedQueue.push(JSON.stringify(message));
    this.feedFlushing ??= this.flushFeed();
    return this.feedFlushing;
  }

  private async flushFeed(): Promise<void> {
    try {
      while (this.feedQueue.length > 0) {
        const batch = this.feedQueue.splice(0);
        await this.pool.query("SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, m) FROM unnest($2::text[]) AS m", [this.feedChannel, batch]);
      }
    } finally {
      this.feedFlushing = null;
    }
  }

  /** Listen for the other processes' commits: `appended` gets their records (read back from the table), `session` their status changes. */
  async listen(handlers: { appended: (sessionId: string, records: LoggedEvent[]) => void; session: (sessionId: string, status: StoredSessionStatus) => void }): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => {});
    // A lost connection (PostgreSQL restarted) is opened again, once a second until it works, while the store is open.
    client.on('end', () => {
      if (this.listener !== client) return;
      this.listener = null;
      const retry = () =>
        this.closed || this.listen(handlers).catch(() => setTimeout(retry, 1_000).unref());
      setTimeout(retry, 1_000).unref();
    });
    await client.connect();
    // Notices are handled in the order they arrive: the rows of each are read at once, but delivered after the earlier
    // notices' (two reads in flight could otherwise answer out of order and a live view get a session's records shuffled).
    let delivered: Promise<void> = Promise.resolve();
    client.on('notification', (n) => {
      if (n.channel !== this.feedChannel || !n.payload) return;
      const m = JSON.parse(n.payload) as FeedMessage;
      if (m.from === this.processTag) return;
      const rows =
        m.kind === 'appended' ? this.pool.query('SELECT line FROM events WHERE session_id = $1 AND n BETWEEN $2 AND $3 ORDER BY n', [m.session_id, m.first, m.last]) : null;
      rows?.catch(() => {}); // (a failed read is dropped below, in its turn; until then it must not count as unhandled)
      delivered = delivered
        .then(async () => {
          if (m.kind === 'session') handlers.session(m.session_id, m.status);
          else handlers.appended(m.session_id, (await rows!).rows.map((row: { line: string }) => JSON.parse(row.line) as LoggedEvent));
        })
        .catch(() => {});
    });
    await client.query(`LISTEN ${this.feedChannel}`);
    this.listener = client;
  }

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    await this.pool.end();
  }
}

/** A study's schema and everything in it gone (a study beyond the first deleted). Absent already: nothing to do. */
export async function dropStudySchema(url: string, schema: string): Promise<void> {
  if (!/^study_[a-z0-9_]{1,57}$/.test(schema)) throw new Error(`not a study's schema: '${schema}'`);
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The events as rows: one per record, `line` the exact NDJSON line (exports give the same bytes as the embedded
 * store's files), `record` the same as jsonb for queries. A session's appends from this process are chained (a failed
 * one rejects everything queued behind it, never writing after a hole); across processes the session row's lock orders them.
 */
export class PgEventStore implements EventStore {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly store: PgStore) {}

  appendDurable(sessionId: string, records: readonly object[], progress?: Progress): Promise<void> {
    const prev = this.tails.get(sessionId);
    const write = () => this.write(sessionId, records, progress);
    const p = prev ? prev.then(write) : write();
    this.tails.set(sessionId, p);
    void p
      .finally(() => {
        if (this.tails.get(sessionId) === p) this.tails.delete(sessionId);
      })
      .catch(() => {});
    return p;
  }

  /** One round trip: `nonolab_append` (the schema above) runs the whole batch as one statement, committed synchronously. */
  private async write(sessionId: string, records: readonly object[], progress?: Progress): Promise<void> {
    const lines = records.map((r) => JSON.stringify(r));
    const seqs = records.map((r) => ((r as { origin?: string }).origin === 'client' ? ((r as { seq?: number }).seq ?? null) : null));
    const result = await this.store.pool.query('SELECT nonolab_append($1, $2::text[], $3::int[], $4, $5, $6, $7) AS base', [
      sessionId,
      lines,
      seqs,
      progress?.acked ?? null,
      progress?.step ?? null,
      progress?.now ?? null,
      this.store.processTag,
    ]);
    const base = (result.rows[0] as { base: number }).base;
    if (base < 0) throw new SessionRemovedError(`session ${sessionId} was removed`);
    // Committed: the other processes' live views learn of it (a lost notice costs a live update, never a record).
    if (records.length > 0) void this.store.publishAppended(sessionId, base + 1, base + records.length).catch(() => {});
  }

  async read(sessionId: string): Promise<LoggedEvent[]> {
    const r = await this.store.pool.query('SELECT line FROM events WHERE session_id = $1 ORDER BY n', [sessionId]);
    return r.rows.map((row: { line: string }) => JSON.parse(row.line) as LoggedEvent);
  }

  /** A session's records in slices of 1,000 rows (a long session is never held whole). */
  async *stream(sessionId: string): AsyncGenerator<Record<string, unknown>> {
    let after = 0;
    for (;;) {
      const r = await this.store.pool.query('SELECT n, line FROM events WHERE session_id = $1 AND n > $2 ORDER BY n LIMIT 1000', [sessionId, after]);
      for (const row of r.rows as { n: number; line: string }[]) yield JSON.parse(row.line) as Record<string, unknown>;
      if (r.rows.length < 1000) return;
      after = (r.rows[r.rows.length - 1] as { n: number }).n;
    }
  }

  async count(sessionId: string): Promise<number> {
    return (await this.store.pool.query('SELECT COALESCE(MAX(n), 0) AS n FROM events WHERE session_id = $1', [sessionId])).rows[0].n as number;
  }

  async sessionIds(): Promise<string[]> {
    return (await this.store.pool.query('SELECT DISTINCT session_id FROM events ORDER BY session_id')).rows.map((r: { session_id: string }) => r.session_id);
  }

  async remove(sessionId: string): Promise<void> {
    await this.store.pool.query('DELETE FROM events WHERE session_id = $1', [sessionId]);
  }

  close(): void {}
}
