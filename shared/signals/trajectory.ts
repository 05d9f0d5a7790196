// From one session's log to its trajectory: one row per cell change of each attempt, in order, labelled by the reasoning that forces it.
/*
 * The attempts are the attempt rows' (attemptWindow in attempts.ts: the same puzzle step, the same moves up to the same
 * end), replayed with applyMove's rules on a BoardReplay. Every move that changes cells gives one row per changed cell,
 * in the order the cells changed: a stroke's cells in stroke order (cells it left as they were give none), an undo's
 * and a reset's in cell order (row-major), a fill, cross, clear or reveal its one cell. Hint, submit and skip change
 * nothing and give no row. Time comes from the log's rules (shared/log/rules.ts): `t_ms` is the clock rule's time
 * since the step started plus, for a timed stroke's cell, its own offset; `gap_ms` is the gap the pause rule measures
 * (actionGaps over the participant's actions, at the cell or action level as for gaps.csv) ending at the change's
 * point in time, so a row joins gaps.csv on (participant_id, puzzle_id, position, index, stroke_cell). Errors are the
 * paper's (paintedCellsInReplay), wrong cells the log's rule (wrongCells), counted as the cells change.
 *
 * Each change to a mark (filled or crossed) is labelled by MoveReasoning (shared/nonogram/reasoning.ts, the engine of
 * the hints and grades) on the board just before it: for a stroke, the board with the stroke's earlier cells already
 * painted. A change back to unknown is not a deduction and has no label. Backtracking: a change is `backtrack` when the
 * cell takes a state it already held earlier in the attempt, unknown included (so every change back to unknown is,
 * and so is filling a cell again that was filled, crossed, then filled): it undoes earlier work.
 */
import type { InputSource, Move, PaintState } from '../schema/move.ts';
import { BoardReplay } from '../game/board.ts';
import { actionGaps, elapsedMs, paintedCellsInReplay, type GapLevel } from '../log/rules.ts';
import { EMPTY, FILLED, UNKNOWN, cluesOf, createGrid, type Clues } from '../nonogram/grid.ts';
import { MoveReasoning, type ReasoningLabel } from '../nonogram/reasoning.ts';
import { attemptWindow, groupAttempts, type MoveEvent, type SignalPuzzle } from './attempts.ts';
import type { SessionLog } from './session.ts';

export type TrajectoryAction = Exclude<Move['type'], 'hint' | 'submit' | 'skip'>;

/** One cell change of an attempt. */
export interface TrajectoryRow {
  participant_id: string;
  puzzle_id: string;
  kind: 'nonogram';
  position: number;
  /** 1-based attempt of the session (the order of its rows in attempts.csv). */
  attempt: number;
  /** 1-based change of the attempt. */
  change: number;
  /** 1-based move record of the attempt (every move: the system's reveals, hints and submissions too). */
  move: number;
  /** 1-based participant action (gaps.csv's index); null for the system's reveals. */
  index: number | null;
  action: TrajectoryAction;
  source: InputSource;
  /** 1-based stroke of the attempt and the 0-based cell of the stroke; null for other moves. */
  stroke: number | null;
  stroke_cell: number | null;
  /** Milliseconds since the step started, and since the previous participant action (the pause rule's gap; null for the first and for reveals). */
  t_ms: number;
  gap_ms: number | null;
  row: number;
  col: number;
  before: PaintState;
  after: PaintState;
  /** The new state agrees with the solution (filled where it is filled, crossed where it is empty); unknown never does. */
  correct: boolean;
  /** An error by the paper's rule: a fill or stroke turning the cell filled where the solution is empty. */
  error: boolean;
  /** Share of the board's cells right after the change (marked as the solution has them), and the wrong cells. */
  board_right: number;
  wrong_cells: number;
  /** The weakest reasoning forcing the change on the board before it; null for a change back to unknown. */
  reasoning: ReasoningLabel | null;
  backtrack: boolean;
}

