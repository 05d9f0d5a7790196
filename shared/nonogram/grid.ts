// Grid model: a width x height board of tri-state cells stored row-major in a Uint8Array.

export const UNKNOWN = 0;
export const FILLED = 1;
export const EMPTY = 2;
export type CellState = typeof UNKNOWN | typeof FILLED | typeof EMPTY;

export interface Grid {
  width: number;
  height: number;
  cells: Uint8Array;
}

/** A line's clue: the ordered run lengths (empty array = an all-empty line). */
export type Clue = number[];
export interface Clues {
  rows: Clue[];
  cols: Clue[];
}

export function createGrid(width: number, height: number, fill: CellState = UNKNOWN): Grid {
  return { width, height, cells: new Uint8Array(width * height).fill(fill) };
}

export function cloneGrid(grid: Grid): Grid {
  return { width: grid.width, height: grid.height, cells: grid.cells.slice() };
}

export function cellAt(grid: Grid, row: number, col: number): CellState {
  return grid.cells[row * grid.width + col] as CellState;
}

export function inBounds(grid: Grid, row: number, col: number): boolean {
  return Number.isInteger(row) && Number.isInteger(col) && row >= 0 && col >= 0 && row < grid.height && col < grid.width;
}

/** Parse rows written with '#' (filled), '.' (empty) and '?' (unknown). */
export function gridFromRows(rows: string[]): Grid {
  const height = rows.length;
  const width = height === 0 ? 0 : rows[0].length;
  const grid = createGrid(width, height);
  rows.forEach((line, r) => {
    if (line.length !== width) throw new Error(`row ${r}: expected ${width} characters, got ${line.length}`);
    for (let c = 0; c < width; c++) {
      const ch = line[c];
      const state = ch === '#' ? FILLED : ch === '.' ? EMPTY : ch === '?' ? UNKNOWN : -1;
      if (state < 0) throw new Error(`row ${r}, column ${c}: unexpected character '${ch}'`);
      grid.cells[r * width + c] = state;
    }
  });
  return grid;
}

export function gridToRows(grid: Grid): string[] {
  const out: string[] = [];
  for (let r = 0; r < grid.height; r++) {
    let line = '';
    for (let c = 0; c < grid.width; c++) {
      const s = grid.cells[r * grid.width + c];
      line += s === FILLED ? '#' : s === EMPTY ? '.' : '?';
    }
    out.push(line);
  }
  return out;
}

/** Run lengths of the filled cells of the line (start, length, step) of a fully known grid. */
export function lineClue(cells: ArrayLike<number>, start: number, length: number, step: number): Clue {
  const clue: Clue = [];
  let run = 0;
  for (let i = 0; i < length; i++) {
    if (cells[start + i * step] === FILLED) run++;
    else if (run > 0) {
      clue.push(run);
      run = 0;
    }
  }
  if (run > 0) clue.push(run);
  return clue;
}

/** The clues of a solution grid: rows top to bottom, columns left to right. */
export function cluesOf(grid: Grid): Clues {
  const rows: Clue[] = [];
  const cols: Clue[] = [];
  for (let r = 0; r < grid.height; r++) rows.push(lineClue(grid.cells, r * grid.width, grid.width, 1));
  for (let c = 0; c < grid.width; c++) cols.push(lineClue(grid.cells, c, grid.height, grid.width));
  return { rows, cols };
}
