// A participant's Sudoku board and the one place a move becomes the next board (undo history included), the way
// shared/game/board.ts is for Nonograms. Pure (no I/O, no clock). The client's state, the server's check, the replay
// and the analysis all fold moves through applySudokuMove, so they agree cell for cell.
//
// A cell holds a digit (0: none) and a set of pencil marks (bit d-1 for digit d). Givens never change. The rules:
// - set_digit / reveal_digit write the digit (the cell's marks stay under it and show again once it is cleared);
// - pencil toggles one mark of a cell that holds no digit (on a cell with a digit it does nothing);
// - clear erases the digit, or when there is none, every mark of the cell;
// - reset erases every digit and mark the participant made; undo takes back the last move that changed the board;
// - a move on a given, off the board, or with a digit above the side changes nothing (and is not undoable);
// - hint, submit, skip change nothing.
import type { Move } from '../schema/move.ts';
import { DIGIT_SYMBOLS, digitSymbol, shapeOf } from './grid.ts';
import { conflicts } from './candidates.ts';

/** A symbol's value on a board of side n: 1..n for a digit, 0 for anything else (the page's board imports no zod schema). */
function symbolValue(ch: string, n: number): number {
  const v = ch.length === 1 ? DIGIT_SYMBOLS.indexOf(ch) + 1 : 0;
  return v >= 1 && v <= n ? v : 0;
}

/** The cells of one moment: digits (0 = none) and pencil marks (bit d-1 = digit d), both in reading order. */
export interface SudokuCells {
  readonly digits: Uint8Array;
  readonly marks: Uint32Array;
}

/** The undo history as a persistent stack (as shared/game/board.ts UndoHistory): newest on top, shared by later states. */
export interface SudokuHistory {
  readonly length: number;
  readonly cells: SudokuCells | null;
  readonly below: SudokuHistory | null;
}

const NO_HISTORY: SudokuHistory = /* @__PURE__ */ Object.freeze({ length: 0, cells: null, below: null });

/** The undoable part of a participant's Sudoku: side, givens (never written), the cells now, and the history. */
export interface SudokuState {
  readonly size: number;
  /** 1 where the cell is a given, else 0 (reading order). */
  readonly given: Uint8Array;
  readonly cells: SudokuCells;
  readonly history: SudokuHistory;
}

/** The start of an attempt: the givens (rows of symbols, '.' empty) written in, no marks, no history. */
export function initialSudoku(givens: readonly string[]): SudokuState {
  const n = givens.length;
  const digits = new Uint8Array(n * n);
  const given = new Uint8Array(n * n);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const v = symbolValue(givens[r]?.[c] ?? '.', n);
      if (v > 0) {
        digits[r * n + c] = v;
        given[r * n + c] = 1;
      }
    }
  return { size: n, given, cells: { digits, marks: new Uint32Array(n * n) }, history: NO_HISTORY };
}

/**
 * The cells after `move` on `cells`, or null when the move changes nothing. Never writes `cells` (states share them).
 */
function cellsAfter(n: number, given: Uint8Array, cells: SudokuCells, move: Move): SudokuCells | null {
  const at = (row: number, col: number) => (row < 0 || col < 0 || row >= n || col >= n ? -1 : row * n + col);
  switch (move.type) {
    case 'set_digit':
    case 'reveal_digit': {
      const i = at(move.row, move.col);
      if (i < 0 || given[i] || move.digit > n || cells.digits[i] === move.digit) return null;
      const digits = cells.digits.slice();
      digits[i] = move.digit;
      return { digits, marks: cells.marks };
    }
    case 'pencil': {
      const i = at(move.row, move.col);
      if (i < 0 || given[i] || move.digit > n || cells.digits[i] !== 0) return null;
      const marks = cells.marks.slice();
      marks[i] ^= 1 << (move.digit - 1);
      return { digits: cells.digits, marks };
    }
    case 'clear': {
      const i = at(move.row, move.col);
      if (i < 0 || given[i]) return null;
      if (cells.digits[i] !== 0) {
        const digits = cells.digits.slice();
        digits[i] = 0;
        return { digits, marks: cells.marks };
      }
      if (cells.marks[i] === 0) return null;
      const marks = cells.marks.slice();
      marks[i] = 0;
      return { digits: cells.digits, marks };
    }
    case 'reset': {
      let changed = false;
      const digits = cells.digits.slice();
      const marks = new Uint32Array(n * n);
      for (let i = 0; i < n * n; i++) {
        if (cells.marks[i] !== 0) changed = true;
        if (!given[i] && digits[i] !== 0) {
          digits[i] = 0;
          changed = true;
        }
      }
      return changed ? { digits, marks } : null;
    }
    default:
      return null; // Nonogram paints, hint, submit, skip: nothing on a Sudoku board
  }
}

