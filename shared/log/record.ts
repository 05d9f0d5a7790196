// The one reader of a logged NDJSON record: `parseRecord` turns a parsed JSON value into a typed `LoggedEvent`.
/*
 * Every fold over a session's log (resume, the intake's progression, the dashboard summary and replay, the exports
 * and the analysis) reads records through this function, so all of them see the same typed record and the same
 * errors. The zod schemas in shared/schema/event.ts decide what a record is; this file adds only speed and stamps:
 *
 * - Validation. A client record is checked against `ClientEvent`, a server record against `ServerEvent`, and both must
 *   carry the server's receive time (`t_server`). The record is returned as written (zod's output would drop the
 *   stamps, which the event schemas do not name), so the server's stamps stay.
 * - The fast path. Moves are over 80% of a log, and zod costs about ten times a hand-written test on them. (The
 *   other frequent records, client and server, have their own: isValidStepRecord, isValidClientRecordFast,
 *   isValidServerRecordFast; rare ones go to zod.)
 *   `isValidMoveRecord` accepts a move record only if it satisfies everything the schema checks (it may be stricter,
 *   never looser: a test generates its cases from the schema, so a tightened schema cannot leave it behind); when it
 *   says no, zod runs and accepts the record or gives the message. Accepted records and messages are therefore the
 *   same as with zod alone.
 * - Without validation (`validate: false`, the analysis's --no-validate), the fields the folds read are still
 *   checked, by type (`readFieldsError`), so a fold never meets a value of the wrong type.
 * - A server record of a type this version does not know is not an error: the log may be newer than the reader. It
 *   comes back as `unknown` and the folds skip it.
 *
 * What it cannot do: judge a record against its session (sequence numbers, steps, the study's config). That is the
 * progression's work (shared/study/progression.ts), at intake.
 */
import { ClientEvent, MAX_ANSWER_TEXT, MAX_CHOICES, MAX_GUESSING_TEXT, MAX_OPTION_TEXT, ServerEvent, T_MONO_MAX, T_WALL_MAX, T_WALL_MIN, type LoggedEvent } from '../schema/event.ts';
import { describeIssues } from '../schema/phase.ts';
import { Move } from '../schema/move.ts';
import { SessionFlag } from '../schema/session.ts';

export interface ParseOptions {
  /** Validate every record with the zod schemas (default true); false checks only the fields the folds read. */
  validate?: boolean;
}

export type ParsedRecord =
  | { kind: 'event'; event: LoggedEvent }
  /** A server record of a type this version does not know (kept in the file, skipped by the folds). */
  | { kind: 'unknown'; type: string; record: Record<string, unknown> }
  | { kind: 'error'; message: string };

const SERVER_TYPES: ReadonlySet<string> = new Set(ServerEvent.options.map((o) => o.shape.type.value));

const ID = /^[A-Za-z0-9_-]+$/;
/** Ids isId accepted lately: a log repeats the same few (its session, phases, puzzles) on every record. */
const knownIds = new Set<string>();
const isId = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  if (knownIds.has(v)) return true;
  if (v.length < 1 || v.length > 64 || !ID.test(v)) return false;
  if (knownIds.size >= 256) knownIds.clear();
  knownIds.add(v);
  return true;
};
const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const isNum = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNullOr = (v: unknown, test: (v: unknown) => boolean): boolean => v === null || test(v);
const isStr = (v: unknown): boolean => typeof v === 'string';
const SOURCES = new Set(['mouse', 'touch', 'keyboard', 'system']);
const CELL_MOVES = new Set(['fill', 'cross', 'clear']);
const BARE_MOVES = new Set(['undo', 'reset', 'hint', 'submit', 'skip']);
/** Sudoku's moves: a cell and a digit (shared/schema/move.ts). */
const DIGIT_MOVES = new Set(['set_digit', 'pencil', 'reveal_digit']);
const PAINT = new Set(['filled', 'crossed', 'unknown']);
const FLAGS: ReadonlySet<unknown> = new Set(SessionFlag.options);

/**
 * A hand-written test for logged `move` records: true only if the record satisfies everything the zod schema
 * (ClientEvent's move variant with the server's stamps) checks, so zod need not run. It may be stricter than zod
 * (e.g. stroke cells must be exact pairs), never looser.
 */
export function isValidMoveRecord(r: Record<string, unknown>): boolean {
  if (r.origin !== 'client') return false;
  if (!isNum(r.t_server) || typeof r.config_hash !== 'string' || typeof r.app_version !== 'string') return false;
  return isValidMoveEvent(r);
}

