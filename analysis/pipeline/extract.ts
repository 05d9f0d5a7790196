// Extraction: session logs -> participant rows, attempt rows, columnar gaps and answers (one thread; workers.ts spreads it over several).
/*
 * The per-session work (read, JSON.parse, zod validation, replaying the boards) is independent between
 * sessions, so a large study is split into chunks of files handled by worker threads (one per core, see
 * workers.ts), each running extractFilesInline, and the chunks are merged in file order (mergeExtracts). Gaps are
 * kept in columns (typed arrays, transferred without copying) because a 10,000-participant study has over a
 * million of them; everything else comes back as plain rows. Small studies (or parallel: 1) run inline, in
 * the same order, so the output is identical either way.
 */
import { readFileSync } from 'node:fs';
import { csvCell } from '../csv.ts';
import type { SurveyItem } from '../../shared/schema/config.ts';
import {
  sessionSignals,
  sessionTrajectory,
  sessionStrategies,
  TRAJECTORY_COLUMNS,
  type StrategyRow,
  type TrajectoryRow,
  participantRow,
  answerRows,
  parseSessionNdjson,
  type AttemptRow,
  type AnswerRow,
  type ParticipantRow,
  type SessionLog,
  type SignalPuzzle,
  type GapLevel,
} from '../../shared/signals/index.ts';

/** Move types, coded as bytes in the gap columns. */
export const ACTIONS = ['fill', 'cross', 'clear', 'stroke', 'reveal', 'undo', 'reset', 'hint', 'submit', 'skip', 'set_digit', 'pencil', 'reveal_digit'] as const;
const ACTION_CODE = new Map<string, number>(ACTIONS.map((a, i) => [a, i]));

/**
 * Gaps in columns: gap k belongs to attempts[attempt[k]] and ends that attempt's action number index[k]; cell[k] is
 * the 0-based cell of the timed stroke that ends it (cell > 0: a gap inside a drag), -1 when it ends a whole action.
 */
export interface GapColumns {
  length: number;
  attempt: Int32Array;
  index: Int32Array;
  gap: Float64Array;
  action: Uint8Array;
  cell: Int16Array;
}

export interface ExtractContext {
  puzzles: SignalPuzzle[];
  items: SurveyItem[];
  allItems: SurveyItem[];
  guessingOptions?: readonly string[];
  includePilot?: boolean;
  validate?: boolean;
  /** Gaps at the cell level (default) or the action level (see sessionSignals). */
  gapLevel?: GapLevel;
  /** A session file that cannot be read or analysed is listed in `skipped` instead of stopping the run. */
  skipBadSessions?: boolean;
  /** Also each included session's trajectory (trajectories.csv's rows, as CSV text without the header). */
  trajectories?: boolean;
}

/** A session left out by skipBadSessions: its file (or session id) and why. */
export interface SkippedSession {
  file: string;
  error: string;
}

export type ExtractedParticipant = ParticipantRow & { included: boolean; marked: boolean };

export interface Extracted {
  participants: ExtractedParticipant[];
  /** Attempts of the included sessions. */
  attempts: AttemptRow[];
  gaps: GapColumns;
  answers: AnswerRow[];
  total: number;
  excludedMarked: number;
  incomplete: number;
  /** Sessions left out by skipBadSessions, in file order. */
  skipped: SkippedSession[];
  /** With ctx.trajectories: each included session's trajectory rows as CSV text (no header), in session order. */
  trajectories: string[];
  /** With ctx.trajectories: one strategy row per attempt of `attempts` (same order), and the order of its marks (AttemptMarks); else empty. */
  strategies: StrategyRow[];
  marks: AttemptMarks[];
}

/**
 * The order in which the participant first marked each cell of an attempt (reveals left out): `cells[k]` is the k-th
 * cell marked (reading-order index), `labels[k]` whether that first mark was a guess (1) or forced (0). What the
 * report's small multiples draw.
 */
export interface AttemptMarks {
  cells: Int16Array;
  guess: Uint8Array;
}

