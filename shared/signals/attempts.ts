// From one session's log to its attempt rows and inter-action gaps: the behavioural signals of each study puzzle.
/*
 * An attempt is the puzzle step of a study puzzle (events with a position; tutorial and warmup have none and
 * are left out) plus the rating step that follows it. The moves are replayed with applyMove's rules (on a mutable
 * BoardReplay, which a test pins to the client's applyMove move by move), so errors are counted on the real board: an error is a cell that a fill or stroke turns filled
 * where the solution is empty (a stroke over three such cells is three errors; undo, reset and hint reveals
 * never count). Time is measured on the client's clocks with the log's one clock rule (shared/log/rules.ts:
 * monotonic when it agrees with the wall clock within a second, else the wall clock). The attempt starts
 * at its step_start (or its first event) and ends at the correct submission (the last submit move before the
 * solve), at the skip move, at the step_end of a timeout, or at its last event when the session stopped.
 * Errors count fill events (the paper's "number of times a participant filled a cell black where the correct
 * solution is white": filling the same wrong cell twice is two errors); error_cells counts the distinct wrong
 * cells among them.
 *
 * Gaps (for the pause mixture) are taken at the cell level by default, as the paper did: every action is one
 * point in time, except a drag stroke whose cells carry their own times (`cell_ms`, offsets from the stroke
 * event's time stamp), which gives one point per cell, so the gaps inside a drag (tens of milliseconds) exist
 * and make the mixture's first component. A stroke logged without cell times (older logs) stays one point at
 * its event time. At the action level (option) every action, stroke included, is one point at its event time.
 * The error, gap and pause rules are the log's (shared/log/rules.ts), shared with the dashboard's replay, so the
 * replay shows the pauses and errors this file counts. What it cannot see: time the participant spent on the page
 * before the step was logged.
 */
import type { LoggedClientEvent } from '../schema/event.ts';
import type { Move } from '../schema/move.ts';
import { BoardReplay } from '../game/board.ts';
import { actionGaps, elapsedMs, firstCell, isPause, paintedCellsInReplay, wrongCells, type GapLevel } from '../log/rules.ts';
import { applySudokuMove, enteredDigits, initialSudoku, wrongSudokuCells } from '../sudoku/board.ts';
import type { AttemptOutcome, AttemptRow, GapRow } from './schema.ts';
import type { SessionLog } from './session.ts';

export interface SignalPuzzle {
  id: string;
  /** The puzzle kind: absent or 'nonogram' (solution rows of '#' and '.'), or 'sudoku' (width = height = side). */
  kind?: 'nonogram' | 'sudoku';
  width: number;
  height: number;
  /** Solution rows: a Nonogram's '#' filled and '.' empty; a Sudoku's digit symbols. */
  solution: readonly string[];
  /** A Sudoku's givens (rows of digit symbols, '.' empty). */
  givens?: readonly string[];
  /** A Sudoku's box shape [rows, cols] (absent: the side's usual shape). */
  box?: readonly [number, number];
}

/** The signal puzzle of a Sudoku record (the side as width and height, the givens beside the solution). */
export function sudokuSignalPuzzle(p: { id: string; size: number; givens: readonly string[]; solution: readonly string[]; box?: readonly [number, number] }): SignalPuzzle {
  return { id: p.id, kind: 'sudoku', width: p.size, height: p.size, solution: p.solution, givens: p.givens, ...(p.box ? { box: [p.box[0], p.box[1]] as const } : {}) };
}

/**
 * One attempt's board as the signals read it, whatever the kind: apply a move, then what that move entered (cells
 * turned filled or digits written, and which of them are errors), and the wrong cells left at the end.
 */
interface AttemptBoard {
  apply(move: Move): void;
  entered(move: Move): { filled: number; errors: number[] };
  wrongAtEnd(): number;
}

function nonogramBoard(puzzle: SignalPuzzle): AttemptBoard {
  const board = new BoardReplay(puzzle.width, puzzle.height);
  return {
    apply: (move) => board.apply(move),
    entered: (move) => paintedCellsInReplay(move, board, puzzle.solution),
    wrongAtEnd: () => wrongCells(board, puzzle.solution).size,
  };
}

/** A Sudoku's entries, by the kind's error rule (enteredDigits, shared/sudoku/board.ts, shared with the replay). */
function sudokuBoard(puzzle: SignalPuzzle): AttemptBoard {
  let state = initialSudoku(puzzle.givens ?? []);
  let before = state;
  return {
    apply(move) {
      before = state;
      state = applySudokuMove(state, move);
    },
    entered: (move) => enteredDigits(move, before, state, puzzle.solution),
    wrongAtEnd: () => wrongSudokuCells(state, puzzle.solution).length,
  };
}

