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
import type { PaintState } from '../schema/move.ts';
import { BoardReplay } from '../game/board.ts';
import { actionGaps, elapsedMs, paintedCellsInReplay, type GapLevel } from '../log/rules.ts';
import { EMPTY, FILLED, UNKNOWN, cluesOf, createGrid, type Clues } from '../nonogram/grid.ts';
import { MoveReasoning } from '../nonogram/reasoning.ts';
import { UnknownPuzzleError, attemptWindow, groupAttempts, type SignalPuzzle } from './attempts.ts';
import type { SessionLog } from './session.ts';
import { sudokuAttemptRows } from './sudokuTrajectory.ts';
import type { AttemptFrame, TrajectoryRow } from './trajectoryRow.ts';

export { TRAJECTORY_COLUMNS, type TrajectoryAction, type TrajectoryLabel, type TrajectoryRow } from './trajectoryRow.ts';

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
    if (!puzzle) throw new UnknownPuzzleError(log.session_id, group);
    const frame = attemptWindow(log, group);
    if (frame === null) continue;
    attempt++;
    if (options.puzzleId !== undefined && options.puzzleId !== group.puzzleId) continue;
    const moves = frame.moves.filter((m) => m.seq <= frame.end.seq);
    const actions = moves.filter((m) => m.source !== 'system');
    const gaps = new Map<string, number>();
    for (const g of actionGaps(actions, options.gapLevel ?? 'cell')) gaps.set(`${g.action}:${g.cell ?? -1}`, Math.round(g.seconds * 1000));
    const attemptFrame: AttemptFrame = { session: log.session_id, puzzle, position: group.position, attempt, start: frame.start, moves, gaps };
    if (puzzle.kind === 'sudoku') sudokuAttemptRows(attemptFrame, rows);
    else attemptRows(attemptFrame, rows);
  }
  return rows;
}

function attemptRows(frame: AttemptFrame, rows: TrajectoryRow[]): void {
  const { session, puzzle, position, attempt, start, moves, gaps } = frame;
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
    if (move.type === 'hint' || move.type === 'submit' || move.type === 'skip' || move.type === 'pencil' || move.type === 'set_digit' || move.type === 'reveal_digit') {
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