/** The first-mark order of each attempt of a session's trajectory (rows grouped by attempt, in order), by 1-based attempt. */
export function attemptMarks(rows: readonly TrajectoryRow[], attempts: number, width: number[]): AttemptMarks[] {
  const out: AttemptMarks[] = [];
  let k = 0;
  for (let a = 1; a <= attempts; a++) {
    const cells: number[] = [];
    const guess: number[] = [];
    const seen = new Set<number>();
    for (; k < rows.length && rows[k].attempt === a; k++) {
      const r = rows[k];
      if (r.reasoning === null || r.source === 'system') continue;
      const i = r.row * width[a - 1] + r.col;
      if (seen.has(i)) continue;
      seen.add(i);
      cells.push(i);
      guess.push(r.reasoning === 'guess' ? 1 : 0);
    }
    out.push({ cells: Int16Array.from(cells), guess: Uint8Array.from(guess) });
  }
  return out;
}

class GapBuilder {
  attempt = new Int32Array(1024);
  index = new Int32Array(1024);
  gap = new Float64Array(1024);
  action = new Uint8Array(1024);
  cell = new Int16Array(1024);
  length = 0;
  push(attempt: number, index: number, gap: number, action: number, cell: number): void {
    if (this.length === this.gap.length) {
      const grow = <T extends Int32Array | Float64Array | Uint8Array | Int16Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.attempt = grow(this.attempt);
      this.index = grow(this.index);
      this.gap = grow(this.gap);
      this.action = grow(this.action);
      this.cell = grow(this.cell);
    }
    const k = this.length++;
    this.attempt[k] = attempt;
    this.index[k] = index;
    this.gap[k] = gap;
    this.action[k] = action;
    this.cell[k] = cell;
  }
  done(): GapColumns {
    const n = this.length;
    return { length: n, attempt: this.attempt.slice(0, n), index: this.index.slice(0, n), gap: this.gap.slice(0, n), action: this.action.slice(0, n), cell: this.cell.slice(0, n) };
  }
}

/** The header of trajectories.csv. */
export const TRAJECTORY_HEADER = `${TRAJECTORY_COLUMNS.join(',')}\n`;

/**
 * Trajectory rows as trajectories.csv's lines without the header ('' for none): the cells toCsv would write (a test
 * pins the bytes to it), built directly, since a large study has millions of rows and papaparse took most of their time.
 */
export function trajectoryCsvBody(rows: readonly Record<string, unknown>[]): string {
  const lines = new Array<string>(rows.length + 1);
  const cells = new Array<string>(TRAJECTORY_COLUMNS.length);
  // A session's string cells are few distinct values (its id, the puzzles', the actions' and labels' names): each is
  // escaped once; integers, booleans and nulls are written as they are (csvCell's own reading of them, without its tests
  // per cell).
  const strings = new Map<string, string>();
  rows.forEach((r, i) => {
    for (let k = 0; k < TRAJECTORY_COLUMNS.length; k++) {
      const v = r[TRAJECTORY_COLUMNS[k]];
      if (typeof v === 'string') {
        let cell = strings.get(v);
        if (cell === undefined) strings.set(v, (cell = csvCell(v)));
        cells[k] = cell;
      } else if (typeof v === 'number' && Number.isInteger(v)) cells[k] = String(v);
      else if (v === null) cells[k] = '';
      else if (typeof v === 'boolean') cells[k] = v ? 'true' : 'false';
      else cells[k] = csvCell(v);
    }
    lines[i] = cells.join(',');
  });
  lines[rows.length] = '';
  // (one flat string per session: a rope of millions of pieces kept until the file is written costs more in GC than it saves)
  return rows.length ? lines.join('\n') : '';
}

