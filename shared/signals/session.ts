// One session's NDJSON log, parsed and validated: client events in sequence order, server events, marks.
import { ClientEvent, ServerEvent, T_MONO_MAX, T_WALL_MAX, T_WALL_MIN, type LoggedClientEvent, type LoggedServerEvent } from '../schema/event.ts';
import { describeIssues } from '../schema/config.ts';
import { Move } from '../schema/move.ts';

/** A session's records, ready for the signal functions. */
export interface SessionLog {
  session_id: string;
  /** Client events, ordered by their sequence number, duplicates (same seq) dropped. */
  client: LoggedClientEvent[];
  /** Server events (session_start, check, hint, session_complete) in file order. */
  server: LoggedServerEvent[];
  /** Marks an experimenter put on the session ('pilot', 'test', 'excluded'), from `session_mark` server records. */
  marks: string[];
  /** Server records of types this version does not know (kept, ignored by the signals). */
  unknown: number;
}

export class LogFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
  }
}

const MARKS = new Set(['pilot', 'test', 'excluded']);

/** Marks from a tolerant reading of a mark record: `{type:'session_mark', payload:{mark}}` or `{payload:{pilot:true}}`. */
function marksOf(record: Record<string, unknown>): string[] {
  const payload = (record.payload ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const key of ['mark', 'status', 'label']) {
    const v = payload[key];
    if (typeof v === 'string' && MARKS.has(v.toLowerCase())) out.push(v.toLowerCase());
  }
  for (const key of MARKS) if (payload[key] === true) out.push(key);
  return out;
}

const ID = /^[A-Za-z0-9_-]+$/;
const isId = (v: unknown): boolean => typeof v === 'string' && v.length >= 1 && v.length <= 64 && ID.test(v);
const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const isNum = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const SOURCES = new Set(['mouse', 'touch', 'keyboard', 'system']);
const CELL_MOVES = new Set(['fill', 'cross', 'clear']);
const BARE_MOVES = new Set(['undo', 'reset', 'hint', 'submit', 'skip']);
const PAINT = new Set(['filled', 'crossed', 'unknown']);

/** The client envelope and the server's stamps of a logged client record, as zod's Envelope checks them (stricter: the stamps must be there). */
function isValidEnvelope(r: Record<string, unknown>): boolean {
  if (!isId(r.session_id) || !isInt(r.seq, 1) || !isInt(r.step, 0) || !isId(r.phase)) return false;
  if (r.puzzle_id !== null && !isId(r.puzzle_id)) return false;
  if (r.position !== null && !isInt(r.position, 1)) return false;
  if (!isNum(r.t_mono) || (r.t_mono as number) < 0 || (r.t_mono as number) > T_MONO_MAX || !isNum(r.t_wall) || (r.t_wall as number) < T_WALL_MIN || (r.t_wall as number) > T_WALL_MAX) return false;
  if (typeof r.source !== 'string' || !SOURCES.has(r.source)) return false;
  return isNum(r.t_server) && typeof r.config_hash === 'string' && typeof r.app_version === 'string';
}

const STEP_END_REASONS = new Set(['done', 'solved', 'skipped', 'timeout', 'declined', 'screened_out']);

/**
 * The same kind of fast path for `step_start` and `step_end` records (the next most frequent, two per step): true
 * only if zod's schema for them accepts the record; false sends it to zod.
 */
export function isValidStepRecord(r: Record<string, unknown>): boolean {
  if ((r.type !== 'step_start' && r.type !== 'step_end') || r.origin !== 'client' || !isValidEnvelope(r)) return false;
  const p = r.payload;
  if (!isObject(p) || typeof p.kind !== 'string' || p.kind.length > 32) return false;
  return r.type === 'step_start' || (typeof p.reason === 'string' && STEP_END_REASONS.has(p.reason));
}

/**
 * A hand-written test for logged `move` records (over 80% of a log): true only if the record satisfies
 * everything the zod schema (ClientEvent's move variant with the server's stamps) checks, so zod need not
 * run. It may be stricter than zod (e.g. stroke cells must be exact pairs), never looser; when it says
 * false the record goes to zod, which accepts it or produces the error message, so errors and accepted
 * records are the same as with zod alone.
 */
export function isValidMoveRecord(r: Record<string, unknown>): boolean {
  if (r.type !== 'move' || r.origin !== 'client' || !isValidEnvelope(r)) return false;
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
  return false;
}

