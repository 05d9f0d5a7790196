// The study's server-side rules: sessions, sequence leases, ordered durable event intake, checking, completion.
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { clientStudyIn, type LoadedStudy } from '../shared/study/config.ts';
import { sessionLanguage, studyTextIn } from '../shared/i18n/studyTexts.ts';
import { HttpError } from './httpError.ts';
import { AfterSyncError, EventLog, SessionRemovedError, type EventStore } from '../store/eventLog.ts';
import type { SessionRow, StoreOps, StudyStore } from '../store/store.ts';
import type { ClientEvent, LoggedClientEvent, LoggedEvent, LoggedServerEvent, ServerEvent } from '../shared/schema/event.ts';
import { receiveClient, stampServer } from '../shared/schema/stamp.ts';
import type { StoredSessionStatus } from '../shared/schema/session.ts';
import { isNonogramPuzzle, type StudyPuzzle } from '../shared/schema/config.ts';
import type { MoveBoard } from '../shared/log/rules.ts';
import type { CheckRequest, HintRequest, HintResponse, SessionState, StartSessionRequest } from '../shared/schema/api.ts';
import { loggedProgress, sessionProgress } from '../shared/study/progress.ts';
import { admit, copyProgression, foldProgression, noteServerRecord, type Progression } from '../shared/study/progression.ts';
import type { Step } from '../shared/study/steps.ts';
import { expandSteps, sequenceLength } from '../shared/study/steps.ts';
import { chooseBalanced, orderedSequences } from '../shared/study/sequences.ts';
import { stepCapSeconds } from '../shared/study/timing.ts';
import { kindOfRecord } from '../shared/puzzles/index.ts';
import { hintFor } from './puzzleHints.ts';
import { hintWords } from '../shared/i18n/hints/catalogues.ts';
import { createRng, type Rng } from '../shared/random.ts';
import { recruitmentState } from './recruitment.ts';
import { newCompletionCode } from './completionCode.ts';

/** How far ahead of the acknowledged sequence number an event may be (two full batches): later ones get 409. */
export const MAX_SEQ_AHEAD = 1_000;
/** A client clock more than this far ahead of the server's is not plausible. */
export const MAX_CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;
/** `sessions.sequence_id` of a session that has no sequence yet (it is leased at consent). */
export const NO_SEQUENCE = 0;

/** A session's progression held between batches (folded from its log), and where its log is. */
interface HeldProgression {
  steps: Step[];
  state: Progression;
  acked: number;
  records: number;
  /**
   * Client events the log already holds past a gap (start-up kept the valid lines after a damaged one): when the
   * client resends from the gap, each of these is taken from the log, not written again, and what fills the gap is
   * put in seq order (EventLog's `inSeqOrder`). Empty otherwise.
   */
  beyond: Map<number, LoggedClientEvent>;
}

/** A promise with its resolve and reject at hand (its rejection is handled: only waiters see it). */
function settleable(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void, reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {});
  return { promise, resolve, reject };
}
/** A session without events for this long keeps nothing in memory (held events, its progression). */
const IDLE_MS = 5 * 60 * 1000;
/** Statuses after which a session records nothing more (abandoned can come back; withdrawn answers 410). */
const ENDED: ReadonlySet<string> = new Set(['complete', 'declined', 'screened_out']);

/** A failed fsync of SQLite's WAL, as the participant sees it. */
const storeFailed = (): never => {
  throw new HttpError(503, 'the server could not store this; please try again', undefined, { code: 'store_unavailable' });
};

export interface StudyServiceOptions {
  study: LoadedStudy;
  store: StudyStore;
  log: EventStore;
  appVersion: string;
  clock?: () => number;
  rng?: Rng;
  /**
   * Tests of crash safety: called (and awaited) at each durable step of a multi-step change; a throw stands for the
   * process dying there (nothing of the change runs after it, not even the undo of a failure).
   */
  crashPoint?: (point: string) => void | Promise<void>;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface StudyServiceEvents {
  /** Records just made durable for a session (client and server records alike). */
  appended: [sessionId: string, records: readonly LoggedEvent[]];
  /** A session was created, completed, declined or withdrawn. */
  session: [sessionId: string, status: StoredSessionStatus];
}

export class StudyService {
  /** Live feed for the experimenter dashboard: subscribe with service.feed.on('appended', ...). */
  readonly feed = new EventEmitter<StudyServiceEvents>();
  private readonly study: LoadedStudy;
  private readonly store: StudyStore;
  private readonly log: EventStore;
  private readonly appVersion: string;
  private readonly clock: () => number;
  private readonly rng: Rng;
  private readonly crashPoint: (point: string) => void | Promise<void>;
  /** A test gave crash points (the events' hot path asks only then). */
  private readonly crashTests: boolean;
  /** Errors thrown by `crashPoint`: the process died there, so no undo runs after them. */
  private readonly crashes = new WeakSet<object>();
  /** The study has a consent step before its puzzles: sequences are leased at consent, not at the start. */
  private readonly leaseAtConsent: boolean;
  /** Study and practice puzzles with their solutions (the config validates that every one has a solution). */
  private readonly puzzlesById = new Map<string, StudyPuzzle & { solution: string[] }>();
  /** Events that arrived ahead of a gap, per session, held until the gap fills (never written out of order). */
  private readonly pending = new Map<string, Map<number, ClientEvent>>();
  /**
   * Highest seq known durable in each session's file, whatever SQLite says (its update comes after the fsync and
   * could fail on its own): a new intake never starts below it, so a retry can never write an event twice.
   */
  private readonly durableSeq = new Map<string, number>();
  /** Per session with event writes in flight: highest seq queued and the session's latest write (the step reached is the progression's). */
  private readonly intake = new Map<string, { queued: number; tail: Promise<void> | null; ended?: Promise<void> }>();
  /** Sessions whose batch is leasing at consent (a pause in admission): their next batch waits for it. */
  private readonly admitting = new Map<string, Promise<void>>();
  /** Where each session with recent events is (progression.ts), folded from its log on first use; dropped when idle. */
  private readonly progressions = new Map<string, HeldProgression>();
  /**
   * Starts in this process whose session_start record is not yet durable, by session id: a returning panel
   * participant's second start (two tabs at once) waits for the first's record before its own token goes out, so no
   * token ever names a session that recovery would remove as never started. (Registered inside the start's
   * transaction, before its row can be seen.)
   */
  private readonly starting = new Map<string, ReturnType<typeof settleable>>();
  /** A puzzle's board, for the progression's check that a move is one its board takes. */
  private readonly boardOf = (id: string): MoveBoard | undefined => {
    const p = this.puzzlesById.get(id);
    if (!p) return undefined;
    return isNonogramPuzzle(p) ? { kind: 'nonogram', width: p.width, height: p.height } : { kind: 'sudoku', size: p.size, givens: p.givens };
  };
  /** Completions whose session_complete record is being made durable: a racing second request waits for it. */
  private readonly completing = new Map<string, Promise<void>>();
  /** The language each session speaks (its session_start's `lang`), read from its log once (a study with languages only). */
  private readonly spoken = new Map<string, string>();