export interface SignalOptions {
  /** Gaps longer than this (seconds) are pauses; null or absent: pauses are not counted. */
  pauseThresholdS?: number | null;
  /** Options of the guessing question, in order (default: Never, Rarely, Sometimes, Often, Always). */
  guessingOptions?: readonly string[];
  /**
   * Receive each gap as numbers instead of a GapRow (then `gaps` comes back empty): `attempt` indexes the
   * returned attempts, `index` is the 1-based action ending the gap. For callers that keep gaps in columns.
   */
  onGap?: (attempt: number, index: number, gapS: number, action: Move['type'], cell: number) => void;
  /**
   * 'cell' (default): a stroke with cell times gives one point per cell, so gaps inside a drag are gaps; 'action':
   * one point per action at its event time (the stroke's cells do not count separately).
   */
  gapLevel?: GapLevel;
}

export type { GapLevel };

export const DEFAULT_GUESSING_OPTIONS = ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'] as const;

export type MoveEvent = Extract<LoggedClientEvent, { type: 'move' }>;

function isMove(e: LoggedClientEvent): e is MoveEvent {
  return e.type === 'move';
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = Float64Array.from(values).sort(); // (numeric order, as (a, b) => a - b gives for numbers that are not NaN)
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface AttemptEvents {
  puzzleId: string;
  position: number;
  events: LoggedClientEvent[];
}

/** Group the client events of study puzzles by (position, puzzle), in sequence order. */
export function groupAttempts(log: SessionLog): AttemptEvents[] {
  // groups in the order they first appear (then sorted by position, stably); the last one found is tried first
  const groups: AttemptEvents[] = [];
  let last: AttemptEvents | null = null;
  for (const e of log.client) {
    if (e.position === null || e.puzzle_id === null) continue;
    let g: AttemptEvents | null | undefined = last !== null && last.position === e.position && last.puzzleId === e.puzzle_id ? last : null;
    g ??= groups.find((x) => x.position === e.position && x.puzzleId === e.puzzle_id);
    if (!g) groups.push((g = { puzzleId: e.puzzle_id, position: e.position, events: [] }));
    g.events.push(e);
    last = g;
  }
  return groups.sort((a, b) => a.position - b.position);
}

/** An attempt's window on its events: the puzzle step, its events, where it starts and ends, and its outcome. */
export interface AttemptWindow {
  puzzleStep: number;
  /** The puzzle step's events (the rating step's left out). */
  stepEvents: LoggedClientEvent[];
  /** The group's move records, in order (those after `end` are not part of the attempt). */
  moves: MoveEvent[];
  start: LoggedClientEvent;
  end: LoggedClientEvent;
  checks: Extract<SessionLog['server'][number], { type: 'check' }>[];
  outcome: AttemptOutcome;
}

/**
 * The window of one attempt (the rule of the essay above: it starts at its step_start or first event and ends at the
 * correct submission, the skip, the time-out's step_end or its last event); null when the group holds only a rating.
 * Shared by the attempt rows and the trajectories (trajectory.ts), so both see the same moves.
 */
export function attemptWindow(log: SessionLog, group: AttemptEvents): AttemptWindow | null {
  const isRatingEvent = (e: LoggedClientEvent) =>
    e.type === 'rating' || ((e.type === 'step_start' || e.type === 'step_end') && e.payload.kind === 'rating');
  const stepStart = group.events.find((e) => e.type === 'step_start' && e.payload.kind !== 'rating');
  const moves = group.events.filter(isMove);
  const puzzleStep = stepStart?.step ?? moves[0]?.step ?? group.events.find((e) => !isRatingEvent(e))?.step;
  if (puzzleStep === undefined) return null;
  const stepEvents = group.events.filter((e) => e.step === puzzleStep && !isRatingEvent(e));
  const start = stepStart ?? stepEvents[0];
  const stepEnd = stepEvents.find((e): e is Extract<LoggedClientEvent, { type: 'step_end' }> => e.type === 'step_end');
  const checks = log.server.filter(
    (s): s is Extract<typeof s, { type: 'check' }> => s.type === 'check' && s.payload.puzzle_id === group.puzzleId && (s.payload.position === null || s.payload.position === group.position),
  );
  const skipMove = moves.find((m) => m.payload.move.type === 'skip');
  const solved = stepEnd?.payload.reason === 'solved' || checks.some((c) => c.payload.solved);
  let outcome: AttemptOutcome;
  if (solved) outcome = 'solved';
  else if (stepEnd?.payload.reason === 'skipped' || skipMove) outcome = 'skipped';
  else if (stepEnd?.payload.reason === 'timeout') outcome = 'timeout';
  else outcome = 'incomplete';

  const submits = moves.filter((m) => m.payload.move.type === 'submit');
  let end: LoggedClientEvent;
  if (outcome === 'solved') {
    const solvedResult = stepEvents.find((e) => e.type === 'submit_result' && e.payload.solved);
    const before = solvedResult ?? stepEnd;
    const lastSubmit = before ? submits.filter((m) => m.seq < before.seq).at(-1) : submits.at(-1);
    end = lastSubmit ?? solvedResult ?? stepEnd ?? stepEvents[stepEvents.length - 1];
  } else if (outcome === 'skipped') end = skipMove ?? stepEnd ?? stepEvents[stepEvents.length - 1];
  else if (outcome === 'timeout') end = stepEnd!;
  else end = stepEvents[stepEvents.length - 1];
  return { puzzleStep, stepEvents, moves, start, end, checks, outcome };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export interface SessionSignals {
  attempts: AttemptRow[];
  gaps: GapRow[];
}

/** A session attempted a puzzle the given set lacks (the logs are another study's, or the set is not the one it used). */
export class UnknownPuzzleError extends Error {
  constructor(session: string, group: { puzzleId: string; position: number }) {
    super(`session ${session}: puzzle '${group.puzzleId}' (position ${group.position}) is not in the puzzle set`);
  }
}

/**
 * Attempt rows and gaps of one session. `puzzles` must hold every study puzzle the session attempted (with its
 * solution); an attempt of an unknown puzzle is an error naming it.
 */
export function sessionSignals(log: SessionLog, puzzles: ReadonlyMap<string, SignalPuzzle>, options: SignalOptions = {}): SessionSignals {
  const threshold = options.pauseThresholdS ?? null;
  const cellLevel = (options.gapLevel ?? 'cell') === 'cell';
  const guessingOptions = options.guessingOptions ?? DEFAULT_GUESSING_OPTIONS;
  const attempts: AttemptRow[] = [];
  const gaps: GapRow[] = [];
  const revisions = log.client.filter((e): e is Extract<LoggedClientEvent, { type: 'rating_revise' }> => e.type === 'rating_revise');

  for (const group of groupAttempts(log)) {
    const puzzle = puzzles.get(group.puzzleId);
    if (!puzzle) throw new UnknownPuzzleError(log.session_id, group);
    const frame = attemptWindow(log, group);
    if (frame === null) continue; // only a rating, no puzzle step: nothing to measure
    const { puzzleStep, stepEvents, start, end, moves, checks, outcome } = frame;
    const solved = outcome === 'solved';

    // Replay the moves up to the end of the attempt (applyMove's rules on one mutable board: BoardReplay).
    const sudoku = puzzle.kind === 'sudoku';
    const board = sudoku ? sudokuBoard(puzzle) : nonogramBoard(puzzle);
    const counts = { actions: 0, moves: 0, strokes: 0, cellsFilled: 0, errors: 0, hints: 0, undos: 0, resets: 0, submissions: 0, pencils: 0 };
    const errorCells = new Set<number>();
    const pencilCells = new Set<number>();
    let first: [number, number] | null = null;
    let firstAction: LoggedClientEvent | null = null;
    const actions: MoveEvent[] = [];
    for (const m of moves) {
      if (m.seq > end.seq) break;
      const move = m.payload.move;
      if (m.source === 'system') {
        // A cell revealed by a hint: applied to the board, but not an action of the participant.
        board.apply(move);
        continue;
      }
      counts.actions++;
      firstAction ??= m;
      actions.push(m);
      const cell = firstCell(move);
      if (cell) {
        counts.moves++;
        first ??= cell;
      }
      if (move.type === 'stroke') counts.strokes++;
      else if (move.type === 'hint') counts.hints++;
      else if (move.type === 'undo') counts.undos++;
      else if (move.type === 'reset') counts.resets++;
      else if (move.type === 'submit') counts.submissions++;
      else if (move.type === 'pencil') {
        counts.pencils++;
        pencilCells.add(move.row * puzzle.width + move.col);
      }
      board.apply(move);
      const painted = board.entered(move);
      counts.cellsFilled += painted.filled;
      counts.errors += painted.errors.length;
      for (const i of painted.errors) errorCells.add(i);
    }
    const gapList: number[] = [];
    for (const g of actionGaps(actions, cellLevel ? 'cell' : 'action')) {
      gapList.push(g.seconds);
      const action = actions[g.action - 1].payload.move.type;
      if (options.onGap) options.onGap(attempts.length, g.action, g.seconds, action, g.cell ?? -1);
      else gaps.push({ participant_id: log.session_id, puzzle_id: group.puzzleId, position: group.position, index: g.action, cell: g.cell, gap_s: g.seconds, action });
    }
    if (counts.hints === 0) counts.hints = log.server.filter((s) => s.type === 'hint' && s.payload.puzzle_id === group.puzzleId).length;
    // A hint is one that was shown (hint_shown): a press whose request failed (offline) gave the participant nothing.
    // Logs written before hint_shown existed have none anywhere, and keep the count of presses.
    if (log.client.some((e) => e.type === 'hint_shown')) counts.hints = Math.min(counts.hints, stepEvents.filter((e) => e.type === 'hint_shown').length);

    let wrongSubmissions: number;
    const results = stepEvents.filter((e): e is Extract<LoggedClientEvent, { type: 'submit_result' }> => e.type === 'submit_result');
    if (checks.length > 0) wrongSubmissions = checks.filter((c) => !c.payload.solved).length;
    else if (results.length > 0) wrongSubmissions = results.filter((r) => !r.payload.solved).length;
    else wrongSubmissions = Math.max(0, counts.submissions - (solved ? 1 : 0));

    const rating = group.events.find((e): e is Extract<LoggedClientEvent, { type: 'rating' }> => e.type === 'rating');
    const initial = rating?.payload.difficulty ?? null;
    let final = initial;
    for (const r of revisions) if (r.payload.rated_puzzle_id === group.puzzleId && r.seq > (rating?.seq ?? 0)) final = r.payload.to;
    const guessing = rating ? rating.payload.guessing : null;
    const level = guessing === null ? -1 : guessingOptions.indexOf(guessing);
    const pauses = threshold === null ? null : gapList.filter((g) => isPause(g, threshold));

    attempts.push({
      participant_id: log.session_id,
      puzzle_id: group.puzzleId,
      position: group.position,
      step: puzzleStep,
      outcome,
      solved: outcome === 'solved',
      skipped: outcome === 'skipped',
      time_s: round3(elapsedMs(start, end) / 1000),
      first_action_s: firstAction ? round3(elapsedMs(start, firstAction) / 1000) : null,
      actions: counts.actions,
      moves: counts.moves,
      strokes: counts.strokes,
      cells_filled: counts.cellsFilled,
      errors: counts.errors,
      error_cells: errorCells.size,
      hints: counts.hints,
      undos: counts.undos,
      resets: counts.resets,
      submissions: counts.submissions,
      wrong_submissions: wrongSubmissions,
      gaps: gapList.length,
      median_gap_s: gapList.length ? round3(median(gapList)!) : null,
      pauses: pauses ? pauses.length : null,
      pause_time_s: pauses ? round3(pauses.reduce((s, g) => s + g, 0)) : null,
      pause_threshold_s: threshold,
      first_row: first ? first[0] : null,
      first_col: first ? first[1] : null,
      final_wrong_cells: board.wrongAtEnd(),
      difficulty_initial: initial,
      difficulty: final,
      guessing,
      guessing_level: level >= 0 ? level + 1 : null,
      // A Sudoku's attempt also names its kind and its pencil-mark use (a Nonogram's row keeps its fields as they were).
      ...(sudoku ? { kind: 'sudoku' as const, pencil_marks: counts.pencils, pencil_cells: pencilCells.size } : {}),
    });
  }
  return { attempts, gaps };
}

/** Recount pauses of attempt rows from their gaps with a new threshold (the gaps must come from the same sessions). */
export function applyPauseThreshold(attempts: readonly AttemptRow[], gaps: readonly GapRow[], thresholdS: number): AttemptRow[] {
  const byAttempt = new Map<string, number[]>();
  for (const g of gaps) {
    const key = `${g.participant_id}\u0000${g.position}\u0000${g.puzzle_id}`;
    let list = byAttempt.get(key);
    if (!list) byAttempt.set(key, (list = []));
    list.push(g.gap_s);
  }
  return attempts.map((a) => {
    const list = (byAttempt.get(`${a.participant_id}\u0000${a.position}\u0000${a.puzzle_id}`) ?? []).filter((g) => isPause(g, thresholdS));
    return { ...a, pauses: list.length, pause_time_s: round3(list.reduce((s, g) => s + g, 0)), pause_threshold_s: thresholdS };
  });
}
