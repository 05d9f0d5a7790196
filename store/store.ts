// The study's state behind one async interface (StudyStore): sessions, the sequence pool, panel ids, completions, audit;
// the embedded SQLite implementation (better-sqlite3; the NDJSON files hold the events) lives here, PostgreSQL in pgStore.ts.
import Database from 'better-sqlite3';
import { close, fdatasync, mkdirSync, open } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openDurableSqlite } from './sqlite.ts';
import type { SessionFlag, StoredSessionStatus } from '../shared/schema/session.ts';

/**
 * The background checkpointer: its own connection to the same database, in a worker thread, copying the WAL into the
 * database file (PASSIVE: never blocks the main connection's reads or writes) when the main thread asks (every
 * `CHECKPOINT_EVERY` transactions) and once more on close. A checkpoint writes pages and fsyncs twice; run by SQLite's
 * automatic checkpoint it would do so on the event loop inside whichever commit crossed 1,000 WAL pages, stalling
 * every request for tens of milliseconds on a busy disk. Nothing is checkpointed while nothing is written, so a
 * server that only reads (or refuses hostile requests) leaves the database files as they were.
 */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { timeout: 5000 });
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
parentPort.on('message', (m) => {
  checkpoint();
  if (m === 'close') { db.close(); parentPort.close(); }
});
`;
const CHECKPOINT_EVERY = 200;

export interface LogRepair {
  session_id: string;
  at: number;
  /** 1-based line numbers left out of the log. */
  bad_lines: number[];
  kept_lines: number;
  /** Where the original file was copied, untouched. */
  quarantine: string;
}

/** Declared once in shared/schema/session.ts (`withdrawing`: a withdrawal under way; only a crash leaves it, and start-up finishes it). */
export type SessionStatus = StoredSessionStatus;
export type SequenceStatus = 'free' | 'leased' | 'used';

export interface SessionRow {
  id: string;
  token_hash: string;
  mode: string;
  label: string | null;
  status: SessionStatus;
  created_at: number;
  updated_at: number;
  step: number;
  /** Server time at which the current step began (when the previous step's end was made durable). */
  step_started_at: number;
  acked_seq: number;
  sequence_id: number;
  config_hash: string;
}

export interface PanelRow {
  session_id: string;
  provider: string;
  participant_id: string;
  study_id: string | null;
  panel_session_id: string | null;
}

export interface CompletionRow {
  session_id: string;
  code: string;
  completed_at: number;
}

export interface SequenceRow {
  id: number;
  round: number;
  puzzle_ids: string[];
  status: SequenceStatus;
  session_id: string | null;
  /** 1, 2, 3, ... in the order sequences were leased (the latest lease of a sequence given out again). */
  lease_order: number | null;
}

/** The synchronous SQLite rows (better-sqlite3); the async StudyStore over them is SqliteStore below. */
type StoredSequence = Omit<SequenceRow, 'puzzle_ids'> & { puzzle_ids: string };
const decodeSequence = (r: StoredSequence): SequenceRow => ({ ...r, puzzle_ids: JSON.parse(r.puzzle_ids) as string[] });

export interface AuditRow {
  at: number;
  action: string;
  detail: string;
}

/** The experimenter's marks on a session (server/admin/marks.ts): a flag, an extension, an end by hand. */
export interface SessionMarks {
  flag: SessionFlag | null;
  extended_until: number | null;
  ended_at: number | null;
}

export type PanelSessionRow = PanelRow & { status: SessionStatus; created_at: number; updated_at: number; completion_code: string | null; completed_at: number | null };

/**
 * What the service, the dashboard and the exports ask of the store, whichever database is underneath. Every method is
 * async (PostgreSQL answers over the network); inside `transaction` the same methods run on the transaction.
 */
export interface StoreOps {
  insertSession(row: SessionRow): Promise<void>;
  sessionByToken(tokenHash: string): Promise<SessionRow | undefined>;
  session(id: string): Promise<SessionRow | undefined>;
  /**
   * Inside a transaction: the session's row, held until the transaction ends, so that a change decided on it (a
   * completion) is decided once across processes (PostgreSQL: SELECT … FOR UPDATE; SQLite has one writer).
   */
  sessionForUpdate(id: string): Promise<SessionRow | undefined>;
  sessions(): Promise<SessionRow[]>;
  updateProgress(id: string, ackedSeq: number, step: number, now: number): Promise<void>;
  setProgress(id: string, ackedSeq: number, step: number): Promise<void>;
  unusedSince(before: number): Promise<SessionRow[]>;
  inactiveSince(before: number): Promise<SessionRow[]>;
  insertPanel(sessionId: string, p: { provider: string; participant_id: string; study_id?: string; session_id?: string }): Promise<void>;
  sessionOfPanel(provider: string, participantId: string): Promise<string | undefined>;
  panelOf(sessionId: string): Promise<PanelRow | undefined>;
  panelsByParticipant(participantId: string): Promise<PanelRow[]>;
  panelSessions(): Promise<PanelSessionRow[]>;
  setCompletion(sessionId: string, code: string, completedAt: number): Promise<void>;
  clearCompletion(sessionId: string): Promise<void>;
  completionOf(sessionId: string): Promise<CompletionRow | undefined>;
  completionsByCode(code: string): Promise<CompletionRow[]>;
  allCompletions(): Promise<CompletionRow[]>;
  countByStatus(status: SessionStatus): Promise<number>;
  recruitmentSetting(): Promise<{ open: boolean; target_completed: number | null; updated_at: number } | undefined>;
  setRecruitment(open: boolean, targetCompleted: number | null, now: number): Promise<void>;
  setSessionSequence(id: string, sequenceId: number): Promise<void>;
  addToken(id: string, tokenHash: string): Promise<void>;
  setStatus(id: string, status: SessionStatus, now: number): Promise<void>;
  deleteSession(id: string): Promise<void>;
  currentRound(): Promise<number>;
  sequencesOfRound(round: number): Promise<SequenceRow[]>;
  allSequences(): Promise<SequenceRow[]>;
  sequence(id: number): Promise<SequenceRow | undefined>;
  insertRound(round: number, sequences: string[][]): Promise<void>;
  setSequence(id: number, status: SequenceStatus, sessionId: string | null): Promise<void>;
  leaseSequenceTo(id: number, sessionId: string): Promise<void>;
  /**
   * Inside a transaction: hold the pool until it commits, so that two processes never read the same free sequences
   * and hand one ordering to two sessions (PostgreSQL: a transaction-level advisory lock; SQLite has one writer).
   */
  lockPool(): Promise<void>;
  insertLogRepair(r: LogRepair): Promise<void>;
  logRepairs(): Promise<LogRepair[]>;
  audit(at: number, action: string, detail: string): Promise<void>;
  auditRows(): Promise<AuditRow[]>;
  // The experimenter's state (server/admin): one password, login sessions, marks. In the shared store, so that every
  // process and machine on one database sees the same password, logins and flags.
  /** The stored password hash (`scrypt$…`), if any. */
  adminPasswordHash(): Promise<string | undefined>;
  /** Store a new password hash and end every login (run it in a transaction: see AdminAuth.setPassword). */
  setAdminPassword(hash: string, now: number): Promise<void>;
  /** Store a first password hash unless one is stored already (many processes starting at once): true when this one was stored. */
  initAdminPassword(hash: string, now: number): Promise<boolean>;
  /**
   * A new login (its token's hash), made with the password whose hash is `passwordHash`: stored only while that is
   * still the password (false otherwise: it was changed meanwhile, and the login must not outlive it). Expired logins
   * are dropped on the way.
   */
  insertAdminLogin(tokenHash: string, createdAt: number, expiresAt: number, passwordHash: string): Promise<boolean>;
  /** The expiry of the login with this token hash, if there is one. */
  adminLoginExpiry(tokenHash: string): Promise<number | undefined>;
  deleteAdminLogin(tokenHash: string): Promise<void>;
  marksOf(sessionId: string): Promise<SessionMarks | undefined>;
  allMarks(): Promise<(SessionMarks & { session_id: string })[]>;
  /** Session ids flagged pilot, test or excluded. */
  flaggedSessions(): Promise<string[]>;
  /**
   * Change the given marks of a session (the others stay) and return them all; undefined, and nothing stored, when
   * the session is gone or being withdrawn. (deleteSession deletes a session's marks with it.)
   */
  setMarks(sessionId: string, change: Partial<SessionMarks>, now: number): Promise<SessionMarks | undefined>;
  /**
   * One more failed login for `key` (a client address, hashed) in the window that began with its first failure (a new
   * window once that one is over): the count and when it resets. Counted across every process on the store.
   */
  countLoginFailure(key: string, now: number, windowMs: number): Promise<{ hits: number; reset_at: number }>;
  /** One failure fewer (the request counted turned out a success). */
  uncountLoginFailure(key: string): Promise<void>;
  clearLoginFailures(key: string): Promise<void>;
  /**
   * Only where the events live in the same database (PostgreSQL): append server records to a session's log in this
   * transaction, so that a change and the record saying so (a start and its session_start, a completion and its
   * session_complete) commit together or not at all. Absent on the embedded store (its log is the NDJSON files,
   * written after the SQLite commit; start-up recovery settles a crash between the two).
   */
  appendLog?(sessionId: string, records: readonly object[]): Promise<void>;
}

const OPS: readonly Exclude<keyof StoreOps, 'appendLog'>[] = [
  'insertSession', 'sessionByToken', 'session', 'sessionForUpdate', 'sessions', 'updateProgress', 'setProgress', 'unusedSince', 'inactiveSince',
  'insertPanel', 'sessionOfPanel', 'panelOf', 'panelsByParticipant', 'panelSessions', 'setCompletion', 'clearCompletion',
  'completionOf', 'completionsByCode', 'allCompletions', 'countByStatus', 'recruitmentSetting', 'setRecruitment',
  'setSessionSequence', 'addToken', 'setStatus', 'deleteSession', 'currentRound', 'sequencesOfRound', 'allSequences',
  'sequence', 'insertRound', 'setSequence', 'leaseSequenceTo', 'lockPool', 'insertLogRepair', 'logRepairs', 'audit', 'auditRows',
  'adminPasswordHash', 'setAdminPassword', 'initAdminPassword', 'insertAdminLogin', 'adminLoginExpiry', 'deleteAdminLogin',
  'marksOf', 'allMarks', 'flaggedSessions', 'setMarks', 'countLoginFailure', 'uncountLoginFailure', 'clearLoginFailures',
];

export interface StudyStore extends StoreOps {
  readonly kind: 'sqlite' | 'postgres';
  /** Run `fn` in one transaction (committed durably: SQLite synchronous = FULL, PostgreSQL synchronous commit). */
  transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T>;
  /**
   * A transaction whose result may be used before it is durable; `durable` resolves once it is (SQLite: the WAL's
   * fsync off the event loop, shared by a burst of commits; PostgreSQL: at once, its commit was synchronous).
   */
  transactionDeferred<T>(fn: (tx: StoreOps) => Promise<T>): Promise<{ result: T; durable: Promise<void> }>;
  /** After a withdrawal: make sure no copy of deleted rows lingers (SQLite: truncate the WAL). */
  scrub(): Promise<void>;
  close(): Promise<void>;
}

export class SqliteRows {
  readonly db: Database.Database;
  /** Every statement is prepared once (preparing costs more than running these small queries). */
  private readonly statements = new Map<string, Database.Statement>();
  private checkpointer: Worker | null = null;
  private transactionsSinceCheckpoint = 0;
  /** The WAL fsync not yet started (every commit made until it starts is covered by it), and the latest one. */
  private walSyncQueued: Promise<void> | null = null;
  private walSyncLatest: Promise<void> = Promise.resolve();
  /**
   * Failed logins per client: in memory, since one process owns the embedded store (a burst of wrong passwords writes
   * nothing to the data directory; a restart forgets the counts, as express-rate-limit's own memory store would).
   */
  private readonly loginFailures = new Map<string, { hits: number; reset_at: number }>();

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = openDurableSqlite(path);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        mode TEXT NOT NULL,
        label TEXT,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        step INTEGER NOT NULL DEFAULT 0,
        step_started_at INTEGER NOT NULL DEFAULT 0,
        acked_seq INTEGER NOT NULL DEFAULT 0,
        sequence_id INTEGER NOT NULL,
        config_hash TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS sequences (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        round INTEGER NOT NULL,
        puzzle_ids TEXT NOT NULL,
        status TEXT NOT NULL,
        session_id TEXT
      );
      CREATE INDEX IF NOT EXISTS sequences_status ON sequences(round, status);
      CREATE INDEX IF NOT EXISTS sessions_status ON sessions(status);
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
        completed_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS completions_code ON completions(code);
      CREATE TABLE IF NOT EXISTS recruitment (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        open INTEGER NOT NULL,
        target_completed INTEGER,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS session_tokens (
        token_hash TEXT PRIMARY KEY,
        session_id TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS session_tokens_session ON session_tokens(session_id);
      CREATE TABLE IF NOT EXISTS log_repairs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        bad_lines TEXT NOT NULL,
        kept_lines INTEGER NOT NULL,
        quarantine TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS admin_credentials (id INTEGER PRIMARY KEY CHECK (id = 1), password_hash TEXT NOT NULL, set_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS admin_sessions (token_hash TEXT PRIMARY KEY, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS admin_marks (
        session_id TEXT PRIMARY KEY,
        flag TEXT,
        extended_until INTEGER,
        ended_at INTEGER,
        updated_at INTEGER NOT NULL
      );
    `);
    // Databases made by earlier versions: add columns that came later.
    const columns = new Set((this.db.prepare('PRAGMA table_info(sessions)').all() as { name: string }[]).map((c) => c.name));
    if (!columns.has('step_started_at')) this.db.exec('ALTER TABLE sessions ADD COLUMN step_started_at INTEGER NOT NULL DEFAULT 0');
    const sequenceColumns = new Set((this.db.prepare('PRAGMA table_info(sequences)').all() as { name: string }[]).map((c) => c.name));
    if (!sequenceColumns.has('lease_order')) this.db.exec('ALTER TABLE sequences ADD COLUMN lease_order INTEGER');
    this.db.exec('CREATE INDEX IF NOT EXISTS sequences_lease_order ON sequences(lease_order)');
  }

  /**
   * Move WAL checkpoints off the event loop: SQLite's automatic checkpoint is turned off on this connection and a
   * worker thread checkpoints after every CHECKPOINT_EVERY transactions instead. If the worker fails, the automatic
   * checkpoint comes back.
   */
  startCheckpointer(): void {
    if (this.checkpointer || this.db.memory) return;
    const worker = new Worker(CHECKPOINTER, {
      eval: true,
      workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), path: this.db.name },
    });
    worker.unref();
    const fallback = () => {
      if (this.checkpointer !== worker) return;
      this.checkpointer = null;
      if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
    };
    worker.on('error', fallback);
    worker.on('exit', fallback);
    this.checkpointer = worker;
    this.db.pragma('wal_autocheckpoint = 0');
  }

  /** The prepared statement for `sql`, prepared on first use and kept. */
  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /**
   * Set `PRAGMA synchronous` (FULL: a commit waits for the WAL's fsync; NORMAL: it does not, WAL keeps it atomic)
   * with a cached statement.
   */
  setSynchronous(mode: 'FULL' | 'NORMAL'): void {
    this.stmt(`PRAGMA synchronous = ${mode}`).run();
  }

  /**
   * Run `fn` in a transaction that commits without waiting for its fsync (synchronous = NORMAL; WAL keeps it atomic)
   * and return its result with `durable`, which resolves once the WAL holding the commit is fsync'd (`syncWal`, off the
   * event loop). What must survive a power cut before an answer goes out (a lease before its token) awaits `durable`;
   * meanwhile the event loop serves other requests instead of waiting for the disk.
   */
  commitDeferred<T>(fn: () => T): { result: T; durable: Promise<void> } {
    const result = this.commitUnsynced(fn);
    return { result, durable: this.syncWal() };
  }

  /** A transaction that commits without an fsync of its own (synchronous = NORMAL for it alone). */
  commitUnsynced<T>(fn: () => T): T {
    this.setSynchronous('NORMAL');
    try {
      return this.transaction(fn);
    } finally {
      this.setSynchronous('FULL');
    }
  }

  /**
   * fdatasync the WAL file on the libuv pool; resolves once every commit made before the call is durable. Group
   * commit: calls made while a sync runs share the next one, so a burst of starts costs a few fsyncs, not one each.
   * (SQLite keeps one WAL file, same inode, while connections are open; it is opened for each sync anyway.)
   */
  syncWal(): Promise<void> {
    if (this.db.memory) return Promise.resolve();
    if (this.walSyncQueued) return this.walSyncQueued;
    const path = `${this.db.name}-wal`;
    const queued = this.walSyncLatest
      .catch(() => {})
      .then(() => {
        // Commits made from here on need a later sync (this one may start before them).
        this.walSyncQueued = null;
        return new Promise<void>((resolve, reject) =>
          open(path, 'r', (err, fd) => {
            if (err) return reject(err);
            fdatasync(fd, (syncErr) => close(fd, () => (syncErr ? reject(syncErr) : resolve())));
          }),
        );
      });
    this.walSyncQueued = queued;
    this.walSyncLatest = queued;
    return queued;
  }

  transaction<T>(fn: () => T): T {
    const result = this.db.transaction(fn)();
    this.counted();
    return result;
  }

  /** One more transaction committed: every CHECKPOINT_EVERY, the checkpointer copies the WAL into the database. */
  counted(): void {
    if (this.checkpointer && ++this.transactionsSinceCheckpoint >= CHECKPOINT_EVERY) {
      this.transactionsSinceCheckpoint = 0;
      this.checkpointer.postMessage('checkpoint');
    }
  }

  insertSession(row: SessionRow): void {
    this.stmt(
      `INSERT INTO sessions (id, token_hash, mode, label, status, created_at, updated_at, step, step_started_at, acked_seq, sequence_id, config_hash)
       VALUES (@id, @token_hash, @mode, @label, @status, @created_at, @updated_at, @step, @step_started_at, @acked_seq, @sequence_id, @config_hash)`,
    ).run(row);
  }

  /** The session of a token: its first one, or one it was given again when the participant came back elsewhere. */
  sessionByToken(tokenHash: string): SessionRow | undefined {
    return (this.stmt('SELECT * FROM sessions WHERE token_hash = ?').get(tokenHash) ??
      this.stmt('SELECT s.* FROM session_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?').get(tokenHash)) as SessionRow | undefined;
  }

  session(id: string): SessionRow | undefined {
    return this.stmt('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
  }

  /** One writer (this process), in a transaction already: the row as it is. */
  sessionForUpdate(id: string): SessionRow | undefined {
    return this.session(id);
  }

  sessions(): SessionRow[] {
    return this.stmt('SELECT * FROM sessions ORDER BY created_at').all() as SessionRow[];
  }

  updateProgress(id: string, ackedSeq: number, step: number, now: number): void {
    this.stmt('UPDATE sessions SET acked_seq = ?, step_started_at = CASE WHEN ? > step THEN ? ELSE step_started_at END, step = MAX(step, ?), updated_at = ? WHERE id = ?').run(ackedSeq, step, now, step, now, id);
  }

  /** Recovery: set a session's acknowledged seq and step to what its file says. */
  setProgress(id: string, ackedSeq: number, step: number): void {
    this.stmt('UPDATE sessions SET acked_seq = ?, step = ? WHERE id = ?').run(ackedSeq, step, id);
  }

  /** Active sessions started before `before` that never sent an event (a bare start: nobody is there). */
  unusedSince(before: number): SessionRow[] {
    return this.stmt("SELECT * FROM sessions WHERE status = 'active' AND acked_seq = 0 AND created_at < ?").all(before) as SessionRow[];
  }

  /** Active sessions with no event since `before`. */
  inactiveSince(before: number): SessionRow[] {
    return this.stmt("SELECT * FROM sessions WHERE status = 'active' AND updated_at < ?").all(before) as SessionRow[];
  }

  insertPanel(sessionId: string, p: { provider: string; participant_id: string; study_id?: string; session_id?: string }): void {
    this.stmt('INSERT INTO panel_ids (session_id, provider, participant_id, study_id, panel_session_id) VALUES (?, ?, ?, ?, ?)').run(sessionId, p.provider, p.participant_id, p.study_id ?? null, p.session_id ?? null);
  }

  sessionOfPanel(provider: string, participantId: string): string | undefined {
    const row = this.stmt('SELECT session_id FROM panel_ids WHERE provider = ? AND participant_id = ?').get(provider, participantId) as
      | { session_id: string }
      | undefined;
    return row?.session_id;
  }

  /** The panel identifiers of a session (none for a general or kiosk session). */
  panelOf(sessionId: string): PanelRow | undefined {
    return this.stmt('SELECT * FROM panel_ids WHERE session_id = ?').get(sessionId) as PanelRow | undefined;
  }

  /** Every panel row whose participant id is `participantId` (any provider), with its session. */
  panelsByParticipant(participantId: string): PanelRow[] {
    return this.stmt('SELECT * FROM panel_ids WHERE participant_id = ? ORDER BY provider').all(participantId) as PanelRow[];
  }

  /** Every panel row joined with its session and completion, oldest session first (the panel-ids export). */
  panelSessions(): PanelSessionRow[] {
    return this.stmt(
      `SELECT p.*, s.status, s.created_at, s.updated_at, c.code AS completion_code, c.completed_at
       FROM panel_ids p JOIN sessions s ON s.id = p.session_id LEFT JOIN completions c ON c.session_id = p.session_id
       ORDER BY s.created_at`,
    ).all() as never;
  }

  /** Record the code a completed session was given (same transaction as its status). */
  setCompletion(sessionId: string, code: string, completedAt: number): void {
    this.stmt('INSERT INTO completions (session_id, code, completed_at) VALUES (?, ?, ?) ON CONFLICT(session_id) DO UPDATE SET code = excluded.code, completed_at = excluded.completed_at').run(sessionId, code, completedAt);
  }

  clearCompletion(sessionId: string): void {
    this.stmt('DELETE FROM completions WHERE session_id = ?').run(sessionId);
  }

  completionOf(sessionId: string): CompletionRow | undefined {
    return this.stmt('SELECT * FROM completions WHERE session_id = ?').get(sessionId) as CompletionRow | undefined;
  }

  /** Sessions given `code` (one for a per-participant code; every completed session for the study-wide code). */
  completionsByCode(code: string): CompletionRow[] {
    return this.stmt('SELECT * FROM completions WHERE code = ? ORDER BY completed_at').all(code) as CompletionRow[];
  }

  allCompletions(): CompletionRow[] {
    return this.stmt('SELECT * FROM completions ORDER BY completed_at').all() as CompletionRow[];
  }

  countByStatus(status: SessionStatus): number {
    return (this.stmt('SELECT COUNT(*) AS n FROM sessions WHERE status = ?').get(status) as { n: number }).n;
  }

  /** Recruitment as the dashboard last set it (undefined: never set, the config holds). */
  recruitmentSetting(): { open: boolean; target_completed: number | null; updated_at: number } | undefined {
    const row = this.stmt('SELECT open, target_completed, updated_at FROM recruitment WHERE id = 1').get() as { open: number; target_completed: number | null; updated_at: number } | undefined;
    return row && { open: row.open === 1, target_completed: row.target_completed, updated_at: row.updated_at };
  }

  setRecruitment(open: boolean, targetCompleted: number | null, now: number): void {
    this.stmt(
      'INSERT INTO recruitment (id, open, target_completed, updated_at) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET open = excluded.open, target_completed = excluded.target_completed, updated_at = excluded.updated_at',
    ).run(open ? 1 : 0, targetCompleted, now);
  }

  /** The sequence leased to a session at consent. */
  setSessionSequence(id: string, sequenceId: number): void {
    this.stmt('UPDATE sessions SET sequence_id = ? WHERE id = ?').run(sequenceId, id);
  }

  /** Another token for a session (a panel participant back from another browser): every earlier one stays valid. */
  addToken(id: string, tokenHash: string): void {
    this.stmt('INSERT INTO session_tokens (token_hash, session_id) VALUES (?, ?)').run(tokenHash, id);
  }

  setStatus(id: string, status: SessionStatus, now: number): void {
    this.stmt('UPDATE sessions SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
  }

  deleteSession(id: string): void {
    this.stmt('DELETE FROM panel_ids WHERE session_id = ?').run(id);
    this.stmt('DELETE FROM log_repairs WHERE session_id = ?').run(id);
    this.stmt('DELETE FROM session_tokens WHERE session_id = ?').run(id);
    this.stmt('DELETE FROM completions WHERE session_id = ?').run(id);
    this.stmt('DELETE FROM sessions WHERE id = ?').run(id);
    this.stmt('DELETE FROM admin_marks WHERE session_id = ?').run(id);
  }

  currentRound(): number {
    const row = this.stmt('SELECT MAX(round) AS r FROM sequences').get() as { r: number | null };
    return row.r ?? 0;
  }

  sequencesOfRound(round: number): SequenceRow[] {
    return (this.stmt('SELECT * FROM sequences WHERE round = ? ORDER BY id').all(round) as StoredSequence[]).map(decodeSequence);
  }

  allSequences(): SequenceRow[] {
    return (this.stmt('SELECT * FROM sequences ORDER BY id').all() as StoredSequence[]).map(decodeSequence);
  }

  sequence(id: number): SequenceRow | undefined {
    const row = this.stmt('SELECT * FROM sequences WHERE id = ?').get(id) as StoredSequence | undefined;
    return row && decodeSequence(row);
  }

  /** The pool is leased by one process (this one): nothing to lock. */
  lockPool(): void {}

  /** Audit rows, oldest first. */
  auditRows(): AuditRow[] {
    return this.stmt('SELECT at, action, detail FROM audit ORDER BY id').all() as AuditRow[];
  }

  insertRound(round: number, sequences: string[][]): void {
    const insert = this.stmt("INSERT INTO sequences (round, puzzle_ids, status, session_id) VALUES (?, ?, 'free', NULL)");
    for (const seq of sequences) insert.run(round, JSON.stringify(seq));
  }

  setSequence(id: number, status: SequenceStatus, sessionId: string | null): void {
    this.stmt('UPDATE sequences SET status = ?, session_id = ? WHERE id = ?').run(status, sessionId, id);
  }

  /** Lease a sequence to a session, numbering the lease (`lease_order`: the order sequences were handed out). */
  leaseSequenceTo(id: number, sessionId: string): void {
    this.stmt("UPDATE sequences SET status = 'leased', session_id = ?, lease_order = (SELECT COALESCE(MAX(lease_order), 0) + 1 FROM sequences) WHERE id = ?").run(sessionId, id);
  }

  /** A session whose log had damaged lines at start-up (kept aside in quarantine/), for the dashboard. */
  insertLogRepair(r: LogRepair): void {
    this.stmt('INSERT INTO log_repairs (session_id, at, bad_lines, kept_lines, quarantine) VALUES (?, ?, ?, ?, ?)').run(r.session_id, r.at, JSON.stringify(r.bad_lines), r.kept_lines, r.quarantine);
  }

  logRepairs(): LogRepair[] {
    return (this.stmt('SELECT session_id, at, bad_lines, kept_lines, quarantine FROM log_repairs ORDER BY id').all() as (Omit<LogRepair, 'bad_lines'> & { bad_lines: string })[]).map((r) => ({ ...r, bad_lines: JSON.parse(r.bad_lines) as number[] }));
  }

  audit(at: number, action: string, detail: string): void {
    this.stmt('INSERT INTO audit (at, action, detail) VALUES (?, ?, ?)').run(at, action, detail);
  }

  adminPasswordHash(): string | undefined {
    return (this.stmt('SELECT password_hash FROM admin_credentials WHERE id = 1').get() as { password_hash: string } | undefined)?.password_hash;
  }

  setAdminPassword(hash: string, now: number): void {
    this.db.transaction(() => {
      this.stmt('INSERT INTO admin_credentials (id, password_hash, set_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at').run(hash, now);
      this.stmt('DELETE FROM admin_sessions').run();
    })();
  }

  initAdminPassword(hash: string, now: number): boolean {
    return this.stmt('INSERT INTO admin_credentials (id, password_hash, set_at) VALUES (1, ?, ?) ON CONFLICT(id) DO NOTHING').run(hash, now).changes === 1;
  }

  insertAdminLogin(tokenHash: string, createdAt: number, expiresAt: number, passwordHash: string): boolean {
    this.stmt('DELETE FROM admin_sessions WHERE expires_at <= ?').run(createdAt);
    return (
      this.stmt('INSERT INTO admin_sessions (token_hash, created_at, expires_at) SELECT ?, ?, ? FROM admin_credentials WHERE id = 1 AND password_hash = ?').run(
        tokenHash,
        createdAt,
        expiresAt,
        passwordHash,
      ).changes === 1
    );
  }

  adminLoginExpiry(tokenHash: string): number | undefined {
    return (this.stmt('SELECT expires_at FROM admin_sessions WHERE token_hash = ?').get(tokenHash) as { expires_at: number } | undefined)?.expires_at;
  }

  deleteAdminLogin(tokenHash: string): void {
    this.stmt('DELETE FROM admin_sessions WHERE token_hash = ?').run(tokenHash);
  }

  marksOf(sessionId: string): SessionMarks | undefined {
    return this.stmt('SELECT flag, extended_until, ended_at FROM admin_marks WHERE session_id = ?').get(sessionId) as SessionMarks | undefined;
  }

  allMarks(): (SessionMarks & { session_id: string })[] {
    return this.stmt('SELECT session_id, flag, extended_until, ended_at FROM admin_marks ORDER BY session_id').all() as (SessionMarks & { session_id: string })[];
  }

  flaggedSessions(): string[] {
    return (this.stmt('SELECT session_id FROM admin_marks WHERE flag IS NOT NULL ORDER BY session_id').all() as { session_id: string }[]).map((r) => r.session_id);
  }

  setMarks(sessionId: string, change: Partial<SessionMarks>, now: number): SessionMarks | undefined {
    return this.stmt(
      `INSERT INTO admin_marks (session_id, flag, extended_until, ended_at, updated_at)
       SELECT id, @flag, @extended_until, @ended_at, @now FROM sessions WHERE id = @session_id AND status <> 'withdrawing'
       ON CONFLICT(session_id) DO UPDATE SET
         flag = CASE WHEN @has_flag THEN excluded.flag ELSE flag END,
         extended_until = CASE WHEN @has_extended THEN excluded.extended_until ELSE extended_until END,
         ended_at = CASE WHEN @has_ended THEN excluded.ended_at ELSE ended_at END,
         updated_at = excluded.updated_at
       RETURNING flag, extended_until, ended_at`,
    ).get({
      session_id: sessionId,
      flag: change.flag ?? null,
      extended_until: change.extended_until ?? null,
      ended_at: change.ended_at ?? null,
      now,
      has_flag: change.flag !== undefined ? 1 : 0,
      has_extended: change.extended_until !== undefined ? 1 : 0,
      has_ended: change.ended_at !== undefined ? 1 : 0,
    }) as SessionMarks | undefined;
  }

  countLoginFailure(key: string, now: number, windowMs: number): { hits: number; reset_at: number } {
    for (const [k, v] of this.loginFailures) if (v.reset_at <= now) this.loginFailures.delete(k);
    const entry = this.loginFailures.get(key) ?? { hits: 0, reset_at: now + windowMs };
    entry.hits += 1;
    this.loginFailures.set(key, entry);
    return { ...entry };
  }

  uncountLoginFailure(key: string): void {
    const entry = this.loginFailures.get(key);
    if (entry) entry.hits = Math.max(0, entry.hits - 1);
  }

  clearLoginFailures(key: string): void {
    this.loginFailures.delete(key);
  }

  /**
   * Close the database. The checkpoint worker checkpoints once more, closes its connection and exits; the promise
   * resolves once it has (so nothing writes into the data directory afterwards: a test may remove it, a process exit).
   */
  close(): Promise<void> {
    const worker = this.checkpointer;
    this.checkpointer = null;
    const exited = worker ? new Promise<void>((resolve) => worker.once('exit', () => resolve())) : Promise.resolve();
    worker?.postMessage('close');
    this.db.close();
    return exited;
  }
}


/** `StoreOps` run at once on SQLite's connection: each call does its work when called (a throw is synchronous too). */
function directOps(rows: SqliteRows): StoreOps {
  const ops = {} as Record<string, unknown>;
  for (const name of OPS) {
    const method = (rows[name] as (...a: unknown[]) => unknown).bind(rows);
    ops[name] = (...args: unknown[]) => Promise.resolve(method(...args));
  }
  return ops as unknown as StoreOps;
}

export interface SqliteStore extends StoreOps {}

/**
 * The embedded store: SQLite in the data directory. One writer (this process). An async transaction holds a lock
 * while it is open: other calls wait for it instead of running inside it (better-sqlite3 has one connection).
 */
export class SqliteStore implements StudyStore {
  readonly kind = 'sqlite' as const;
  readonly rows: SqliteRows;
  /** The operations without waiting for the lock: for a transaction's body (and the event log's group commit). */
  readonly direct: StoreOps;
  private lock: Promise<void> | null = null;

  constructor(path: string) {
    this.rows = new SqliteRows(path);
    this.direct = directOps(this.rows);
    for (const name of OPS) {
      const run = this.direct[name] as (...a: unknown[]) => Promise<unknown>;
      (this as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => (this.lock ? this.afterLock(() => run(...args)) : run(...args));
    }
  }

  get db(): Database.Database {
    return this.rows.db;
  }

  startCheckpointer(): void {
    this.rows.startCheckpointer();
  }

  private async afterLock<T>(fn: () => Promise<T>): Promise<T> {
    while (this.lock) await this.lock;
    return fn();
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    while (this.lock) await this.lock;
    let release!: () => void;
    this.lock = new Promise<void>((r) => (release = r));
    try {
      return await fn();
    } finally {
      this.lock = null;
      release();
    }
  }

  private async run<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    const db = this.rows.db;
    db.exec('BEGIN IMMEDIATE');
    let result: T;
    try {
      result = await fn(this.direct);
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
    db.exec('COMMIT');
    this.rows.counted();
    return result;
  }

  transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    return this.locked(() => this.run(fn));
  }

  transactionDeferred<T>(fn: (tx: StoreOps) => Promise<T>): Promise<{ result: T; durable: Promise<void> }> {
    return this.locked(async () => {
      this.rows.setSynchronous('NORMAL');
      try {
        const result = await this.run(fn);
        return { result, durable: this.rows.syncWal() };
      } finally {
        this.rows.setSynchronous('FULL');
      }
    });
  }

  /**
   * The event log's group commit: `run` calls `direct` operations synchronously, in one transaction that commits
   * without its own fsync (the events were fsync'd in their files first; these columns only mirror them).
   */
  commitUnsyncedNow(run: () => void): void {
    if (this.lock) throw new Error('the store is in a transaction');
    this.rows.commitUnsynced(run);
  }

  async scrub(): Promise<void> {
    await this.afterLock(async () => void this.rows.db.pragma('wal_checkpoint(TRUNCATE)'));
  }

  close(): Promise<void> {
    return this.rows.close();
  }
}
