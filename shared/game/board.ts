// Board state and applyMove: the one place a move becomes the next board (undo history included).
import type { Move } from '../schema/move.ts';
import { EMPTY, FILLED, UNKNOWN, createGrid, type CellState, type Grid } from '../nonogram/grid.ts';

/**
 * The undo history as a persistent stack, newest entry on top: `cells` is the board before the last undoable move,
 * `below` the history before that. A move pushes by making one new node that shares every older one, and undo pops
 * by following `below`, so neither copies the history (an attempt of n moves costs O(n), not O(n^2), to replay: the
 * analysis replays millions of moves). `length` is the number of undo steps available.
 */
export interface UndoHistory {
  readonly length: number;
  readonly cells: Uint8Array | null;
  readonly below: UndoHistory | null;
}

// (Pure: a module-level call the bundler cannot prove side-effect free splits the participant bundle into an extra chunk.)
const NO_HISTORY: UndoHistory = /* @__PURE__ */ Object.freeze({ length: 0, cells: null, below: null });

const push = (history: UndoHistory, cells: Uint8Array): UndoHistory => ({ length: history.length + 1, cells, below: history });

/**
 * The undoable part of a participant's puzzle (Tatham's game_state): the cells, where EMPTY means "crossed",
 * and the stack of earlier cell arrays. UI state (cursor, drag) and session facts (time, hints) live elsewhere.
 * A state's cell array is never written after the state is made (states share arrays with their histories).
 */
export interface BoardState {
  grid: Grid;
  history: UndoHistory;
}

export function initialBoard(width: number, height: number): BoardState {
  return { grid: createGrid(width, height), history: NO_HISTORY };
}

const STATE_OF = { filled: FILLED, crossed: EMPTY, unknown: UNKNOWN } as const;

/**
 * The board rule of every move that paints, in one place for applyMove and BoardReplay: calls set(i, v) for each cell
 * index the move sets (inside the grid) and its new value, in order. `cells` is the board before the move (only a
 * toggle reads it, before anything is set). A click on a cell toggles it (fill or cross, again: unknown); clear and
 * reset make cells unknown; a stroke and a reveal set their state. Undo, hint, submit and skip paint nothing.
 */
function paintsOf(move: Move, width: number, height: number, cells: Uint8Array, set: (i: number, v: CellState) => void): void {
  const at = (row: number, col: number) => (row < 0 || col < 0 || row >= height || col >= width ? -1 : row * width + col);
  switch (move.type) {
    case 'fill':
    case 'cross': {
      const i = at(move.row, move.col);
      const on = move.type === 'fill' ? FILLED : EMPTY;
      if (i >= 0) set(i, cells[i] === on ? UNKNOWN : on);
      return;
    }
    case 'clear':
    case 'reveal': {
      const i = at(move.row, move.col);
      if (i >= 0) set(i, move.type === 'clear' ? UNKNOWN : STATE_OF[move.state]);
      return;
    }
    case 'stroke': {
      const v = STATE_OF[move.state];
      for (let k = 0; k < move.cells.length; k++) {
        const i = at(move.cells[k][0], move.cells[k][1]);
        if (i >= 0) set(i, v);
      }
      return;
    }
    case 'reset':
      for (let i = 0; i < cells.length; i++) set(i, UNKNOWN);
      return;
    case 'undo':
    case 'hint':
    case 'submit':
    case 'skip':
      return;
  }
}

/** Apply one move. Moves that do not touch the board (hint, submit, skip, no-op paints) return the same state. */
export function applyMove(state: BoardState, move: Move): BoardState {
  if (move.type === 'undo') {
    const { cells, below } = state.history;
    if (cells === null || below === null) return state;
    return { grid: { ...state.grid, cells }, history: below };
  }
  // Copy on the first change: a state's cell array is never written after the state is made.
  const before = state.grid.cells;
  let next: Uint8Array | null = null;
  paintsOf(move, state.grid.width, state.grid.height, before, (i, v) => {
    if ((next ?? before)[i] === v) return;
    next ??= before.slice();
    next[i] = v;
  });
  if (next === null) return state;
  return { grid: { ...state.grid, cells: next }, history: push(state.history, before) };
}

/** Replay a list of moves from an empty board. */
export function replayMoves(width: number, height: number, moves: readonly Move[]): BoardState {
  return moves.reduce(applyMove, initialBoard(width, height));
}