export const TRAJECTORY_COLUMNS = [
  'participant_id', 'puzzle_id', 'kind', 'position', 'attempt', 'change', 'move', 'index', 'action', 'source', 'stroke', 'stroke_cell',
  't_ms', 'gap_ms', 'row', 'col', 'before', 'after', 'correct', 'error', 'board_right', 'wrong_cells', 'reasoning', 'backtrack',
] as const satisfies readonly (keyof TrajectoryRow)[];

export interface TrajectoryOptions {
  /** Gaps at the cell level (default) or the action level, as for gaps.csv. */
  gapLevel?: GapLevel;
  /** Only this puzzle's attempts. */
  puzzleId?: string;
}

const STATE_NAME: readonly PaintState[] = ['unknown', 'filled', 'crossed'];

/** Each puzzle's labeller, made once (the blank lines' overlap solved once per puzzle). */
const labellers = new WeakMap<SignalPuzzle, MoveReasoning>();

/** The clues of a puzzle's solution ('#' filled, anything else empty: the attempt rows' reading of it). */
function solutionClues(puzzle: SignalPuzzle): Clues {
  const grid = createGrid(puzzle.width, puzzle.height, EMPTY);
  for (let r = 0; r < puzzle.height; r++) for (let c = 0; c < puzzle.width; c++) if (puzzle.solution[r]?.[c] === '#') grid.cells[r * puzzle.width + c] = FILLED;
  return cluesOf(grid);
}

function labellerOf(puzzle: SignalPuzzle): MoveReasoning {
  let m = labellers.get(puzzle);
  if (!m) labellers.set(puzzle, (m = new MoveReasoning(solutionClues(puzzle))));
  return m;
}

/**
 * The trajectory of one session: its attempts' cell changes in order. `puzzles` must hold every study puzzle the
 * session attempted (an attempt of an unknown puzzle is an error naming it, as for sessionSignals).
 */
export function sessionTrajectory(log: SessionLog, puzzles: ReadonlyMap<string, SignalPuzzle>, options: TrajectoryOptions = {}): TrajectoryRow[] {
  const rows: TrajectoryRow[] = [];
  let attempt = 0;
  for (const group of groupAttempts(log)) {
    const puzzle = puzzles.get(group.puzzleId);
    if (!puzzle) throw new Error(`session ${log.session_id}: puzzle '${group.puzzleId}' (position ${group.position}) is not in the puzzle set`);
    const frame = attemptWindow(log, group);
    if (frame === null) continue;
    attempt++;
    if (options.puzzleId !== undefined && options.puzzleId !== group.puzzleId) continue;
    if (puzzle.kind === 'sudoku') continue; // the reasoning labels are a Nonogram's line logic: no Sudoku trajectory yet
    const moves = frame.moves.filter((m) => m.seq <= frame.end.seq);
    const actions = moves.filter((m) => m.source !== 'system');
    const gaps = new Map<string, number>();
    for (const g of actionGaps(actions, options.gapLevel ?? 'cell')) gaps.set(`${g.action}:${g.cell ?? -1}`, Math.round(g.seconds * 1000));
    attemptRows(log.session_id, puzzle, group.position, attempt, frame.start, moves, gaps, rows);
  }
  return rows;
}

