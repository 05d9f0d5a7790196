// What the dashboard reads out of a session's logged records: attempt timelines for replay, the live mirror, answers.
//
// The records come through the log's one reader (shared/log: parseRecord), typed, and every measure here uses the
// log's shared rules (shared/log/rules.ts), the same the analysis uses, so a replay shows what attempts.csv counts.
// A replay is the attempt's moves pushed through the same rule the participant's page used (a Nonogram's applyMove,
// a Sudoku's applySudokuMove: one rule file per kind, ReplayRules), so the board at any moment is exactly the board
// they saw. Time runs on the client's clocks by the one clock rule (monotonic when it agrees with the wall clock within
// a second, else the wall clock: a reload restarts the monotonic clock). Errors are the analysis's (a Nonogram: a fill
// or stroke turning a cell filled where the solution is empty; a Sudoku: a digit entered that is not the solution's);
// pauses are its gaps between consecutive participant actions (cell level: the cells of a timed drag are points of
// their own) longer than the threshold. Wrong cells, shown on the board, are a Nonogram's cells filled where the
// solution is empty or crossed where it is filled, a Sudoku's digits that differ from the solution's.
// The solution is visible here because the dashboard is behind the experimenter login.
import { applyMove, initialBoard, type BoardState } from '../../../shared/game/board.ts';
import type { Move } from '../../../shared/schema/move.ts';
import type { LoggedClientEvent, LoggedEvent } from '../../../shared/schema/event.ts';
import { parseRecord } from '../../../shared/log/record.ts';
import { showsBoard } from '../../../shared/study/phases/index.ts';
import { applySudokuMove, enteredDigits, initialSudoku, wrongSudokuCells, type SudokuState } from '../../../shared/sudoku/board.ts';
import { actionGaps, elapsedMs, isBoardMove, isPause, paintedCells, wrongCells, type MoveRecord } from '../../../shared/log/rules.ts';

export { wrongCells };

/** A logged record as the dashboard holds it: typed by the log's reader. */
export type LogRecord = LoggedEvent;

/**
 * Records as the server sent them (JSON), through the log's reader: the valid ones, typed. Server records of types
 * this version does not know, and records the reader refuses (the server wrote them, so none are expected), are left out.
 */
export function readRecords(raw: readonly unknown[]): LoggedEvent[] {
  const out: LoggedEvent[] = [];
  for (const r of raw) {
    const parsed = parseRecord(r);
    if (parsed.kind === 'event') out.push(parsed.event);
  }
  return out;
}

export interface PuzzleShape {
  id: string;
  width: number;
  height: number;
  rows: number[][];
  cols: number[][];
  solution?: string[];
}

/** A frame of a replay: one move and the board after it (a Nonogram's BoardState, or a Sudoku's SudokuState). */
export interface Frame<B = BoardState> {
  /** Milliseconds since the attempt began. */
  t: number;
  seq: number | null;
  move: Move;
  /** The board after this move. */
  board: B;
  /** Cells wrong against the solution after this move. */
  wrong: number;
  /**
   * Errors this move made, as attempts.csv counts them (a Nonogram: cells a fill or stroke turned filled where the
   * solution is empty; a Sudoku: a digit entered that differs from the solution's).
   */
  errors: number;
  /** This move made at least one error. */
  introduced_error: boolean;
}

export interface Mark {
  t: number;
  kind: 'submit_wrong' | 'submit_solved' | 'hint' | 'hidden' | 'visible' | 'skip';
  label: string;
}

/** A gap between consecutive participant actions (the analysis's gaps), ending at `to` on the replay's time axis. */
export interface Gap {
  to: number;
  seconds: number;
}

export interface AttemptTimeline<B = BoardState> {
  step: number;
  puzzle_id: string;
  position: number | null;
  outcome: string | null;
  duration: number;
  frames: Frame<B>[];
  marks: Mark[];
  gaps: Gap[];
  /** Errors over the attempt (the sum of the frames' errors), as attempts.csv counts them. */
  errors: number;
}

export interface Pause {
  from: number;
  to: number;
  duration: number;
}


const client = (records: readonly LoggedEvent[]): LoggedClientEvent[] => records.filter((r): r is LoggedClientEvent => r.origin === 'client');