/** The client envelope as zod's Envelope checks it (ids, seq, step, position, both clocks, source). */
function isValidEnvelope(r: Record<string, unknown>): boolean {
  if (!isId(r.session_id) || !isInt(r.seq, 1) || !isInt(r.step, 0) || !isId(r.phase)) return false;
  if (r.puzzle_id !== null && !isId(r.puzzle_id)) return false;
  if (r.position !== null && !isInt(r.position, 1)) return false;
  if (!isNum(r.t_mono) || (r.t_mono as number) < 0 || (r.t_mono as number) > T_MONO_MAX || !isNum(r.t_wall) || (r.t_wall as number) < T_WALL_MIN || (r.t_wall as number) > T_WALL_MAX) return false;
  return typeof r.source === 'string' && SOURCES.has(r.source);
}

/** The reasons a step may end with, read off the schema (so a tightened enum tightens the fast path too). */
const STEP_END_REASONS: ReadonlySet<unknown> = new Set(
  (ClientEvent.options.find((o) => o.shape.type.value === 'step_end')!.shape.payload as unknown as { shape: { reason: { options: readonly string[] } } }).shape.reason.options,
);

/**
 * The same kind of test for logged `step_start` and `step_end` records (the next most frequent, two per step): true
 * only if zod's schema for them accepts the record; false sends it to zod.
 */
export function isValidStepRecord(r: Record<string, unknown>): boolean {
  if ((r.type !== 'step_start' && r.type !== 'step_end') || r.origin !== 'client') return false;
  if (!isNum(r.t_server) || typeof r.config_hash !== 'string' || typeof r.app_version !== 'string' || !isValidEnvelope(r)) return false;
  const p = r.payload;
  if (!isObject(p) || typeof p.kind !== 'string' || p.kind.length > 32) return false;
  return r.type === 'step_start' || STEP_END_REASONS.has(p.reason);
}

const isStrMax = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;
const isDifficulty = (v: unknown): boolean => v === null || isInt(v, 1, 5);
const ANSWER_KEY = /^[A-Za-z0-9_-]+$/;
/** A survey answer as SurveyValue allows it: a number, a text, a list of option texts, or null. */
function isSurveyValue(v: unknown): boolean {
  if (v === null || isNum(v)) return true;
  if (typeof v === 'string') return v.length <= MAX_ANSWER_TEXT;
  if (!Array.isArray(v) || v.length > MAX_CHOICES) return false;
  for (const o of v) if (!isStrMax(o, MAX_OPTION_TEXT)) return false;
  return true;
}
function isAnswers(v: unknown): boolean {
  if (!isObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) return false;
    if (k.length < 1 || k.length > 80 || !ANSWER_KEY.test(k) || !isSurveyValue(v[k])) return false;
  }
  return true;
}

/** Payload tests of the other frequent client records, each accepting only what its zod schema accepts. */
const CLIENT_PAYLOADS: Readonly<Record<string, (p: Record<string, unknown>) => boolean>> = {
  submit_result: (p) => typeof p.solved === 'boolean',
  rating: (p) => isDifficulty(p.difficulty) && isStrMax(p.guessing, MAX_GUESSING_TEXT),
  rating_revise: (p) => isId(p.rated_puzzle_id) && isDifficulty(p.from) && isDifficulty(p.to),
  consent: (p) => typeof p.agreed === 'boolean',
  hint_shown: (p) => isInt(p.row, 0) && isInt(p.col, 0) && isStrMax(p.explanation, 2_000),
  client_start: (p) => isStrMax(p.user_agent, 1_000) && isNum(p.width) && isNum(p.height) && isStrMax(p.page_id, 64),
  survey_submit: (p) => isId(p.survey_id) && isAnswers(p.answers),
};

/**
 * The same kind of test for the other frequent client records (submit_result, rating, rating_revise, consent,
 * hint_shown, client_start, survey_submit): true only if zod's schema for the record's type accepts it (it may be
 * stricter, never looser); false sends it to zod, which accepts it or gives the message.
 */
export function isValidClientRecordFast(r: Record<string, unknown>): boolean {
  if (r.origin !== 'client' || typeof r.type !== 'string' || !Object.hasOwn(CLIENT_PAYLOADS, r.type)) return false;
  if (!isNum(r.t_server) || typeof r.config_hash !== 'string' || typeof r.app_version !== 'string' || !isValidEnvelope(r)) return false;
  const p = r.payload;
  return isObject(p) && CLIENT_PAYLOADS[r.type](p);
}