/** Rows as sent to the server for checking: '#' filled, 'x' crossed, '?' unknown. */
export function boardRows(grid: Grid): string[] {
  const rows: string[] = [];
  for (let r = 0; r < grid.height; r++) {
    let line = '';
    for (let c = 0; c < grid.width; c++) {
      const v = grid.cells[r * grid.width + c];
      line += v === FILLED ? '#' : v === EMPTY ? 'x' : '?';
    }
    rows.push(line);
  }
  return rows;
}

/** The inverse of boardRows: '#' filled, 'x' crossed (EMPTY), anything else unknown. */
export function gridFromBoardRows(rows: readonly string[], width: number, height: number): Grid {
  const grid = createGrid(width, height);
  for (let r = 0; r < height; r++)
    for (let c = 0; c < width; c++) {
      const ch = rows[r]?.[c];
      grid.cells[r * width + c] = ch === '#' ? FILLED : ch === 'x' ? EMPTY : UNKNOWN;
    }
  return grid;
}

/** True when the filled cells are exactly the solution's (crossed and unknown both count as empty). */
export function matchesSolution(rows: readonly string[], solution: readonly string[]): boolean {
  if (rows.length !== solution.length) return false;
  return solution.every((want, r) => {
    const got = rows[r];
    if (got.length !== want.length) return false;
    for (let c = 0; c < want.length; c++) if ((got[c] === '#') !== (want[c] === '#')) return false;
    return true;
  });
}

/** Cells filled where the solution is empty, plus cells crossed where it is filled. */
export function countWrongCells(rows: readonly string[], solution: readonly string[]): number {
  let wrong = 0;
  solution.forEach((want, r) => {
    const got = rows[r] ?? '';
    for (let c = 0; c < want.length; c++) {
      if (got[c] === '#' && want[c] !== '#') wrong++;
      if (got[c] === 'x' && want[c] === '#') wrong++;
    }
  });
  return wrong;
}

/**
 * applyMove's rules on one mutable board, for replaying long logs (the analysis replays millions of moves): the cells
 * change in place, and each undoable move keeps only the cells it changed and their earlier values, so a move costs
 * the cells it touches and allocates nothing (applyMove copies the cell array, which the client's immutable state
 * needs). After apply(), the move's changes are `changed` (cell indices) and `before` (their earlier values) from
 * `from` to `to`; a move that changed nothing has from === to. A test replays random move logs through both and
 * compares every board and undo depth.
 */
export class BoardReplay {
  readonly width: number;
  readonly height: number;
  readonly cells: Uint8Array;
  /** The undo history: entry e changed cells changed[ends[e-1] .. ends[e]) whose earlier values are before[...]. */
  readonly changed: number[] = [];
  readonly before: number[] = [];
  private readonly ends: number[] = [];
  /** The last move's changes: changed/before[from, to). */
  from = 0;
  to = 0;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.cells = createGrid(width, height).cells;
  }

  /** Undo steps available (BoardState.history.length after the same moves). */
  get depth(): number {
    return this.ends.length;
  }

  /** The board as a Grid (shares the cells: read it before the next apply). */
  get grid(): Grid {
    return { width: this.width, height: this.height, cells: this.cells };
  }

  private set(i: number, v: number): void {
    if (this.cells[i] === v) return;
    this.changed.push(i);
    this.before.push(this.cells[i]);
    this.cells[i] = v;
  }

  private readonly setCell = (i: number, v: number): void => this.set(i, v);

  /** Apply one move (the same board and undo depth as applyMove: the same rule, paintsOf). */
  apply(move: Move): void {
    const start = this.changed.length;
    this.from = this.to = start;
    if (move.type === 'undo') {
      const n = this.ends.length;
      if (n === 0) return;
      const from = n > 1 ? this.ends[n - 2] : 0;
      for (let k = this.changed.length - 1; k >= from; k--) this.cells[this.changed[k]] = this.before[k];
      this.changed.length = from;
      this.before.length = from;
      this.ends.pop();
      this.from = this.to = from;
      return;
    }
    paintsOf(move, this.width, this.height, this.cells, this.setCell);
    if (this.changed.length > start) {
      this.ends.push(this.changed.length);
      this.to = this.changed.length;
    }
  }
}
