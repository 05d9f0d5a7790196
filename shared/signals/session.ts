// One session's NDJSON log, parsed and validated: client events in sequence order, server events, marks.
import { ClientEvent, ServerEvent, type LoggedClientEvent, type LoggedServerEvent } from '../schema/event.ts';
import { describeIssues } from '../schema/config.ts';

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

/**
 * A hand-written test for logged `move` records (over 80% of a log): true only if the record satisfies
 * everything the zod schema (ClientEvent's move variant with the server's stamps) checks, so zod need not
 * run. It may be stricter than zod (e.g. stroke cells must be exact pairs), never looser; when it says
 * false the record goes to zod, which accepts it or produces the error message, so errors and accepted
 * records are the same as with zod alone.
 */
export function isValidMoveRecord(r: Record<string, unknown>): boolean {
  if (r.type !== 'move' || r.origin !== 'client') return false;
  if (!isId(r.session_id) || !isInt(r.seq, 1) || !isInt(r.step, 0) || !isId(r.phase)) return false;
  if (r.puzzle_id !== null && !isId(r.puzzle_id)) return false;
  if (r.position !== null && !isInt(r.position, 1)) return false;
  if (!isNum(r.t_mono) || (r.t_mono as number) < 0 || !isNum(r.t_wall) || (r.t_wall as number) < 0) return false;
  if (typeof r.source !== 'string' || !SOURCES.has(r.source)) return false;
  if (!isNum(r.t_server) || typeof r.config_hash !== 'string' || typeof r.app_version !== 'string') return false;
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
      if (validate && !isValidMoveRecord(r)) {
        const ok = ClientEvent.safeParse(r);
        if (!ok.success) throw new LogFormatError(file, line, `client event '${String(r.type)}': ${describeIssues(ok.error.issues).replace(/\n/g, '; ')}`);
      } else if (typeof r.seq !== 'number' || typeof r.type !== 'string' || typeof r.t_mono !== 'number' || typeof r.t_wall !== 'number')
        throw new LogFormatError(file, line, 'client event: seq, type, t_mono and t_wall are required');
      client.push(r as unknown as LoggedClientEvent);
    } else if (r.origin === 'server') {
      const known = ['session_start', 'check', 'hint', 'session_complete'].includes(String(r.type));
      if (!known) {
        unknown++;
        marks.push(...marksOf(r));
        return;
      }
      if (validate) {
        const ok = ServerEvent.safeParse(r);
        if (!ok.success) throw new LogFormatError(file, line, `server event '${String(r.type)}': ${describeIssues(ok.error.issues).replace(/\n/g, '; ')}`);
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