const isIdList = (v: unknown): boolean => Array.isArray(v) && v.every(isId);
/** Payload tests of the server's own frequent records, each accepting only what ServerEvent accepts. */
const SERVER_PAYLOADS: Readonly<Record<string, (p: Record<string, unknown>) => boolean>> = {
  check: (p) => isId(p.puzzle_id) && (p.position === null || isInt(p.position, Number.MIN_SAFE_INTEGER)) && typeof p.solved === 'boolean' && isInt(p.wrong_cells, 0),
  hint: (p) => isId(p.puzzle_id) && isInt(p.row, Number.MIN_SAFE_INTEGER) && isInt(p.col, Number.MIN_SAFE_INTEGER) && isStr(p.kind) && isStr(p.reasoning),
  session_start: (p) => isStr(p.mode) && isIdList(p.sequence) && isInt(p.sequence_id, Number.MIN_SAFE_INTEGER) && isInt(p.round, Number.MIN_SAFE_INTEGER),
  session_complete: (p) => isStr(p.code),
};

/** The same for the server's check, hint, session_start and session_complete records: true only if ServerEvent accepts the record. */
export function isValidServerRecordFast(r: Record<string, unknown>): boolean {
  if (r.origin !== 'server' || typeof r.type !== 'string' || !Object.hasOwn(SERVER_PAYLOADS, r.type) || !isNum(r.t_server) || !isId(r.session_id)) return false;
  const p = r.payload;
  return isObject(p) && SERVER_PAYLOADS[r.type](p);
}

/** The same test for a move event before the server stamps it (`stampClient` uses it): the envelope and the move. */
export function isValidMoveEvent(r: Record<string, unknown>): boolean {
  if (r.type !== 'move' || !isValidEnvelope(r)) return false;
  const payload = r.payload;
  if (!isObject(payload)) return false;
  const m = payload.move;
  if (!isObject(m) || typeof m.type !== 'string') return false;
  if (CELL_MOVES.has(m.type)) return isInt(m.row, 0, 99) && isInt(m.col, 0, 99);
  if (BARE_MOVES.has(m.type)) return true;
  if (m.type === 'stroke') {
    if (typeof m.state !== 'string' || !PAINT.has(m.state)) return false;
    const cells = m.cells;
    if (!Array.isArray(cells) || cells.length < 1 || cells.length > 100) return false;
    for (const c of cells) if (!Array.isArray(c) || c.length !== 2 || !isInt(c[0], 0, 99) || !isInt(c[1], 0, 99)) return false;
    const ms = m.cell_ms;
    if (ms === undefined) return true;
    if (!Array.isArray(ms) || ms.length !== cells.length) return false;
    for (let i = 0; i < ms.length; i++) if (!isNum(ms[i]) || ms[i] > 0 || ms[i] < -600_000 || (i > 0 && ms[i] < ms[i - 1])) return false;
    return true;
  }
  if (m.type === 'reveal') return isInt(m.row, 0, 99) && isInt(m.col, 0, 99) && (m.state === 'filled' || m.state === 'crossed');
  if (DIGIT_MOVES.has(m.type)) return isInt(m.row, 0, 99) && isInt(m.col, 0, 99) && isInt(m.digit, 1, 35);
  return false;
}

/**
 * Without full validation, the fields the folds read are still checked: the envelope (seq, step, position,
 * puzzle_id, both clocks, source) and, by type, the payload fields the folds use. A move gets the same exact check as
 * with validation (isValidMoveRecord, zod for the message); it costs no more than a weaker one. Returns a message
 * naming the field, or null when the record is usable.
 */
