// Board state and applyMove: the one place a move becomes the next board (undo history included).
import type { Move } from '../schema/move.ts';
import { EMPTY, FILLED, UNKNOWN, createGrid, type CellState, type Grid } from '../nonogram/grid.ts';

/**
 * The undoable part of a participant's puzzle (Tatham's game_state): the cells, where EMPTY means "crossed",
 * and the stack of earlier cell arrays. UI state (cursor, drag) and session facts (time, hints) live elsewhere.
 */
export interface BoardState {
  grid: Grid;
  history: Uint8Array[];
}

export function initialBoard(width: number, height: number): BoardState {
  return { grid: createGrid(width, height), history: [] };
}

const STATE_OF = { filled: FILLED, crossed: EMPTY, unknown: UNKNOWN } as const;

function inside(grid: Grid, row: number, col: number): boolean {
  return row >= 0 && col >= 0 && row < grid.height && col < grid.width;
}

function paint(state: BoardState, cells: [number, number][], value: (current: CellState) => CellState): BoardState {
  const next = state.grid.cells.slice();
  let changed = false;
  for (const [row, col] of cells) {
    if (!inside(state.grid, row, col)) continue;
    const i = row * state.grid.width + col;
    const v = value(next[i] as CellState);
    if (next[i] !== v) {
      next[i] = v;
      changed = true;
    }
  }
  if (!changed) return state;
  return { grid: { ...state.grid, cells: next }, history: [...state.history, state.grid.cells] };
}

/** Apply one move. Moves that do not touch the board (hint, submit, skip, no-op paints) return the same state. */
export function applyMove(state: BoardState, move: Move): BoardState {
  switch (move.type) {
    case 'fill':
      return paint(state, [[move.row, move.col]], (c) => (c === FILLED ? UNKNOWN : FILLED));
    case 'cross':
      return paint(state, [[move.row, move.col]], (c) => (c === EMPTY ? UNKNOWN : EMPTY));
    case 'clear':
      return paint(state, [[move.row, move.col]], () => UNKNOWN);
    case 'stroke':
      return paint(state, move.cells, () => STATE_OF[move.state]);
    case 'reveal':
      return paint(state, [[move.row, move.col]], () => STATE_OF[move.state]);
    case 'undo': {
      if (state.history.length === 0) return state;
      const previous = state.history[state.history.length - 1];
      return { grid: { ...state.grid, cells: previous }, history: state.history.slice(0, -1) };
    }
    case 'reset': {
      if (state.grid.cells.every((c) => c === UNKNOWN)) return state;
      return { grid: createGrid(state.grid.width, state.grid.height), history: [...state.history, state.grid.cells] };
    }
    case 'hint':
    case 'submit':
    case 'skip':
      return state;
  }
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