  constructor(opts: StudyServiceOptions) {
    this.study = opts.study;
    this.store = opts.store;
    this.log = opts.log;
    this.appVersion = opts.appVersion;
    this.clock = opts.clock ?? Date.now;
    this.rng = opts.rng ?? createRng(randomBytes(4).readUInt32LE(0));
    this.crashPoint = opts.crashPoint ?? (() => {});
    this.crashTests = opts.crashPoint !== undefined;
    const kinds = this.study.config.phases.map((p) => p.kind);
    this.leaseAtConsent = kinds.includes('consent') && kinds.includes('puzzles') && kinds.indexOf('consent') < kinds.indexOf('puzzles');
    for (const p of [...this.study.config.puzzles, ...this.study.config.practice_puzzles])
      if (p.solution) this.puzzlesById.set(p.id, { ...p, solution: p.solution });
  }

  /**
   * Append server records through the event log's group commit (in order with the session's client events): resolves
   * once they are written and fsync'd, so an answer that depends on them goes out only then. Failure: 410 if the
   * session was withdrawn meanwhile, else 503 (nothing of the failed write stays in the file).
   */
  async appendRecords(sessionId: string, records: readonly LoggedEvent[]): Promise<void> {
    try {
      await this.log.appendDurable(sessionId, records);
    } catch (err) {
      // AfterSyncError: durable; only another caller's after-sync work in the same commit failed.
      if (!(err instanceof AfterSyncError)) {
        if (err instanceof SessionRemovedError) throw new HttpError(410, 'this session was withdrawn');
        throw new HttpError(503, 'the server could not store this; please try again', undefined, { code: 'store_unavailable' });
      }
    }
    this.noteAppended(sessionId, records);
  }

  /** Records of a session just made durable (by the log's group commit, or in a store transaction with its rows). */
  private noteAppended(sessionId: string, records: readonly LoggedEvent[]): void {
    // (A progression held here counts the records it has seen: another process's records make it stale.)
    const held = this.progressions.get(sessionId);
    if (held) held.records += records.length;
    this.feed.emit('appended', sessionId, records);
  }

  private serverRecord(event: ServerEvent): LoggedServerEvent {
    return stampServer(event, { t_server: this.clock(), config_hash: this.study.hash, app_version: this.appVersion });
  }

  /** 409 when every sequence is used and the config says refuse (checked without leasing). */
  private async refuseWhenFull(tx: StoreOps): Promise<void> {
    if (this.study.config.assignment.when_exhausted !== 'refuse') return;
    const round = await tx.currentRound();
    if (round > 0 && !(await tx.sequencesOfRound(round)).some((r) => r.status === 'free')) throw new HttpError(409, 'every sequence of this study has been used; the study is full');
  }

  /**
   * The lease at consent: the session's sequence (its own if a lease survived a failed write of this batch), committed
   * with a full fsync before the record that names it is written, so a log never names a sequence SQLite lost.
   */
  private leaseOnConsent(sessionId: string): Promise<{ id: number; puzzles: string[]; round: number }> {
    return this.store.transaction(async (tx) => {
      const row = await tx.session(sessionId);
      if (!row) throw new HttpError(410, 'this session was withdrawn');
      const held = await tx.sequence(row.sequence_id);
      if (held && held.session_id === sessionId) return { id: held.id, puzzles: held.puzzle_ids, round: held.round };
      const lease = await this.leaseSequence(tx, sessionId);
      await tx.setSessionSequence(sessionId, lease.id);
      return lease;
    });
  }

  /** Lease a free sequence, balanced; opens a new round when the pool is used up (or refuses, per config). */
  private async leaseSequence(tx: StoreOps, sessionId: string): Promise<{ id: number; puzzles: string[]; round: number }> {
    // One lease at a time over every process sharing the store: the pool is read after the lock is held.
    await tx.lockPool();
    const poolIds = this.study.config.puzzles.map((p) => p.id);
    const k = sequenceLength(this.study.config.phases);
    let round = await tx.currentRound();
    if (round === 0) {
      round = 1;
      await tx.insertRound(round, orderedSequences(poolIds, k));
    }
    let rows = await tx.sequencesOfRound(round);
    let free = rows.filter((r) => r.status === 'free');
    if (free.length === 0) {
      if (this.study.config.assignment.when_exhausted === 'refuse') throw new HttpError(409, 'every sequence of this study has been used; the study is full');
      round += 1;
      await tx.insertRound(round, orderedSequences(poolIds, k));
      rows = await tx.sequencesOfRound(round);
      free = rows;
    }
    // Sessions the experimenter flagged (pilot, test, excluded): their attempts do not count in the balanced draw.
    const flagged = new Set(await tx.flaggedSessions());
    const taken = rows.filter((r) => r.status !== 'free' && !(r.session_id && flagged.has(r.session_id))).map((r) => r.puzzle_ids);
    const pick = free[chooseBalanced(free.map((r) => r.puzzle_ids), taken, poolIds, this.rng)];
    await tx.leaseSequenceTo(pick.id, sessionId);
    return { id: pick.id, puzzles: pick.puzzle_ids, round };
  }