/** Extract a sequence of session logs inline. */
export function extractLogs(logs: Iterable<SessionLog>, ctx: ExtractContext, onSession?: (done: number) => void, skipped: SkippedSession[] = []): Extracted {
  const puzzles = new Map(ctx.puzzles.map((p) => [p.id, p]));
  const out: Omit<Extracted, 'gaps'> = { participants: [], attempts: [], answers: [], total: 0, excludedMarked: 0, incomplete: 0, skipped, trajectories: [], strategies: [], marks: [] };
  const gaps = new GapBuilder();
  // The session's gaps, held until we know whether the session is analysed.
  const session = new GapBuilder();
  const onGap = (attempt: number, index: number, gap: number, action: string, cell: number) => session.push(attempt, index, gap, ACTION_CODE.get(action) ?? 255, cell);
  for (const log of logs) {
    out.total++;
    const pilot = log.marks.includes('pilot') || log.marks.includes('test');
    const marked = log.marks.includes('excluded') || (!ctx.includePilot && pilot);
    session.length = 0;
    let s: ReturnType<typeof sessionSignals>;
    try {
      s = sessionSignals(log, puzzles, { guessingOptions: ctx.guessingOptions, onGap, gapLevel: ctx.gapLevel });
    } catch (err) {
      if (!ctx.skipBadSessions) throw err;
      skipped.push({ file: `session ${log.session_id}`, error: (err as Error).message });
      out.total--;
      continue;
    }
    const row = participantRow(log, s.attempts.length, ctx.items);
    const included = !marked && row.status === 'complete';
    if (marked) out.excludedMarked++;
    else if (row.status !== 'complete') out.incomplete++;
    if (!log.marks.includes('excluded')) out.participants.push({ ...row, included, marked });
    if (included) {
      const base = out.attempts.length;
      for (const a of s.attempts) out.attempts.push(a);
      for (let k = 0; k < session.length; k++) gaps.push(base + session.attempt[k], session.index[k], session.gap[k], session.action[k], session.cell[k]);
      for (const a of answerRows(log, ctx.allItems)) out.answers.push(a);
      // (sessionSignals read the same attempts of the same puzzles without error, so this cannot fail where it did not)
      if (ctx.trajectories) {
        const rows = sessionTrajectory(log, puzzles, { gapLevel: ctx.gapLevel });
        out.trajectories.push(trajectoryCsvBody(rows as unknown as Record<string, unknown>[]));
        for (const x of sessionStrategies(s.attempts, rows, puzzles)) out.strategies.push(x);
        for (const x of attemptMarks(rows, s.attempts.length, s.attempts.map((a) => puzzles.get(a.puzzle_id)!.width))) out.marks.push(x);
      }
    }
    onSession?.(out.total);
  }
  return { ...out, gaps: gaps.done() };
}

/** Read, validate and extract files inline. */
export function extractFilesInline(files: readonly string[], ctx: ExtractContext, onSession?: (done: number) => void): Extracted {
  const skipped: SkippedSession[] = [];
  function* logs() {
    for (const f of files) {
      let log: SessionLog;
      try {
        const text = readFileSync(f, 'utf8');
        if (text.trim() === '') continue;
        log = parseSessionNdjson(text, f, { validate: ctx.validate ?? true });
      } catch (err) {
        if (!ctx.skipBadSessions) throw err;
        skipped.push({ file: f, error: (err as Error).message });
        continue;
      }
      yield log;
    }
  }
  return extractLogs(logs(), ctx, onSession, skipped);
}

/** Concatenate extracts in order (attempt references in the gap columns are shifted). */
export function mergeExtracts(parts: readonly Extracted[]): Extracted {
  const n = parts.reduce((s, p) => s + p.gaps.length, 0);
  const gaps: GapColumns = { length: n, attempt: new Int32Array(n), index: new Int32Array(n), gap: new Float64Array(n), action: new Uint8Array(n), cell: new Int16Array(n) };
  const merged: Extracted = { participants: [], attempts: [], answers: [], gaps, total: 0, excludedMarked: 0, incomplete: 0, skipped: [], trajectories: [], strategies: [], marks: [] };
  let offset = 0;
  for (const p of parts) {
    const base = merged.attempts.length;
    for (let k = 0; k < p.gaps.length; k++) gaps.attempt[offset + k] = p.gaps.attempt[k] + base;
    gaps.index.set(p.gaps.index, offset);
    gaps.gap.set(p.gaps.gap, offset);
    gaps.action.set(p.gaps.action, offset);
    gaps.cell.set(p.gaps.cell, offset);
    offset += p.gaps.length;
    for (const x of p.participants) merged.participants.push(x);
    for (const x of p.attempts) merged.attempts.push(x);
    for (const x of p.answers) merged.answers.push(x);
    for (const x of p.skipped) merged.skipped.push(x);
    for (const x of p.trajectories) merged.trajectories.push(x);
    for (const x of p.strategies) merged.strategies.push(x);
    for (const x of p.marks) merged.marks.push(x);
    merged.total += p.total;
    merged.excludedMarked += p.excludedMarked;
    merged.incomplete += p.incomplete;
  }
  return merged;
}