const isNullOr = (v: unknown, test: (v: unknown) => boolean): boolean => v === null || test(v);
const isStr = (v: unknown): boolean => typeof v === 'string';

/**
 * Without full validation (--no-validate), the fields the analysis reads are still checked: the envelope (seq, step,
 * position, puzzle_id, both clocks, source) and, by type, the payload fields the signals use. A move gets the same
 * exact check as with validation (isValidMoveRecord, zod for the message); it costs no more than a weaker one.
 * Returns a message naming the field, or null when the record is usable.
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
  return null;
}

export interface ParseOptions {
  /** Validate every record with the zod schemas (default true). */
  validate?: boolean;
}

/**
 * Build a SessionLog from parsed records. Each record is validated with the event schemas (errors name the line
 * and the field) but kept as written, so the server's stamps stay. `lineOffset` numbers lines for messages.
 */
export function sessionFromRecords(records: readonly unknown[], file = '<log>', options: ParseOptions = {}): SessionLog {
  const validate = options.validate ?? true;
  const client: LoggedClientEvent[] = [];
  const server: LoggedServerEvent[] = [];
  const marks: string[] = [];
  let unknown = 0;
  let sessionId: string | null = null;
  records.forEach((raw, i) => {
    const line = i + 1;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new LogFormatError(file, line, 'a record must be a JSON object');
    const r = raw as Record<string, unknown>;
    if (typeof r.session_id !== 'string') throw new LogFormatError(file, line, 'session_id: missing');
    if (sessionId === null) sessionId = r.session_id;
    else if (r.session_id !== sessionId) throw new LogFormatError(file, line, `session_id: '${r.session_id}' differs from the file's '${sessionId}'`);
    if (typeof r.t_server !== 'number') throw new LogFormatError(file, line, 't_server: missing or not a number');
    if (r.origin === 'client') {
      if (validate && !isValidMoveRecord(r) && !isValidStepRecord(r)) {
        const ok = ClientEvent.safeParse(r);
        if (!ok.success) throw new LogFormatError(file, line, `client event '${String(r.type)}': ${describeIssues(ok.error.issues).replace(/\n/g, '; ')}`);
      } else if (!validate) {
        const bad = readFieldsError(r);
        if (bad) throw new LogFormatError(file, line, `client event '${String(r.type)}': ${bad}`);
      }
      client.push(r as unknown as LoggedClientEvent);
    } else if (r.origin === 'server') {
      const known = ['session_start', 'sequence_assigned', 'check', 'hint', 'session_complete'].includes(String(r.type));
      if (!known) {
        unknown++;
        marks.push(...marksOf(r));
        return;
      }
      if (validate) {
        const ok = ServerEvent.safeParse(r);
        if (!ok.success) throw new LogFormatError(file, line, `server event '${String(r.type)}': ${describeIssues(ok.error.issues).replace(/\n/g, '; ')}`);
      } else {
        const bad = readFieldsError(r);
        if (bad) throw new LogFormatError(file, line, `server event '${String(r.type)}': ${bad}`);
      }
      server.push(r as unknown as LoggedServerEvent);
    } else throw new LogFormatError(file, line, `origin: expected 'client' or 'server', got ${JSON.stringify(r.origin)}`);
  });
  if (sessionId === null) throw new LogFormatError(file, 0, 'the log is empty');
  client.sort((a, b) => a.seq - b.seq);
  const dedup = client.filter((e, i) => i === 0 || e.seq !== client[i - 1].seq);
  return { session_id: sessionId, client: dedup, server, marks: [...new Set(marks)], unknown };
}

/** Parse one session's NDJSON text (blank lines allowed); errors name the file, the line and the field. */
export function parseSessionNdjson(text: string, file = '<log>', options: ParseOptions = {}): SessionLog {
  const records: unknown[] = [];
  const lineNumbers: number[] = [];
  let start = 0;
  let line = 0;
  while (start < text.length) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = text.length;
    line++;
    if (nl > start) {
      const l = text.slice(start, nl);
      if (l.trim() !== '') {
        try {
          records.push(JSON.parse(l));
        } catch (err) {
          throw new LogFormatError(file, line, `not valid JSON (${(err as Error).message})`);
        }
        lineNumbers.push(line);
      }
    }
    start = nl + 1;
  }
  try {
    return sessionFromRecords(records, file, options);
  } catch (err) {
    if (err instanceof LogFormatError && err.line > 0) throw new LogFormatError(file, lineNumbers[err.line - 1], err.message.slice(err.message.indexOf(': ') + 2));
    throw err;
  }
}