export function readFieldsError(r: Record<string, unknown>): string | null {
  if (r.origin === 'client') {
    if (!isInt(r.seq, 1)) return 'seq: expected an integer >= 1';
    if (!isInt(r.step, 0)) return 'step: expected an integer >= 0';
    if (typeof r.type !== 'string') return 'type: expected a string';
    if (!isNullOr(r.position, (v) => isInt(v, 1))) return 'position: expected null or an integer >= 1';
    if (!isNullOr(r.puzzle_id, isStr)) return 'puzzle_id: expected null or a string';
    if (!isNum(r.t_mono)) return 't_mono: expected a number';
    if (!isNum(r.t_wall)) return 't_wall: expected a number';
    if (typeof r.source !== 'string' || !SOURCES.has(r.source)) return `source: expected one of ${[...SOURCES].join(', ')}`;
    const p = r.payload;
    if (!isObject(p)) return 'payload: expected an object';
    switch (r.type) {
      case 'move': {
        if (isValidMoveRecord(r)) return null;
        const ok = Move.safeParse(p.move);
        return ok.success ? null : `payload.move: ${describeIssues(ok.error.issues).replace(/\n/g, '; ')}`;
      }
      case 'step_start':
        return isStr(p.kind) ? null : 'payload.kind: expected a string';
      case 'step_end':
        return isStr(p.kind) && isStr(p.reason) ? null : 'payload.kind, payload.reason: expected strings';
      case 'submit_result':
        return typeof p.solved === 'boolean' ? null : 'payload.solved: expected a boolean';
      case 'rating':
        if (!isNullOr(p.difficulty, (v) => isInt(v, 1, 5))) return 'payload.difficulty: expected null or an integer 1..5';
        return isNullOr(p.guessing, isStr) ? null : 'payload.guessing: expected null or a string';
      case 'rating_revise':
        return isStr(p.rated_puzzle_id) && isInt(p.to, 1, 5) ? null : 'payload.rated_puzzle_id, payload.to: expected a string and an integer 1..5';
      case 'survey_submit':
        return isStr(p.survey_id) && isObject(p.answers) ? null : 'payload.survey_id, payload.answers: expected a string and an object';
      case 'consent':
        return typeof p.agreed === 'boolean' ? null : 'payload.agreed: expected a boolean';
      default:
        return null;
    }
  }
  const p = r.payload;
  if (!isObject(p)) return 'payload: expected an object';
  if (r.type === 'check') {
    if (!isStr(p.puzzle_id)) return 'payload.puzzle_id: expected a string';
    if (!isNullOr(p.position, (v) => isInt(v, 1))) return 'payload.position: expected null or an integer >= 1';
    return typeof p.solved === 'boolean' ? null : 'payload.solved: expected a boolean';
  }
  if (r.type === 'hint') return isStr(p.puzzle_id) ? null : 'payload.puzzle_id: expected a string';
  if (r.type === 'session_mark') return p.mark === null || FLAGS.has(p.mark) ? null : `payload.mark: expected null or one of ${SessionFlag.options.join(', ')}`;
  return null;
}

const issues = (error: { issues: Parameters<typeof describeIssues>[0] }) => describeIssues(error.issues).replace(/\n/g, '; ');

/**
 * Read one logged record (a parsed JSON value). An `event` is a valid `LoggedEvent` (the object as written, stamps
 * included); an `error` names the field. Session-level checks (one session per file, sequence order) are the caller's.
 */
export function parseRecord(raw: unknown, options: ParseOptions = {}): ParsedRecord {
  const validate = options.validate ?? true;
  if (!isObject(raw)) return { kind: 'error', message: 'a record must be a JSON object' };
  const r = raw;
  if (typeof r.session_id !== 'string') return { kind: 'error', message: 'session_id: missing' };
  if (typeof r.t_server !== 'number') return { kind: 'error', message: 't_server: missing or not a number' };
  if (r.origin === 'client') {
    if (validate) {
      if (!isValidMoveRecord(r) && !isValidStepRecord(r) && !isValidClientRecordFast(r)) {
        const ok = ClientEvent.safeParse(r);
        if (!ok.success) return { kind: 'error', message: `client event '${String(r.type)}': ${issues(ok.error)}` };
      }
    } else {
      const bad = readFieldsError(r);
      if (bad) return { kind: 'error', message: `client event '${String(r.type)}': ${bad}` };
    }
    return { kind: 'event', event: r as unknown as LoggedEvent };
  }
  if (r.origin === 'server') {
    if (!SERVER_TYPES.has(String(r.type))) return { kind: 'unknown', type: String(r.type), record: r };
    if (validate && !isValidServerRecordFast(r)) {
      const ok = ServerEvent.safeParse(r);
      if (!ok.success) return { kind: 'error', message: `server event '${String(r.type)}': ${issues(ok.error)}` };
    } else {
      const bad = readFieldsError(r);
      if (bad) return { kind: 'error', message: `server event '${String(r.type)}': ${bad}` };
    }
    return { kind: 'event', event: r as unknown as LoggedEvent };
  }
  return { kind: 'error', message: `origin: expected 'client' or 'server', got ${JSON.stringify(r.origin)}` };
}

/**
 * The complete lines of a session log's text (NDJSON). An unterminated last line is a write still under way, or one a
 * crash tore (the server cuts it at start-up), not a record: it is left out. Empty lines are skipped.
 */
export function completeLines(text: string): string[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l.length > 0);
}