  /**
   * Start a session (or give a returning panel participant theirs back with a fresh token). The session_start record
   * goes through the group commit and the answer (the token) waits for its fsync, without stalling other requests.
   * If that write fails, the session and its lease are undone (nobody got the token) and the answer is 503.
   */
  async startSession(req: StartSessionRequest): Promise<{ token: string; state: SessionState }> {
    const begun = await this.beginSession(req);
    if ('state' in begun) return begun;
    const started = this.starting.get(begun.id);
    try {
      await this.finishStart(begun);
      started?.resolve();
    } catch (err) {
      started?.reject(err);
      throw err;
    } finally {
      if (this.starting.get(begun.id) === started) this.starting.delete(begun.id);
    }
    this.feed.emit('session', begun.id, 'active');
    return { token: begun.token, state: await this.stateOf((await this.store.session(begun.id))!) };
  }

  /** A new session's start record made durable (or the start undone, and the error passed on). */
  private async finishStart(begun: { id: string; record: LoggedServerEvent; durable: Promise<void>; recorded: boolean }): Promise<void> {
    if (begun.recorded) {
      await begun.durable.catch(storeFailed);
      this.noteAppended(begun.id, [begun.record]);
    } else
      try {
        // The lease's commit first, then the start record: both fsync'd off the event loop, so a burst of starts does
        // not stall everyone else's requests (and their WAL fsyncs are shared).
        await begun.durable.catch(storeFailed);
        await this.dieAt('start:row');
        await this.appendRecords(begun.id, [begun.record]);
      } catch (err) {
        if (this.crashes.has(err as object)) throw err;
        await this.store.transaction(async (tx) => {
          const row = await tx.session(begun.id);
          const seq = row && (await tx.sequence(row.sequence_id));
          if (seq && seq.session_id === begun.id) await tx.setSequence(seq.id, 'free', null);
          await tx.deleteSession(begun.id);
        });
        await this.log.remove(begun.id);
        throw err;
      }
  }

  /** A test's crash point (see StudyServiceOptions.crashPoint); what it throws is marked as the process dying. */
  private async dieAt(point: string): Promise<void> {
    try {
      await this.crashPoint(point);
    } catch (err) {
      if (typeof err === 'object' && err !== null) this.crashes.add(err);
      throw err;
    }
  }

  /**
   * A store's transaction that fails before it commits: nothing of it stays, and the answer is 503 (a dropped
   * connection, a failing statement); a refusal (HttpError) and a crash point pass through as they are.
   */
  private transactionOr503<T>(fn: (tx: StoreOps) => Promise<T>, deferred: true): Promise<{ result: T; durable: Promise<void> }>;
  private transactionOr503<T>(fn: (tx: StoreOps) => Promise<T>, deferred?: false): Promise<T>;
  private async transactionOr503<T>(fn: (tx: StoreOps) => Promise<T>, deferred = false): Promise<T | { result: T; durable: Promise<void> }> {
    try {
      return deferred ? await this.store.transactionDeferred(fn) : await this.store.transaction(fn);
    } catch (err) {
      if (err instanceof HttpError || this.crashes.has(err as object)) throw err;
      if (err instanceof SessionRemovedError) throw new HttpError(410, 'this session was withdrawn');
      throw new HttpError(503, 'the server could not store this; please try again', undefined, { code: 'store_unavailable' });
    }
  }

  /**
   * The rows of a start: lease and row in one transaction, committed without waiting for its fsync (`durable`
   * resolves once it is on disk); the record still to be written (`recorded` false). Where the events live in the same
   * database (PostgreSQL) the session_start record is written in that transaction too (`recorded`): a crash leaves the
   * whole start or nothing of it.
   */
  private async beginSession(
    req: StartSessionRequest,
  ): Promise<{ token: string; state: SessionState } | { token: string; id: string; record: LoggedServerEvent; durable: Promise<void>; recorded: boolean }> {
    const token = randomBytes(24).toString('base64url');
    const returning = await this.returningPanel(req, token);
    if (returning) return returning;
    try {
      return await this.beginNewSession(req, token);
    } catch (err) {
      // Two starts at once for one panel participant: the other's row won the panel's unique key. This one is the
      // returning start after all (on PostgreSQL the rows are seen only once committed).
      const again = err instanceof HttpError && err.status === 503 ? await this.returningPanel(req, token) : null;
      if (again) return again;
      throw err;
    }
  }

  /**
   * A panel participant reopening the study (another browser, cleared cookies) gets their own session back, with a
   * fresh token; they never get a second sequence. The first browser's token stays valid: its unsent events are still
   * the participant's, and must reach the log (the server drops what it already holds).
   */
  private async returningPanel(req: StartSessionRequest, token: string): Promise<{ token: string; state: SessionState } | null> {
    if (!req.panel) return null;
    const existing = await this.store.sessionOfPanel(req.panel.provider, req.panel.participant_id);
    if (!existing) return null;
    // Its first start may still be making its start record durable: this token waits for it (and fails with it).
    const first = this.starting.get(existing);
    if (first)
      await first.promise.catch(() => {
        throw new HttpError(503, 'the server could not store this; please try again', undefined, { code: 'store_unavailable' });
      });
    await this.store.addToken(existing, hashToken(token));
    return { token, state: await this.stateOf((await this.store.session(existing))!) };
  }

  private async beginNewSession(req: StartSessionRequest, token: string): Promise<{ token: string; id: string; record: LoggedServerEvent; durable: Promise<void>; recorded: boolean }> {
    // Recruitment closed or its target reached: new visitors are turned away (a returning one got theirs back above).
    const recruitment = await recruitmentState(this.store, this.study.config, { count: false });
    if (!recruitment.accepting)
      throw new HttpError(403, studyTextIn(this.study.config.languages, req.lang, 'recruitment.closed_message', recruitment.closed_message), [`recruitment: ${recruitment.reason}`]);
    const id = `s${randomBytes(8).toString('hex')}`;
    const now = this.clock();
    let recorded = false;
    const { result: record, durable } = await this.transactionOr503(async (tx) => {
      // With a consent step before the puzzles, the sequence is leased when the participant consents (a start that
      // goes no further, a crawler's or a script's, holds nothing); the pool being used up is still said at once.
      if (this.leaseAtConsent) await this.refuseWhenFull(tx);
      const lease = this.leaseAtConsent ? { id: NO_SEQUENCE, puzzles: [] as string[], round: 0 } : await this.leaseSequence(tx, id);
      await tx.insertSession({
        id,
        token_hash: hashToken(token),
        mode: req.mode,
        label: req.label ?? null,
        status: 'active',
        created_at: now,
        updated_at: now,
        step: 0,
        step_started_at: now,
        acked_seq: 0,
        sequence_id: lease.id,
        config_hash: this.study.hash,
      });
      if (req.panel) await tx.insertPanel(id, req.panel);
      this.starting.set(id, settleable());
      const record = this.serverRecord({
        type: 'session_start',
        session_id: id,
        payload: { mode: req.mode, sequence: lease.puzzles, sequence_id: lease.id, round: lease.round, ...(this.study.config.languages ? { lang: sessionLanguage(this.study.config.languages, req.lang) } : {}) },
      });
      if (tx.appendLog) {
        await this.dieAt('start:row');
        await tx.appendLog(id, [record]);
        recorded = true;
      }
      return record;
    }, true).catch((err: unknown) => {
      this.starting.delete(id);
      throw err;
    });
    return { token, id, record, durable, recorded };
  }