/** The steps of a session that were puzzles (attempts), in order: step index, puzzle and how it ended. */
export function attemptsOf(records: readonly LoggedEvent[]): { step: number; puzzle_id: string; position: number | null; kind: string; outcome: string | null }[] {
  const out = new Map<number, { step: number; puzzle_id: string; position: number | null; kind: string; outcome: string | null }>();
  for (const r of client(records)) {
    if (r.type === 'step_start' && r.puzzle_id && showsBoard(r.payload.kind))
      if (!out.has(r.step)) out.set(r.step, { step: r.step, puzzle_id: r.puzzle_id, position: r.position, kind: r.payload.kind, outcome: null });
    if (r.type === 'step_end' && out.has(r.step)) out.get(r.step)!.outcome = r.payload.reason;
  }
  return [...out.values()];
}

/**
 * How a replay folds one kind's board, by that kind's one rule file: its first board, one move (the participant's
 * page's own rule), the errors a move made (the analysis's rule) and the cells wrong against the solution.
 */
export interface ReplayRules<B> {
  initial: B;
  apply(board: B, move: Move): B;
  errors(move: Move, before: B, after: B): number;
  wrong(board: B): number;
}

/** A Nonogram's replay rules: shared/game/board.ts and the log's rules (shared/log/rules.ts). */
export function nonogramRules(puzzle: PuzzleShape): ReplayRules<BoardState> {
  return {
    initial: initialBoard(puzzle.width, puzzle.height),
    apply: applyMove,
    errors: (move, before, after) => (puzzle.solution ? paintedCells(move, before, after, puzzle.solution).errors.length : 0),
    wrong: (board) => wrongCells(board, puzzle.solution).size,
  };
}

/** The shape of a Sudoku the replay needs: its givens and its solution (rows of digit symbols, '.' empty). */
export interface SudokuShape {
  id: string;
  size: number;
  box: readonly [number, number];
  givens: readonly string[];
  solution: readonly string[];
}

/** A Sudoku's replay rules: shared/sudoku/board.ts (the page's applySudokuMove, the analysis's enteredDigits). */
export function sudokuRules(puzzle: SudokuShape): ReplayRules<SudokuState> {
  return {
    initial: initialSudoku(puzzle.givens),
    apply: applySudokuMove,
    errors: (move, before, after) => enteredDigits(move, before, after, puzzle.solution).errors.length,
    wrong: (board) => wrongSudokuCells(board, puzzle.solution).length,
  };
}

/** Build the replay of one attempt (one step) of a session on a Nonogram. */
export function attemptTimeline(records: readonly LoggedEvent[], step: number, puzzle: PuzzleShape): AttemptTimeline {
  return foldAttempt(records, step, puzzle.id, nonogramRules(puzzle));
}

/** Build the replay of one attempt (one step) of a session on a Sudoku. */
export function sudokuTimeline(records: readonly LoggedEvent[], step: number, puzzle: SudokuShape): AttemptTimeline<SudokuState> {
  return foldAttempt(records, step, puzzle.id, sudokuRules(puzzle));
}

/** The replay of one attempt on any kind's board, folded by that kind's rules. */
export function foldAttempt<B>(records: readonly LoggedEvent[], step: number, puzzleId: string, rules: ReplayRules<B>): AttemptTimeline<B> {
  let board = rules.initial;
  let errors = 0;
  const frames: Frame<B>[] = [];
  const marks: Mark[] = [];
  let started = false;
  let outcome: string | null = null;
  let t = 0;
  let last: LoggedClientEvent | null = null;
  let position: number | null = null;
  /** The participant's actions (the system's reveals left out) and where each sits on the time axis. */
  const actions: MoveRecord[] = [];
  const actionT: number[] = [];
  for (const r of records) {
    if (r.origin === 'server') {
      // Server records carry no client time: place them at the latest client moment.
      if (!started || outcome !== null) continue;
      if (r.type === 'check' && r.payload.puzzle_id === puzzleId)
        marks.push(r.payload.solved ? { t, kind: 'submit_solved', label: 'solved' } : { t, kind: 'submit_wrong', label: `not solved (${r.payload.wrong_cells} wrong)` });
      if (r.type === 'hint' && r.payload.puzzle_id === puzzleId) marks.push({ t, kind: 'hint', label: `hint: ${r.payload.reasoning}` });
      continue;
    }
    if (r.step !== step) continue;
    if (r.type === 'step_start' && !started) {
      started = true;
      position = r.position;
    }
    // Records before the start still set the clock's origin.
    if (started && last) t += elapsedMs(last, r);
    last = r;
    if (!started) continue;
    if (r.type === 'move') {
      const move = r.payload.move;
      const next = rules.apply(board, move);
      const made = rules.errors(move, board, next);
      board = next;
      const w = rules.wrong(board);
      errors += made;
      frames.push({ t, seq: r.seq, move, board, wrong: w, errors: made, introduced_error: made > 0 });
      if (r.source !== 'system') {
        actions.push(r);
        actionT.push(t);
      }
      if (move.type === 'skip') marks.push({ t, kind: 'skip', label: 'skipped' });
    } else if (r.type === 'visibility') {
      marks.push({ t, kind: r.payload.state === 'hidden' ? 'hidden' : 'visible', label: `page ${r.payload.state}` });
    } else if (r.type === 'step_end') {
      outcome = r.payload.reason;
      break;
    }
  }
  const gaps = actionGaps(actions).map((g) => ({ to: actionT[g.action - 1] + g.offsetMs, seconds: g.seconds }));
  return { step, puzzle_id: puzzleId, position, outcome, duration: t, frames, marks, gaps, errors };
}