/** Apply one move. A move that changes nothing returns the same state (and pushes no undo step). */
export function applySudokuMove(state: SudokuState, move: Move): SudokuState {
  if (move.type === 'undo') {
    const { cells, below } = state.history;
    if (cells === null || below === null) return state;
    return { ...state, cells, history: below };
  }
  const next = cellsAfter(state.size, state.given, state.cells, move);
  if (next === null) return state;
  return { ...state, cells: next, history: { length: state.history.length + 1, cells: state.cells, below: state.history } };
}

/** Replay moves from the givens. */
export function replaySudoku(givens: readonly string[], moves: readonly Move[]): SudokuState {
  return moves.reduce(applySudokuMove, initialSudoku(givens));
}

/** The board as the server's check and hint read it (PuzzleKind.check / hint): rows of digit symbols, '.' empty. */
export function sudokuRows(state: Pick<SudokuState, 'size' | 'cells'>): string[] {
  const n = state.size;
  const rows: string[] = [];
  for (let r = 0; r < n; r++) {
    let line = '';
    for (let c = 0; c < n; c++) line += digitSymbol(state.cells.digits[r * n + c]);
    rows.push(line);
  }
  return rows;
}

/** The digits a cell's marks hold, ascending. */
export function marksOf(state: Pick<SudokuState, 'size' | 'cells'>, i: number): number[] {
  const m = state.cells.marks[i];
  const out: number[] = [];
  for (let d = 1; d <= state.size; d++) if (m & (1 << (d - 1))) out.push(d);
  return out;
}

/** Cells whose digit differs from the solution's (rows of symbols); empty cells are not wrong. */
export function wrongSudokuCells(state: Pick<SudokuState, 'size' | 'cells'>, solution: readonly string[]): number[] {
  const n = state.size;
  const wrong: number[] = [];
  for (let i = 0; i < n * n; i++) {
    const d = state.cells.digits[i];
    if (d !== 0 && d !== symbolValue(solution[Math.floor(i / n)]?.[i % n] ?? '.', n)) wrong.push(i);
  }
  return wrong;
}

/**
 * The digits a move entered and, among them, the errors (cell indices): the Sudoku's error rule, shared by attempts.csv
 * (shared/signals/attempts.ts) and the dashboard's replay, as paintedCells (shared/log/rules.ts) is the Nonogram's. A
 * `set_digit` that changed the board enters one digit, an error when the solution has another digit there (each entry
 * counts: the same wrong digit written twice is two errors). Every other move (clear, pencil, undo, reset, a hint's
 * `reveal_digit`) enters none. `before`/`after`: the states around the move (applySudokuMove returns the same state
 * when a move changes nothing).
 */
export function enteredDigits(move: Move, before: SudokuState, after: SudokuState, solution: readonly string[]): { filled: number; errors: number[] } {
  if (move.type !== 'set_digit' || after === before) return { filled: 0, errors: [] };
  const i = move.row * after.size + move.col;
  return { filled: 1, errors: solution[move.row]?.[move.col] === digitSymbol(move.digit) ? [] : [i] };
}

/**
 * Cells (reading order) whose digit repeats another digit of its row, column or box (what the board flags when the
 * study sets `sudoku.flag_conflicts`): every cell of each clashing pair `conflicts` (candidates.ts) finds.
 */
export function clashingCells(state: Pick<SudokuState, 'size' | 'cells'>, box: readonly [number, number]): Set<number> {
  const out = new Set<number>();
  for (const c of conflicts({ ...shapeOf(box[0], box[1]), cells: state.cells.digits })) {
    out.add(c.a);
    out.add(c.b);
  }
  return out;
}