  async sessionForToken(token: string | undefined): Promise<SessionRow> {
    if (!token) throw new HttpError(401, 'no participant session: start the study from its link');
    const row = await this.store.sessionByToken(hashToken(token));
    if (!row) throw new HttpError(401, 'unknown or expired participant token');
    return row;
  }

  private async sequenceOf(row: SessionRow): Promise<string[]> {
    const seq = await this.store.sequence(row.sequence_id);
    return seq ? seq.puzzle_ids : [];
  }

  /** Every durable record of a session's log, in order (whichever store). */
  async recordsOf(sessionId: string): Promise<LoggedEvent[]> {
    return this.log.read(sessionId);
  }

  async stateOf(row: SessionRow): Promise<SessionState> {
    const records = await this.log.read(row.id);
    const progress = sessionProgress(records);
    const completion = row.status === 'complete' ? await this.store.completionOf(row.id) : undefined;
    return {
      session_id: row.id,
      sequence: await this.sequenceOf(row),
      step: row.step,
      acked_seq: row.acked_seq,
      status: row.status === 'withdrawing' ? 'withdrawn' : row.status,
      study: clientStudyIn(this.study, languageOf(records)),
      moves_by_step: progress.movesByStep,
      ratings: progress.ratings,
      outcomes: progress.outcomes,
      completion_code:
        row.status === 'complete'
          ? (completion?.code ?? this.study.config.completion.code ?? null)
          : row.status === 'screened_out'
            ? (this.study.config.completion.screened_out_code ?? null)
            : null,
    };
  }

  private markDurable(sessionId: string, seq: number): void {
    if (seq > (this.durableSeq.get(sessionId) ?? 0)) this.durableSeq.set(sessionId, seq);
  }