/** Index of the frame showing at time t (-1: the empty board before the first move). */
export function frameAt(timeline: AttemptTimeline<unknown>, t: number): number {
  let lo = 0;
  let hi = timeline.frames.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (timeline.frames[mid].t <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The attempt's pauses: its gaps longer than `thresholdMs` (the analysis's rule, so they are attempts.csv's pauses). */
export function longPauses(timeline: AttemptTimeline<unknown>, thresholdMs: number): Pause[] {
  return timeline.gaps.filter((g) => isPause(g.seconds, thresholdMs / 1000)).map((g) => ({ from: g.to - g.seconds * 1000, to: g.to, duration: g.seconds * 1000 }));
}

/** The live mirror: the board of the step the participant is on, rebuilt record by record with applyMove. */
export interface Mirror {
  step: number | null;
  puzzle_id: string | null;
  board: BoardState | null;
  /** Board moves in the current step. */
  moves: number;
  last_seq: number;
}

export const emptyMirror: Mirror = { step: null, puzzle_id: null, board: null, moves: 0, last_seq: 0 };

export function mirrorRecords(mirror: Mirror, records: readonly LoggedEvent[], puzzleOf: (id: string) => PuzzleShape | undefined): Mirror {
  let m = mirror;
  for (const r of records) {
    if (r.origin !== 'client' || r.seq <= m.last_seq) continue;
    m = { ...m, last_seq: r.seq };
    if (r.type === 'step_start' && r.step !== m.step) {
      const p = r.puzzle_id && showsBoard(r.payload.kind) ? puzzleOf(r.puzzle_id) : undefined;
      m = { ...m, step: r.step, puzzle_id: p ? p.id : null, board: p ? initialBoard(p.width, p.height) : null, moves: 0 };
    } else if (r.type === 'move' && r.step === m.step && m.board) {
      const move = r.payload.move;
      m = { ...m, board: applyMove(m.board, move), moves: m.moves + (isBoardMove(move) ? 1 : 0) };
    }
  }
  return m;
}

export interface Answer {
  step: number | null;
  phase: string;
  source: string;
  item: string;
  value: string;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join('; ');
  return String(value);
}

/** Every survey answer and rating the participant gave, as text (rendered as text, never as HTML). */
export function answersOf(records: readonly LoggedEvent[]): Answer[] {
  const out: Answer[] = [];
  for (const r of client(records)) {
    const base = { step: r.step, phase: r.phase };
    if (r.type === 'survey_submit') {
      for (const [item, value] of Object.entries(r.payload.answers)) out.push({ ...base, source: r.payload.survey_id, item, value: show(value) });
    } else if (r.type === 'rating') {
      const at = r.puzzle_id ? `rating of ${r.puzzle_id}` : 'rating';
      out.push({ ...base, source: at, item: 'difficulty', value: show(r.payload.difficulty) });
      out.push({ ...base, source: at, item: 'guessing', value: show(r.payload.guessing) });
    } else if (r.type === 'rating_revise') {
      out.push({ ...base, source: `revised rating of ${r.payload.rated_puzzle_id}`, item: 'difficulty', value: `${show(r.payload.from)} → ${show(r.payload.to)}` });
    }
  }
  return out;
}
