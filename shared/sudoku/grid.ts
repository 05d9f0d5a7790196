// The Sudoku grid model shared by every part of the Sudoku engine (pure: no I/O, no clocks, no Math.random).
//
// A board of side N = boxRows * boxCols, cells in reading order (index = r * N + c, r and c from 0),
// each cell 0 (empty) or a digit 1..N. Box shapes are data: 4x4 (2x2), 6x6 (2x3), 9x9 (3x3),
// 12x12 (3x4), 16x16 (4x4). A box is boxRows tall and boxCols wide.

export interface Shape {
  /** Side N = boxRows * boxCols. */
  readonly size: number;
  readonly boxRows: number;
  readonly boxCols: number;
}

export interface Grid extends Shape {
  /** N*N values in reading order: 0 = empty, 1..N = digit. */
  readonly cells: Uint8Array;
}

/** The symbols of a digit 1..N in text: 1-9, then A, B, C… for 10, 11, 12… */
export const DIGIT_SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function shapeOf(boxRows: number, boxCols: number): Shape {
  if (!Number.isInteger(boxRows) || !Number.isInteger(boxCols) || boxRows < 1 || boxCols < 1 || boxRows * boxCols > DIGIT_SYMBOLS.length) {
    throw new RangeError(`a Sudoku box must be whole rows x cols with at most ${DIGIT_SYMBOLS.length} cells, got ${boxRows}x${boxCols}`);
  }
  return { size: boxRows * boxCols, boxRows, boxCols };
}

/** The usual box shape of a side: 4 -> 2x2, 6 -> 2x3, 9 -> 3x3, 12 -> 3x4, 16 -> 4x4 (rows <= cols, as square as possible). */
export function defaultBox(size: number): [number, number] {
  let rows = Math.floor(Math.sqrt(size));
  while (rows > 1 && size % rows !== 0) rows--;
  return [rows, size / rows];
}

export function emptyGrid(shape: Shape): Grid {
  return { ...shape, cells: new Uint8Array(shape.size * shape.size) };
}

export function boxIndex(shape: Shape, r: number, c: number): number {
  return Math.floor(r / shape.boxRows) * (shape.size / shape.boxCols) + Math.floor(c / shape.boxCols);
}

/** The cell indexes of every unit: rows 0..N-1, then columns, then boxes (each in reading order). */
export function units(shape: Shape): { rows: number[][]; cols: number[][]; boxes: number[][] } {
  const n = shape.size;
  const rows: number[][] = [], cols: number[][] = [], boxes: number[][] = [];
  for (let i = 0; i < n; i++) { rows.push([]); cols.push([]); boxes.push([]); }
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    rows[r].push(r * n + c);
    cols[c].push(r * n + c);
    boxes[boxIndex(shape, r, c)].push(r * n + c);
  }
  return { rows, cols, boxes };
}

export function digitSymbol(v: number): string {
  return v === 0 ? '.' : DIGIT_SYMBOLS[v - 1];
}

/** One row string per row ('.' empty): the `givens` / `solution` form of a puzzle record. */
export function gridRows(grid: Grid): string[] {
  const n = grid.size, out: string[] = [];
  for (let r = 0; r < n; r++) {
    let s = '';
    for (let c = 0; c < n; c++) s += digitSymbol(grid.cells[r * n + c]);
    out.push(s);
  }
  return out;
}