  /**
   * Take a batch: drop duplicates (seq already held), hold events beyond a gap, queue the contiguous run for the
   * event log's group commit, and once it is written and fsync'd (SQLite updated in the same flush's transaction)
   * return the highest contiguous sequence number held. Retries are therefore harmless.
   *
   * Several requests of one session may be in flight at once (a retry racing its original): `intake` keeps, per
   * session with writes in flight, the highest sequence number already queued, so a racing request neither writes an
   * event twice nor acknowledges one before the flush that makes it durable (it waits for the session's latest write).
   */
  async appendEvents(row: SessionRow, events: readonly ClientEvent[]): Promise<number> {
    if (row.status === 'withdrawn') throw new HttpError(410, 'this session was withdrawn');
    if (row.status === 'complete' || row.status === 'declined' || row.status === 'screened_out')
      throw new HttpError(409, `this session has ended (${row.status.replace('_', ' ')}); no more events are taken`, undefined, { status: row.status });
    if (row.status === 'abandoned') await this.comeBack(row);
    const foreign = events.find((e) => e.session_id !== row.id);
    if (foreign) throw new HttpError(403, `event seq ${foreign.seq} names another session`);
    const now = this.clock();
    const future = events.find((e) => e.t_wall > now + MAX_CLOCK_AHEAD_MS);
    if (future) throw new HttpError(400, `event seq ${future.seq}: t_wall ${future.t_wall} is more than a day ahead of the server's clock`, [`events.seq ${future.seq}.t_wall: not plausible`], { seq: future.seq });
    // From here to the queued write runs without a pause (another request of this session must not admit the same
    // events), except for a lease at consent, which holds `admitting` meanwhile.
    const progression = await this.progressionFor(row);
    let intake = this.intake.get(row.id);
    const queued = intake?.queued ?? Math.max(row.acked_seq, this.durableSeq.get(row.id) ?? 0, progression.acked);
    // Held events cost memory until the gap before them fills: only so far ahead, and only so many.
    const far = events.find((e) => e.seq > queued + MAX_SEQ_AHEAD);
    if (far) throw new HttpError(409, `event seq ${far.seq} is too far ahead of the acknowledged seq ${queued}; send the events in order`, undefined, { acked_seq: queued, seq: far.seq });
    if (!intake) this.intake.set(row.id, (intake = { queued, tail: null }));
    let pending = this.pending.get(row.id);
    if (!pending) this.pending.set(row.id, (pending = new Map()));
    for (const e of events) if (e.seq > intake.queued && !pending.has(e.seq)) pending.set(e.seq, e);
    const trial = copyProgression(progression.state);
    const serverElapsed = this.study.config.timing.trust_client_clock ? null : now - row.created_at;
    // A refused run (or a lease that could not be taken) leaves nothing: held events go too (never acknowledged, the
    // client still has them), and an intake with no write in flight.
    const dropRun = () => {
      this.pending.delete(row.id);
      if (!intake.tail && this.intake.get(row.id) === intake) this.intake.delete(row.id);
    };
    const ready: LoggedClientEvent[] = [];
    let acked = intake.queued;
    const stamp = { t_server: now, config_hash: this.study.hash, app_version: this.appVersion };
    let releaseAdmitting: (() => void) | null = null;
    try {
    /** The sequence leased at consent in this run, written right after the consent's step_end. */
    let assigned: LoggedServerEvent | null = null;
    let assignedAfter = 0;
    const gap = progression.beyond.size > 0;
    const fromLog: number[] = [];
    for (;;) {
      // Past a repaired gap, the log's own copy of an event goes first (it was acknowledged; the resent one is a copy).
      const logged = progression.beyond.get(acked + 1);
      const e = logged ?? pending.get(acked + 1);
      if (!e) break;
      const refusal = admit(trial, progression.steps, this.study.config.phases, e, serverElapsed, this.boardOf);
      if (refusal) {
        // (An event the log already holds stays where it is; the chain just stops before it.)
        if (logged) break;
        dropRun();
        throw new HttpError(409, refusal.message, undefined, { seq: refusal.seq, expected_step: refusal.expected_step, acked_seq: intake.queued });
      }
      pending.delete(acked + 1);
      acked += 1;
      if (logged) {
        fromLog.push(e.seq);
        continue;
      }
      // Consent given: the session's sequence is leased now, and the record naming it follows the step_end.
      if (e.type === 'step_end' && e.payload.kind === 'consent' && e.payload.reason === 'done' && !trial.assigned) {
        let lease: { id: number; puzzles: string[]; round: number };
        if (!releaseAdmitting) this.admitting.set(row.id, new Promise<void>((r) => (releaseAdmitting = r)));
        try {
          lease = await this.leaseOnConsent(row.id);
        } catch (err) {
          dropRun();
          throw err instanceof HttpError ? new HttpError(err.status, err.message, err.issues, { ...err.details, seq: e.seq, study_full: true }) : err;
        }
        assigned = this.serverRecord({ type: 'sequence_assigned', session_id: row.id, payload: { sequence: lease.puzzles, sequence_id: lease.id, round: lease.round } });
        assignedAfter = e.seq;
        trial.assigned = true;
        progression.steps = expandSteps(this.study.config.phases, lease.puzzles);
      }
      ready.push(receiveClient(e, stamp));
    }
    /**
     * A participant who declines consent or fails eligibility ends here, when the progression says so (at the step_end
     * that ends the session: shared/log/rules.ts); their sequence goes back to the pool.
     */
    const ended = progression.state.ended === null ? trial.ended : null;
    if (pending.size === 0) this.pending.delete(row.id);
    progression.state = trial;
    progression.acked = acked;
    for (const seq of fromLog) progression.beyond.delete(seq);
    let records: readonly (LoggedClientEvent | LoggedServerEvent)[] = ready;
    if (assigned) {
      const at = ready.findIndex((r) => r.seq === assignedAfter) + 1;
      records = [...ready.slice(0, at), assigned, ...ready.slice(at)];
    }
    if (ready.length > 0) {
      intake.queued = acked;
      progression.records += records.length;
      // The step reached is the progression's (advanced by each step_end it took).
      const step = trial.step;
      const id = row.id;
      intake.tail = this.log.appendDurable(id, records, { acked, step, now }, gap);
      const tail = intake.tail;
      const written = async () => {
        this.markDurable(id, acked);
        if (ended) {
          const status = ended;
          await this.store.transaction(async (tx) => {
            await tx.setStatus(id, status, now);
            // (The row as it is now: the sequence may have been leased at consent in this very batch.)
            const lease = await tx.sequence((await tx.session(id))?.sequence_id ?? NO_SEQUENCE);
            if (lease?.session_id === id && lease.status === 'leased') await tx.setSequence(lease.id, 'free', null);
          });
          this.feed.emit('session', id, status);
        }
        this.feed.emit('appended', id, records);
      };
      // (Off the request's path: an error here, say a throwing feed listener, must not become an unhandled rejection.)
      intake.ended = tail
        .then(written, (err) => {
          if (err instanceof AfterSyncError) return written();
        })
        .catch(() => {});
    }
    } finally {
      if (releaseAdmitting) {
        this.admitting.delete(row.id);
        (releaseAdmitting as () => void)();
      }
    }
    const tail = intake.tail;
    const ending = intake.ended;
    if (!tail) {
      this.intake.delete(row.id);
      return acked;
    }
    try {
      await tail;
      // (A batch that ends the session answers once its status is stored.)
      await ending;
    } catch (err) {
      if (err instanceof AfterSyncError) {
        // The events are durable in the file (the acknowledgement's promise); only SQLite's copy of acked_seq lags, and
        // the next successful update (or start-up recovery) sets it. Retries are judged against `durableSeq`.
        this.markDurable(row.id, acked);
        if (this.intake.get(row.id) === intake) this.intake.delete(row.id);
        return acked;
      }
      // Nothing from the failed write on is on disk: forget what was queued, so retries start from the durable seq.
      if (this.intake.get(row.id) === intake) this.intake.delete(row.id);
      this.pending.delete(row.id);
      this.progressions.delete(row.id);
      if (err instanceof SessionRemovedError) throw new HttpError(410, 'this session was withdrawn');
      throw new HttpError(503, 'the server could not store these events; please send them again');
    }
    // Once the session's latest write is durable and nothing newer is queued, SQLite holds the truth again.
    if (this.intake.get(row.id) === intake && intake.tail === tail && !this.pending.has(row.id)) this.intake.delete(row.id);
    if (this.crashTests) await this.dieAt('events:written');
    return acked;
  }

  /**
   * An abandoned session that sends again becomes active again, unless what it held was given away: its sequence is
   * still its own, or was returned to the pool and nobody took it (it is leased to it again), or it never held one (a
   * start swept before consent: it leases at its consent as any other). Only a sequence another session now holds
   * makes it 410.
   */
  private async comeBack(row: SessionRow): Promise<void> {
    const back = await this.transactionOr503(async (tx) => {
      const now = await tx.session(row.id);
      if (!now || now.status !== 'abandoned') return true;
      if (now.sequence_id !== NO_SEQUENCE) {
        await tx.lockPool();
        const lease = await tx.sequence(now.sequence_id);
        if (!lease) return false;
        if (lease.session_id !== row.id) {
          if (lease.status !== 'free' || lease.session_id !== null) return false;
          await tx.leaseSequenceTo(lease.id, row.id);
        }
      }
      await tx.setStatus(row.id, 'active', this.clock());
      return true;
    });
    if (!back) throw new HttpError(410, 'this session expired after a long inactivity and its puzzles went to another participant; please contact the experimenter');
    this.feed.emit('session', row.id, 'active');
  }

