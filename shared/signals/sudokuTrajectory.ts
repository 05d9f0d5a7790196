// A Sudoku attempt's trajectory rows: one per change of a cell's digit, labelled by the technique ladder on the board before it.
/*
 * The moves are replayed with applySudokuMove's rules (shared/sudoku/board.ts, the client's and the server's). A
 * Sudoku cell's value is its digit: every move that changes digits gives one row per changed cell, in the order the
 * cells changed (set_digit, reveal_digit and clear their one cell; undo and reset in reading order). Pencil marks are
 * notes, not a cell's value: a pencil toggle, or a clear, undo or reset that only changes marks, gives no row (the
 * attempt row counts them: pencil_marks, pencil_cells). `before` and `after` are digit symbols (1-9, A...) or
 * `unknown` for a cell without a digit. A row's columns mean what a Nonogram's do (trajectory.ts): `correct` the new
 * digit is the solution's; `error` the paper's rule as the Sudoku attempt rows count it (a set_digit writing a digit
 * the solution does not have there; reveals never); `board_right` the share of the open cells (those without a given)
 * holding the solution's digit; `wrong_cells` the cells holding another digit (wrongSudokuCells); `stroke` and
 * `stroke_cell` are empty. A digit written is labelled by sudokuMoveLabel (shared/sudoku/reasoning.ts: the weakest
 * rung of the ladder of the hints and grades that places it, or guess) on the participant's digits just before it; a
 * digit cleared has no label. Backtracking is a Nonogram's rule: the cell takes a value (a digit, or none) it already
 * held earlier in the attempt.
 */
import { applySudokuMove, initialSudoku, type SudokuState } from '../sudoku/board.ts';
import { defaultBox, digitSymbol, shapeOf } from '../sudoku/grid.ts';
import { sudokuMoveLabel } from '../sudoku/reasoning.ts';
import { elapsedMs } from '../log/rules.ts';
import type { AttemptFrame, TrajectoryRow } from './trajectoryRow.ts';

/** The digit of a solution symbol on a board of side n (0 for anything else). */
function digitOf(ch: string | undefined, n: number): number {
  for (let v = 1; v <= n; v++) if (digitSymbol(v) === ch) return v;
  return 0;
}

/** Append the rows of one Sudoku attempt. */
export function sudokuAttemptRows(frame: AttemptFrame, rows: TrajectoryRow[]): void {
  const { session, puzzle, position, attempt, start, moves, gaps } = frame;
  const n = puzzle.width;
  const [br, bc] = puzzle.box ?? defaultBox(n);
  const shape = shapeOf(br, bc);
  const want = new Uint8Array(n * n);
  for (let i = 0; i < n * n; i++) want[i] = digitOf(puzzle.solution[(i / n) | 0]?.[i % n], n);
  let state: SudokuState = initialSudoku(puzzle.givens ?? []);
  let open = 0;
  for (let i = 0; i < n * n; i++) if (!state.given[i]) open++;
  const cur = state.cells.digits.slice(); // the board as the changes are applied one by one
  const held: Set<number>[] = Array.from({ length: n * n }, () => new Set([0]));
  const name = (v: number) => (v === 0 ? 'unknown' : digitSymbol(v));
  let right = 0;
  let wrong = 0;
  let change = 0;
  let action = 0;
  moves.forEach((m, k) => {
    const move = m.payload.move;
    const system = m.source === 'system';
    if (!system) action++;
    const next = applySudokuMove(state, move);
    const before = state.cells.digits;
    state = next;
    if (move.type === 'hint' || move.type === 'submit' || move.type === 'skip' || move.type === 'pencil') return;
    const changed: number[] = [];
    for (let i = 0; i < n * n; i++) if (before[i] !== state.cells.digits[i]) changed.push(i);
    if (changed.length === 0) return;
    const t = Math.max(0, Math.round(elapsedMs(start, m)));
    for (const i of changed) {
      const was = cur[i];
      const now = state.cells.digits[i];
      const label = now === 0 ? null : sudokuMoveLabel(shape, cur, i, now);
      cur[i] = now;
      const isRight = (v: number) => (v !== 0 && v === want[i] ? 1 : 0);
      const isWrong = (v: number) => (v !== 0 && v !== want[i] ? 1 : 0);
      right += isRight(now) - isRight(was);
      wrong += isWrong(now) - isWrong(was);
      const backtrack = held[i].has(now);
      held[i].add(now);
      rows.push({
        participant_id: session,
        puzzle_id: puzzle.id,
        kind: 'sudoku',
        position,
        attempt,
        change: ++change,
        move: k + 1,
        index: system ? null : action,
        action: move.type as TrajectoryRow['action'],
        source: m.source,
        stroke: null,
        stroke_cell: null,
        t_ms: t,
        gap_ms: system ? null : (gaps.get(`${action}:-1`) ?? null),
        row: (i / n) | 0,
        col: i % n,
        before: name(was),
        after: name(now),
        correct: now !== 0 && now === want[i],
        error: move.type === 'set_digit' && now !== want[i],
        board_right: open ? right / open : 1,
        wrong_cells: wrong,
        reasoning: label,
        backtrack,
      });
    }
  });
}