function attemptRows(
  session: string,
  puzzle: SignalPuzzle,
  position: number,
  attempt: number,
  start: { t_mono: number; t_wall: number },
  moves: readonly MoveEvent[],
  gaps: ReadonlyMap<string, number>,
  rows: TrajectoryRow[],
): void {
  const { width, height, solution } = puzzle;
  const n = width * height;
  const want = new Uint8Array(n);
  for (let i = 0; i < n; i++) want[i] = solution[(i / width) | 0]?.[i % width] === '#' ? FILLED : EMPTY;
  const board = new BoardReplay(width, height);
  const cur = new Uint8Array(n); // the board as the changes are applied one by one
  const held = new Uint8Array(n).fill(1 << UNKNOWN); // states each cell has held in the attempt
  const snapshot = new Uint8Array(n);
  const reasoning = labellerOf(puzzle);
  reasoning.reset();
  let right = 0;
  let wrong = 0;
  let change = 0;
  let action = 0;
  let strokes = 0;
  moves.forEach((m, k) => {
    const move = m.payload.move;
    const system = m.source === 'system';
    if (!system) action++;
    if (move.type === 'stroke') strokes++;
    if (move.type === 'hint' || move.type === 'submit' || move.type === 'skip') {
      board.apply(move);
      return;
    }
    if (move.type === 'undo') snapshot.set(board.cells);
    board.apply(move);
    const changed: number[] = [];
    if (move.type === 'undo') {
      for (let i = 0; i < n; i++) if (snapshot[i] !== board.cells[i]) changed.push(i);
    } else for (let j = board.from; j < board.to; j++) changed.push(board.changed[j]);
    if (changed.length === 0) return;
    const errors = new Set(paintedCellsInReplay(move, board, solution).errors);
    const base = elapsedMs(start, m);
    let strokeCell = 0;
    for (const i of changed) {
      const before = cur[i];
      const after = board.cells[i];
      let cellOf: number | null = null;
      let offset = 0;
      if (move.type === 'stroke') {
        const at = (cell: readonly [number, number]) => (cell[0] < height && cell[1] < width ? cell[0] * width + cell[1] : -1);
        while (strokeCell < move.cells.length && at(move.cells[strokeCell]) !== i) strokeCell++;
        cellOf = strokeCell;
        offset = move.cell_ms?.[strokeCell] ?? 0;
      }
      const label = after === UNKNOWN ? null : reasoning.label(cur, i, after);
      cur[i] = after;
      reasoning.changed(i, before, after);
      const isRight = (v: number) => (v === want[i] ? 1 : 0);
      const isWrong = (v: number) => (v !== UNKNOWN && v !== want[i] ? 1 : 0);
      right += isRight(after) - isRight(before);
      wrong += isWrong(after) - isWrong(before);
      const backtrack = (held[i] & (1 << after)) !== 0;
      held[i] |= 1 << after;
      const gapKey = move.type === 'stroke' && move.cell_ms && gaps.has(`${action}:${cellOf}`) ? `${action}:${cellOf}` : `${action}:-1`;
      rows.push({
        participant_id: session,
        puzzle_id: puzzle.id,
        kind: 'nonogram',
        position,
        attempt,
        change: ++change,
        move: k + 1,
        index: system ? null : action,
        action: move.type,
        source: m.source,
        stroke: move.type === 'stroke' ? strokes : null,
        stroke_cell: cellOf,
        t_ms: Math.max(0, Math.round(base + offset)),
        gap_ms: system ? null : (gaps.get(gapKey) ?? null),
        row: (i / width) | 0,
        col: i % width,
        before: STATE_NAME[before],
        after: STATE_NAME[after],
        correct: after === want[i],
        error: errors.has(i),
        board_right: right / n,
        wrong_cells: wrong,
        reasoning: label,
        backtrack,
      });
    }
  });
}