  /**
   * The session's progression, folded from its log when not held (first event since start-up, or after idling) or
   * when the store says another process took events of this session since (`acked` differs, none in flight here), or
   * wrote records to it (a check, a hint: the log holds more records than this process has seen).
   * Returns once no lease at consent of this session is under way (`admitting`).
   */
  private async progressionFor(row: SessionRow): Promise<HeldProgression> {
    let loaded = false;
    for (;;) {
      const busy = this.admitting.get(row.id);
      if (busy) {
        await busy;
        continue;
      }
      const held = this.progressions.get(row.id);
      if (held && (loaded || this.intake.has(row.id))) return held;
      if (held && held.acked === Math.max(row.acked_seq, this.durableSeq.get(row.id) ?? 0)) {
        if (!this.log.count) return held;
        const records = await this.log.count(row.id);
        if (this.admitting.has(row.id)) continue;
        if (this.intake.has(row.id) || records === held.records) return this.progressions.get(row.id) ?? held;
      }
      const records = await this.log.read(row.id);
      const acked = loggedProgress(records).acked_seq;
      const beyond = new Map<number, LoggedClientEvent>();
      for (const r of records) if (r.origin === 'client' && r.seq > acked) beyond.set(r.seq, r);
      this.progressions.set(row.id, {
        steps: expandSteps(this.study.config.phases, await this.sequenceOf((await this.store.session(row.id)) ?? row)),
        state: foldProgression(records),
        acked,
        records: records.length,
        beyond,
      });
      loaded = true;
    }
  }

  /** Events held beyond a gap, over all sessions (bounded: MAX_SEQ_AHEAD per session, dropped when it goes idle). */
  heldEvents(): number {
    let n = 0;
    for (const p of this.pending.values()) n += p.size;
    return n;
  }

  /**
   * The puzzle a check or hint names, refused unless it is part of this session. Time caps are enforced here too:
   * the warmup's cap and a puzzle's optional time limit count from the server's start of the step, plus a grace
   * period; checked only when the server already knows the participant is on that step (a client can be ahead of its
   * acknowledged events).
   */
  private async sessionPuzzle(row: SessionRow, puzzleId: string, position: number | null): Promise<StudyPuzzle & { solution: string[] }> {
    if (row.status === 'withdrawn') throw new HttpError(410, 'this session was withdrawn');
    if (ENDED.has(row.status)) throw new HttpError(409, `this session has ended (${row.status}): nothing more is recorded`, undefined, { code: 'session_ended' });
    const puzzle = this.puzzlesById.get(puzzleId);
    if (!puzzle) throw new HttpError(404, `no puzzle '${puzzleId}' in this study`);
    const steps = expandSteps(this.study.config.phases, await this.sequenceOf(row));
    if (!steps.some((s) => s.puzzle_id === puzzleId)) throw new HttpError(403, `puzzle '${puzzleId}' is not part of this session`);
    // The current step's puzzle, or one of a step still ahead (the page can be ahead of its acknowledged events, never
    // behind): a step already ended (the warmup from a study puzzle, an earlier position) is refused.
    if (!steps.some((s) => s.index >= row.step && s.puzzle_id === puzzleId && s.position === position))
      throw new HttpError(409, `puzzle '${puzzleId}' at position ${position ?? 'none'} is not the puzzle of the session's current step`, undefined, { code: 'not_current_step' });
    const current = steps[row.step];
    if (current?.puzzle_id === puzzleId) {
      const cap = stepCapSeconds(this.study.config.phases.find((p) => p.id === current.phase_id), current);
      const elapsed = (this.clock() - row.step_started_at) / 1000;
      if (cap !== null && elapsed > cap + this.study.config.timing.grace_seconds) throw new HttpError(409, `the time for this puzzle (${cap} s) is over`, undefined, { code: 'time_over' });
    }
    return puzzle;
  }

  /** Check a board against the solution; answers once the check record is durable. */
  async check(row: SessionRow, req: CheckRequest): Promise<{ solved: boolean }> {
    const puzzle = await this.sessionPuzzle(row, req.puzzle_id, req.position);
    // The puzzle's kind judges the board (shared/puzzles/): whether it is the solution, and how many cells are wrong.
    const { solved, wrong } = kindOfRecord(puzzle).check(puzzle, req.rows);
    const record = this.serverRecord({ type: 'check', session_id: row.id, payload: { puzzle_id: req.puzzle_id, position: req.position, solved, wrong_cells: wrong } });
    await this.appendRecords(row.id, [record]);
    // The step may now end 'solved' (a progression folded later reads this record from the log).
    const held = this.progressions.get(row.id);
    if (held) noteServerRecord(held.state, record);
    return { solved };
  }

  /** The language a session speaks: 'en' in a study without languages, else its session_start's `lang` (read once). */
  private async languageOfSession(id: string): Promise<string> {
    if (!this.study.config.languages) return 'en';
    let lang = this.spoken.get(id);
    if (lang === undefined) {
      lang = languageOf(await this.log.read(id));
      this.spoken.set(id, lang);
    }
    return lang;
  }

  /** A hint computed by the engine from the participant's board; the solution stays on the server. Answers once its record is durable. */
  async hint(row: SessionRow, req: HintRequest): Promise<HintResponse> {
    const policy = this.study.config.hints.policy;
    if (policy === 'off') throw new HttpError(403, 'hints are turned off in this study', undefined, { code: 'hints_off' });
    const puzzle = await this.sessionPuzzle(row, req.puzzle_id, req.position);
    // The puzzle's kind finds the hint (server/puzzleHints.ts); the record keeps where it points and why.
    // In the session's language (its session_start's `lang`), the study's overrides of the hint catalogue on top.
    const lang = await this.languageOfSession(row.id);
    const found = hintFor(puzzle, req.rows, policy, req.eliminated, hintWords(lang, this.study.config.languages?.messages[lang]));
    if (found.record) await this.appendRecords(row.id, [this.serverRecord({ type: 'hint', session_id: row.id, payload: { puzzle_id: req.puzzle_id, ...found.record } })]);
    return { hint: found.hint };
  }

