// One session's NDJSON log, read with the log's one reader (shared/log): client events in sequence order, server events, marks.
import type { LoggedClientEvent, LoggedServerEvent } from '../schema/event.ts';
import type { SessionFlag } from '../schema/session.ts';
import { parseRecord, type ParseOptions } from '../log/record.ts';
import { jsonProblem } from '../jsonError.ts';

export { isValidMoveRecord, isValidStepRecord, readFieldsError, type ParseOptions } from '../log/record.ts';

/** A session's records, ready for the signal functions. */
export interface SessionLog {
  session_id: string;
  /** Client events, ordered by their sequence number, duplicates (same seq) dropped. */
  client: LoggedClientEvent[];
  /** Server events (session_start, sequence_assigned, check, hint, session_mark, session_complete) in file order. */
  server: LoggedServerEvent[];
  /** The experimenter's mark on the session ('pilot', 'test', 'excluded'): the last `session_mark` record's, if any. */
  marks: SessionFlag[];
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

/**
 * Build a SessionLog from parsed records. Each record is validated with the event schemas (errors name the line
 * and the field) but kept as written, so the server's stamps stay. `lineOffset` numbers lines for messages.
 */
export function sessionFromRecords(records: readonly unknown[], file = '<log>', options: ParseOptions = {}): SessionLog {
  const client: LoggedClientEvent[] = [];
  const server: LoggedServerEvent[] = [];
  let mark: SessionFlag | null = null;
  let unknown = 0;
  let sessionId: string | null = null;
  records.forEach((raw, i) => {
    const line = i + 1;
    const parsed = parseRecord(raw, options);
    if (parsed.kind === 'error') throw new LogFormatError(file, line, parsed.message);
    const r = parsed.kind === 'event' ? parsed.event : (parsed.record as { session_id: string });
    if (sessionId === null) sessionId = r.session_id;
    else if (r.session_id !== sessionId) throw new LogFormatError(file, line, `session_id: '${r.session_id}' differs from the file's '${sessionId}'`);
    if (parsed.kind === 'unknown') {
      unknown++;
      return;
    }
    const e = parsed.event;
    if (e.origin === 'client') client.push(e);
    else {
      server.push(e);
      if (e.type === 'session_mark') mark = e.payload.mark;
    }
  });
  if (sessionId === null) throw new LogFormatError(file, 0, 'the log is empty');
  client.sort((a, b) => a.seq - b.seq);
  const dedup = client.filter((e, i) => i === 0 || e.seq !== client[i - 1].seq);
  return { session_id: sessionId, client: dedup, server, marks: mark ? [mark] : [], unknown };
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
          throw new LogFormatError(file, line, jsonProblem(err, l, { line: false }));
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