/** One attempt's strategy, summarised from its trajectory. */
export interface StrategyRow {
  participant_id: string;
  puzzle_id: string;
  kind: 'nonogram';
  position: number;
  attempt: number;
  /** Cell changes, and among them the changes to a mark (filled or crossed: the labelled ones). */
  changes: number;
  marks: number;
  /** Marks at each level of reasoning (counts), and their shares of `marks` (null when there are none). */
  overlap: number;
  line: number;
  two_lines: number;
  probing: number;
  guess: number;
  share_overlap: number | null;
  share_line: number | null;
  share_two_lines: number | null;
  share_probing: number | null;
  share_guess: number | null;
  /** Share of marks in the line family (overlap, line, two-lines). */
  share_line_family: number | null;
  /** Changes that backtrack (trajectory's `backtrack`). */
  backtracks: number;
  /** Seconds of the gaps before the marks of each level (the time that led to them). */
  time_overlap_s: number;
  time_line_s: number;
  time_two_lines_s: number;
  time_probing_s: number;
  time_guess_s: number;
  /** The participant's first change: its cell, its label, and whether it lies on a foothold line. */
  first_row: number | null;
  first_col: number | null;
  first_reasoning: ReasoningLabel | null;
  first_on_foothold: boolean | null;
  /**
   * How the participant moved through the board, over consecutive pairs of their marks (changes to filled or crossed,
   * reveals left out): the share of pairs whose second cell shares a row or column with the first (working along
   * lines), and the share whose second cell comes later in reading order (row-major); null under two marks.
   */
  same_line_share: number | null;
  reading_order_share: number | null;
  /**
   * Foothold use: the share of the participant's first quarter of marks (the first ceil(marks / 4), reveals left out)
   * that lie on a foothold line, and the share of the board's cells on one (what a participant blind to footholds
   * would reach on average); null without marks.
   */
  foothold_early_share: number | null;
  foothold_board_share: number;
  /**
   * How the participant moved through the board, as one word (null under four marks): `row-major` when at least
   * three quarters of consecutive marks go forward in reading order and at least half stay in their row (a sweep,
   * row by row); else `foothold-driven` when at least three quarters of the first quarter of marks lie on foothold
   * lines and that share is above the board's own; else `scattered`.
   */
  line_order: 'row-major' | 'foothold-driven' | 'scattered' | null;
}

export const STRATEGY_COLUMNS = [
  'participant_id', 'puzzle_id', 'kind', 'position', 'attempt', 'changes', 'marks', 'overlap', 'line', 'two_lines', 'probing', 'guess',
  'share_overlap', 'share_line', 'share_two_lines', 'share_probing', 'share_guess', 'share_line_family', 'backtracks',
  'time_overlap_s', 'time_line_s', 'time_two_lines_s', 'time_probing_s', 'time_guess_s', 'first_row', 'first_col', 'first_reasoning', 'first_on_foothold',
  'same_line_share', 'reading_order_share', 'foothold_early_share', 'foothold_board_share', 'line_order',
] as const satisfies readonly (keyof StrategyRow)[];

const LEVEL_KEY = { overlap: 'overlap', line: 'line', 'two-lines': 'two_lines', probing: 'probing', guess: 'guess' } as const;

/** Rows and columns of a puzzle determined by their clue alone (an empty clue, or runs that fill the line exactly: metrics.ts's footholds). */
function footholdLines(puzzle: SignalPuzzle): { rows: boolean[]; cols: boolean[] } {
  const clues = solutionClues(puzzle);
  const fixes = (clue: readonly number[], n: number) => clue.length === 0 || clue.reduce((s, b) => s + b, 0) + clue.length - 1 === n;
  return { rows: clues.rows.map((c) => fixes(c, puzzle.width)), cols: clues.cols.map((c) => fixes(c, puzzle.height)) };
}

/** The share of a puzzle's cells that lie on a foothold line. */
function footholdCellShare(feet: { rows: boolean[]; cols: boolean[] }, puzzle: SignalPuzzle): number {
  let on = 0;
  for (let r = 0; r < puzzle.height; r++) for (let c = 0; c < puzzle.width; c++) if (feet.rows[r] || feet.cols[c]) on++;
  return on / (puzzle.width * puzzle.height);
}