  /**
   * The completion code is handed out only once the server holds every event the client says it sent, and once the
   * session_complete record is durable (a second request racing the first waits for that record too).
   */
  async complete(row: SessionRow, lastSeq: number): Promise<{ code: string; redirect_url: string | null }> {
    if (row.status === 'withdrawn') throw new HttpError(410, 'this session was withdrawn');
    if (row.acked_seq < lastSeq) throw new HttpError(409, `the server holds events up to ${row.acked_seq}, not yet ${lastSeq}; send the rest first`);
    if (row.status === 'screened_out') {
      const screened = this.study.config.completion.screened_out_code;
      if (!screened) throw new HttpError(404, 'this study gives no code to participants who are not eligible');
      return { code: screened, redirect_url: null };
    }
    const steps = expandSteps(this.study.config.phases, await this.sequenceOf(row));
    const completeStep = steps.findIndex((s) => s.kind === 'complete');
    if (completeStep < 0 || row.step < completeStep) throw new HttpError(409, 'the study is not finished yet');
    const { code_mode, code_prefix } = this.study.config.completion;
    let code = code_mode === 'per_participant' ? newCompletionCode(code_prefix) : this.study.config.completion.code!;
    if (row.status !== 'complete') {
      const now = this.clock();
      const lease = await this.store.sequence(row.sequence_id);
      const record = this.serverRecord({ type: 'session_complete', session_id: row.id, payload: { code } });
      let recorded = false;
      let earlier = false;
      // Where the events live in the same database (PostgreSQL), the record commits with the completion: a crash
      // leaves both or neither. Otherwise the code goes out once the completion's commit and then its record are on
      // disk (fsync'd off the event loop); if either fails, the record is not in the file and the completion is undone below.
      // A completion of this session already under way in this process (its record perhaps not yet durable).
      const previous = this.completing.get(row.id);
      const written = this.transactionOr503(async (tx) => {
        // Racing requests (in this process or another on the same database) complete the session once: the first to
        // hold its row (FOR UPDATE until the commit); the others wait here, then find its code and hand it out too,
        // writing no second record.
        const current = await tx.sessionForUpdate(row.id);
        if (!current || current.status === 'withdrawing' || current.status === 'withdrawn') throw new HttpError(410, 'this session was withdrawn');
        await tx.setStatus(row.id, 'complete', now);
        const done = await tx.completionOf(row.id);
        if (done) {
          code = done.code;
          earlier = true;
          return;
        }
        await tx.setCompletion(row.id, code, now);
        await tx.setSequence(row.sequence_id, 'used', row.id);
        if (tx.appendLog) {
          await this.dieAt('complete:status');
          await tx.appendLog(row.id, [record]);
          recorded = true;
        }
      }, true).then(async ({ durable }) => {
        if (earlier) return previous;
        if (recorded) return this.noteAppended(row.id, [record]);
        await durable.catch(storeFailed);
        await this.dieAt('complete:status');
        await this.appendRecords(row.id, [record]);
      });
      this.completing.set(row.id, written);
      try {
        await written;
      } catch (err) {
        // (Where rows and record are one transaction, a failure left nothing to undo.)
        // (Nor after a refusal inside the transaction: the session is being withdrawn and nothing was changed.)
        if (this.crashes.has(err as object) || this.store.appendLog || (err instanceof HttpError && err.status === 410)) throw err;
        // The record is not in the log: undo the completion, so the client's retry completes it properly.
        await this.store.transaction(async (tx) => {
          if (!(await tx.session(row.id))) return;
          await tx.setStatus(row.id, row.status, now);
          await tx.clearCompletion(row.id);
          if (lease) await tx.setSequence(lease.id, lease.status, lease.session_id);
        });
        throw err;
      } finally {
        if (this.completing.get(row.id) === written) this.completing.delete(row.id);
      }
      await this.dieAt('complete:recorded');
      this.feed.emit('session', row.id, 'complete');
    } else {
      await this.completing.get(row.id);
      code = (await this.store.completionOf(row.id))?.code ?? code;
    }
    const redirect = this.study.config.completion.redirect_url;
    const panelId = (await this.store.panelOf(row.id))?.participant_id ?? '';
    return { code, redirect_url: redirect ? redirect.replaceAll('{code}', encodeURIComponent(code)).replaceAll('{panel_id}', encodeURIComponent(panelId)) : null };
  }

  /**
   * Mark sessions with no event for `timing.inactivity_minutes` as abandoned. A session that never finished its
   * first study puzzle gives its sequence back to the pool (if the config says so); it can still come back while
   * nobody else has taken that sequence.
   */
  async sweepInactive(): Promise<string[]> {
    const now = this.clock();
    const { inactivity_minutes, return_lease_if_no_puzzle_done } = this.study.config.timing;
    const swept: string[] = [];
    // Starts that never sent an event (a page opened by a crawler, a link preview, a script) return their lease soon.
    for (const row of await this.store.unusedSince(now - this.study.config.timing.unused_start_minutes * 60_000)) {
      if (this.intake.has(row.id) || this.pending.has(row.id)) continue;
      await this.store.transaction(async (tx) => {
        await tx.setStatus(row.id, 'abandoned', now);
        const lease = await tx.sequence(row.sequence_id);
        if (lease?.session_id === row.id && lease.status === 'leased') await tx.setSequence(lease.id, 'free', null);
      });
      this.feed.emit('session', row.id, 'abandoned');
      swept.push(row.id);
    }
    for (const row of await this.store.inactiveSince(now - inactivity_minutes * 60_000)) {
      const steps = expandSteps(this.study.config.phases, await this.sequenceOf(row));
      const firstPuzzle = steps.findIndex((s) => s.kind === 'puzzle');
      await this.store.transaction(async (tx) => {
        await tx.setStatus(row.id, 'abandoned', now);
        if (return_lease_if_no_puzzle_done && firstPuzzle >= 0 && row.step <= firstPuzzle) await tx.setSequence(row.sequence_id, 'free', null);
      });
      this.feed.emit('session', row.id, 'abandoned');
      swept.push(row.id);
    }
    // Idle sessions hold nothing in memory: their held events go (never acknowledged, the client still has them), and
    // their progression is folded again from the log if they come back.
    for (const id of [...this.pending.keys(), ...this.progressions.keys()]) {
      if (this.intake.has(id)) continue;
      const row = await this.store.session(id);
      if (!row || row.status !== 'active' || row.updated_at < now - IDLE_MS) {
        this.pending.delete(id);
        this.progressions.delete(id);
      }
    }
    return swept;
  }

  /**
   * Withdraw a session: its NDJSON file and SQLite row are deleted (SQLite overwrites freed pages, and the WAL is
   * truncated), its sequence goes back to the pool, and the audit table records only that a withdrawal happened.
   */
  async withdraw(sessionId: string, by: 'participant' | 'experimenter'): Promise<void> {
    const row = await this.store.session(sessionId);
    if (!row) throw new HttpError(404, `no session '${sessionId}'`);
    const now = this.clock();
    this.pending.delete(sessionId);
    this.progressions.delete(sessionId);
    // In three durable steps, so that a crash at any point leaves either the whole session or, at start-up, a
    // withdrawal to finish: the intent (and the audit row), then the file (unlinked, directory fsync'd), then the rows.
    await this.store.transaction(async (tx) => {
      await tx.setStatus(sessionId, 'withdrawing', now);
      await tx.audit(now, 'withdrawal', `by ${by}`);
    });
    await this.dieAt('withdraw:marked');
    await this.log.remove(sessionId);
    await this.dieAt('withdraw:unlinked');
    await this.finishWithdrawal(sessionId);
    await this.dieAt('withdraw:deleted');
    await this.store.scrub();
    this.feed.emit('session', sessionId, 'withdrawn');
  }

  /** The rows of a withdrawn session go, its sequence back to the pool (its file is gone already). */
  private finishWithdrawal(sessionId: string): Promise<void> {
    return this.store.transaction(async (tx) => {
      const row = await tx.session(sessionId);
      const seq = row && (await tx.sequence(row.sequence_id));
      if (seq && seq.session_id === sessionId) await tx.setSequence(seq.id, 'free', null);
      await tx.deleteSession(sessionId);
    });
  }

  /**
   * After a restart: cut torn lines, then make SQLite agree with the files (each file read and parsed once, by the
   * event log's recovery): acknowledged sequence and step, starts that never reached their file, completions whose
   * record never did. With a database holding the events (PostgreSQL) only an interrupted withdrawal is left to finish:
   * rows and records are committed together.
   */
  async recover(): Promise<string[]> {
    const rows = new Map((await this.store.sessions()).map((r) => [r.id, r]));
    const messages: string[] = [];
    // A withdrawal a crash interrupted: finish it (the file first, then the rows).
    for (const row of [...rows.values()].filter((r) => r.status === 'withdrawing')) {
      rows.delete(row.id);
      await this.log.remove(row.id);
      await this.finishWithdrawal(row.id);
      messages.push(`session ${row.id}: a withdrawal was interrupted by a crash; finished it (file and rows deleted)`);
    }
    if (!(this.log instanceof EventLog)) return messages;
    const orphans: string[] = [];
    const found: { row: SessionRow; records: number; completed: boolean; acked: number; step: number }[] = [];
    const reports = this.log.recover((id, records) => {
      const row = rows.get(id);
      if (!row) {
        orphans.push(id);
        return;
      }
      rows.delete(id);
      const { acked_seq: acked, step } = loggedProgress(records);
      found.push({ row, records: records.length, completed: records.some((r) => r.origin === 'server' && r.type === 'session_complete'), acked, step });
    });
    // A file without a row: its session was withdrawn (the row goes last) or never started; nothing may keep it.
    for (const id of orphans) {
      this.log.remove(id);
      messages.push(`session ${id}: a log file without a session row (a withdrawal or a failed start cut short by a crash); deleted it`);
    }
    for (const f of found) await this.recoverSession(f, messages);
    // Rows without a file at all.
    for (const row of rows.values()) await this.recoverSession({ row, records: 0, completed: false, acked: 0, step: 0 }, messages);
    const now = this.clock();
    const notes: string[] = [];
    for (const r of reports) {
      if (r.kind === 'torn') notes.push(`cut a torn last line (${r.cut_bytes} bytes) from ${r.file}`);
      else if (await this.store.session(r.session_id)) {
        await this.store.insertLogRepair({ session_id: r.session_id, at: now, bad_lines: r.bad_lines ?? [], kept_lines: r.lines, quarantine: r.quarantine ?? '' });
        notes.push(
          `WARNING: session ${r.session_id}: ${r.bad_lines?.length} damaged line(s) (${r.bad_lines?.join(', ')}) of ${r.file} do not parse; kept its ${r.lines} valid records, copied the original to ${r.quarantine}; the dashboard flags it`,
        );
      }
    }
    return [...notes, ...messages];
  }

  private async recoverSession(
    { row, records, completed, acked, step }: { row: SessionRow; records: number; completed: boolean; acked: number; step: number },
    messages: string[],
  ): Promise<void> {
    if (records === 0) {
      // A crash between the start's SQLite commit and its session_start record: the participant never got the
      // token (the answer goes out after the record), so the start did not happen; give the sequence back.
      await this.store.transaction(async (tx) => {
        const seq = await tx.sequence(row.sequence_id);
        if (seq && seq.session_id === row.id) await tx.setSequence(seq.id, 'free', null);
        await tx.deleteSession(row.id);
      });
      await this.log.remove(row.id);
      messages.push(`session ${row.id}: its start never reached the log (a crash); removed it and returned sequence ${row.sequence_id}`);
      return;
    }
    if (row.status === 'complete' && !completed) {
      // A crash between the completion's commit and its record: the code never went out (it waits for the record),
      // so the session is not complete; the participant's retry completes it again.
      await this.store.transaction(async (tx) => {
        await tx.setStatus(row.id, 'active', this.clock());
        await tx.clearCompletion(row.id);
        const seq = await tx.sequence(row.sequence_id);
        if (seq && seq.session_id === row.id) await tx.setSequence(seq.id, 'leased', row.id);
      });
      messages.push(`session ${row.id}: marked complete, but its completion never reached the log (a crash); active again`);
    }
    if (acked !== row.acked_seq || step !== row.step) {
      await this.store.setProgress(row.id, acked, step);
      messages.push(`session ${row.id}: SQLite said seq ${row.acked_seq}/step ${row.step}, the log says ${acked}/${step}; using the log`);
    }
  }
}

/** The language stamped on a session's start ('en' before studies had languages). */
export function languageOf(records: readonly LoggedEvent[]): string {
  const start = records.find((r) => r.type === 'session_start');
  return start && start.type === 'session_start' && start.payload.lang ? start.payload.lang : 'en';
}