/** Each attempt's strategy row from its trajectory rows (as sessionTrajectory gives them: an attempt's rows together, in order). */
export function attemptStrategies(rows: readonly TrajectoryRow[], puzzles: ReadonlyMap<string, SignalPuzzle>): StrategyRow[] {
  const out: StrategyRow[] = [];
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  let cur: StrategyRow | null = null;
  let feet: { rows: boolean[]; cols: boolean[] } | null = null;
  let prev: TrajectoryRow | null = null;
  let pairs = 0, sameLine = 0, sameRow = 0, readingOrder = 0;
  let ownMarks: boolean[] = []; // each participant mark in order: on a foothold line?
  const finish = () => {
    if (!cur) return;
    cur.same_line_share = pairs ? sameLine / pairs : null;
    cur.reading_order_share = pairs ? readingOrder / pairs : null;
    const early = ownMarks.slice(0, Math.ceil(ownMarks.length / 4));
    cur.foothold_early_share = early.length ? early.filter(Boolean).length / early.length : null;
    if (ownMarks.length >= 4) {
      const rowMajor = readingOrder / pairs >= 0.75 && sameRow / pairs >= 0.5;
      const footholdDriven = cur.foothold_early_share! >= 0.75 && cur.foothold_early_share! > cur.foothold_board_share;
      cur.line_order = rowMajor ? 'row-major' : footholdDriven ? 'foothold-driven' : 'scattered';
    }
    const m = cur.marks;
    const share = (k: number) => (m ? k / m : null);
    cur.share_overlap = share(cur.overlap);
    cur.share_line = share(cur.line);
    cur.share_two_lines = share(cur.two_lines);
    cur.share_probing = share(cur.probing);
    cur.share_guess = share(cur.guess);
    cur.share_line_family = share(cur.overlap + cur.line + cur.two_lines);
    for (const k of ['time_overlap_s', 'time_line_s', 'time_two_lines_s', 'time_probing_s', 'time_guess_s'] as const) cur[k] = round3(cur[k] / 1000);
    out.push(cur);
  };
  for (const r of rows) {
    if (!cur || cur.participant_id !== r.participant_id || cur.attempt !== r.attempt) {
      finish();
      const puzzle = puzzles.get(r.puzzle_id);
      if (!puzzle) throw new Error(`puzzle '${r.puzzle_id}' is not in the puzzle set`);
      feet = footholdLines(puzzle);
      cur = {
        participant_id: r.participant_id, puzzle_id: r.puzzle_id, kind: r.kind, position: r.position, attempt: r.attempt, changes: 0, marks: 0,
        overlap: 0, line: 0, two_lines: 0, probing: 0, guess: 0, share_overlap: null, share_line: null, share_two_lines: null, share_probing: null,
        share_guess: null, share_line_family: null, backtracks: 0, time_overlap_s: 0, time_line_s: 0, time_two_lines_s: 0, time_probing_s: 0,
        time_guess_s: 0, first_row: null, first_col: null, first_reasoning: null, first_on_foothold: null, same_line_share: null, reading_order_share: null,
        foothold_early_share: null, foothold_board_share: footholdCellShare(feet, puzzle), line_order: null,
      };
      prev = null;
      pairs = sameLine = sameRow = readingOrder = 0;
      ownMarks = [];
    }
    cur.changes++;
    if (r.backtrack) cur.backtracks++;
    if (r.reasoning !== null) {
      const key = LEVEL_KEY[r.reasoning];
      cur.marks++;
      cur[key]++;
      cur[`time_${key}_s`] += r.gap_ms ?? 0;
    }
    if (r.reasoning !== null && r.source !== 'system') {
      ownMarks.push(feet!.rows[r.row] || feet!.cols[r.col]);
      if (prev) {
        pairs++;
        if (r.row === prev.row || r.col === prev.col) sameLine++;
        if (r.row === prev.row) sameRow++;
        if (r.row > prev.row || (r.row === prev.row && r.col > prev.col)) readingOrder++;
      }
      prev = r;
    }
    if (cur.first_row === null && r.source !== 'system') {
      cur.first_row = r.row;
      cur.first_col = r.col;
      cur.first_reasoning = r.reasoning;
      cur.first_on_foothold = feet!.rows[r.row] || feet!.cols[r.col];
    }
  }
  finish();
  return out;
}
