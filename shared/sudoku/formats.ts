// Sudoku files in and out: the 81-character line (N² symbols, one board a line), a grid text, and our JSON/NDJSON records.
//
// The line format is the one published collections use: the cells in reading order, '.' or '0'
// for an empty cell, digits 1-9 then letters A, B, C… past 9 (lower case read as upper case). Its
// side is inferred from its length (81 -> 9x9, 256 -> 16x16, 16 -> 4x4…), its box from the side
// (grid.ts defaultBox) unless one is given. Text after the board on the same line (whitespace, then
// anything: a name, a rating) is ignored, as are blank lines and lines starting with '#'.
// The grid text is one row a line; spaces, '|' and separator lines of '-', '+', '=' are ignored.
// Every error is a SudokuFormatError naming the file and the line.
import { DIGIT_SYMBOLS, type Grid, defaultBox, digitSymbol, gridRows, shapeOf } from './grid.ts';
import { hash53 } from '../nonogram/id.ts';
import { SudokuPuzzle } from './schema.ts';
import { countSolutions } from './solver.ts';

export class SudokuFormatError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${message}`);
    this.name = 'SudokuFormatError';
  }
}

/** A board read from a file, with the line it came from (1-based). */
export interface ParsedBoard {
  grid: Grid;
  line: number;
  /** The rest of the line after the board, if any (line format only). */
  comment?: string;
}

const show = (s: string) => (s.length > 24 ? `${JSON.stringify(s.slice(0, 24))}…` : JSON.stringify(s));

/** Symbols to values; throws a plain Error naming the first bad symbol's cell. */
function cellsOf(symbols: string, n: number): Uint8Array {
  const cells = new Uint8Array(n * n);
  for (let i = 0; i < symbols.length; i++) {
    const ch = symbols[i];
    if (ch === '.' || ch === '0') continue;
    const v = DIGIT_SYMBOLS.indexOf(ch.toUpperCase()) + 1;
    if (v < 1 || v > n) {
      throw new Error(`r${Math.floor(i / n) + 1}c${(i % n) + 1} is '${ch}', expected ${DIGIT_SYMBOLS[0]}-${DIGIT_SYMBOLS[n - 1]}, '.' or '0' on a ${n}x${n} board`);
    }
    cells[i] = v;
  }
  return cells;
}

/** The shape of a side, from `box` when given (checked against the side) else defaultBox. */
function shapeFor(n: number, box?: [number, number]) {
  const [br, bc] = box ?? defaultBox(n);
  if (br * bc !== n) throw new Error(`a box of ${br}x${bc} does not tile a side of ${n}`);
  return shapeOf(br, bc);
}

/** One board from its line (N² symbols). */
export function parseLine(line: string, options: { box?: [number, number] } = {}): Grid {
  const symbols = line.trim();
  const n = Math.round(Math.sqrt(symbols.length));
  if (n < 1 || n * n !== symbols.length) throw new Error(`a board line has N² symbols (81 for 9x9, 256 for 16x16), got ${symbols.length}: ${show(symbols)}`);
  if (n > DIGIT_SYMBOLS.length) throw new Error(`a side of ${n} has no symbols past ${DIGIT_SYMBOLS.length}`);
  return { ...shapeFor(n, options.box), cells: cellsOf(symbols, n) };
}

/** Every board of a line-format file (blank lines and '#' comments skipped). */
export function parseLines(text: string, file = 'input.txt', options: { box?: [number, number] } = {}): ParsedBoard[] {
  const out: ParsedBoard[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '' || t.startsWith('#')) continue;
    const m = /^(\S+)(?:\s+(.*))?$/.exec(t) as RegExpExecArray;
    try {
      const board: ParsedBoard = { grid: parseLine(m[1], options), line: i + 1 };
      if (m[2]) board.comment = m[2];
      out.push(board);
    } catch (e) {
      throw new SudokuFormatError((e as Error).message, file, i + 1);
    }
  }
  return out;
}

/** The line of a board: N² symbols, '.' for empty. */
export function writeLine(grid: Grid): string {
  let s = '';
  for (let i = 0; i < grid.cells.length; i++) s += digitSymbol(grid.cells[i]);
  return s;
}

/**
 * One board from a grid text: one row a line, spaces and '|' ignored, separator lines (only '-',
 * '+', '=', '|' and spaces) and blank lines skipped. The side is the number of rows, and each row
 * must have that many symbols.
 */
export function parseGridText(text: string, file = 'input.txt', options: { box?: [number, number] } = {}): Grid {
  const rows: { symbols: string; line: number }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const t = raw.trim();
    if (t === '' || t.startsWith('#') || /^[-+=|\s]+$/.test(t)) return;
    rows.push({ symbols: t.replace(/[\s|]+/g, ''), line: i + 1 });
  });
  const n = rows.length;
  if (n === 0) throw new SudokuFormatError('no rows', file);
  if (n > DIGIT_SYMBOLS.length) throw new SudokuFormatError(`${n} rows: sides above ${DIGIT_SYMBOLS.length} have no symbols`, file, rows[n - 1].line);
  let shape;
  try {
    shape = shapeFor(n, options.box);
  } catch (e) {
    throw new SudokuFormatError((e as Error).message, file);
  }
  const cells = new Uint8Array(n * n);
  rows.forEach((row, r) => {
    if (row.symbols.length !== n) throw new SudokuFormatError(`row ${r + 1} has ${row.symbols.length} symbols, the board has ${n} rows`, file, row.line);
    try {
      const rowCells = cellsOf(row.symbols, n);
      cells.set(rowCells.subarray(0, n), r * n);
    } catch (e) {
      throw new SudokuFormatError((e as Error).message.replace(/^r1c/, `r${r + 1}c`), file, row.line);
    }
  });
  return { ...shape, cells };
}

/** The grid text of a board: symbols spaced, '|' between boxes, a '-+-' line between bands of boxes. */
export function writeGridText(grid: Grid): string {
  const n = grid.size, out: string[] = [];
  const rule = Array.from({ length: n / grid.boxCols }, () => '-'.repeat(2 * grid.boxCols + 1)).join('+').slice(1, -1);
  for (let r = 0; r < n; r++) {
    if (r > 0 && r % grid.boxRows === 0) out.push(rule);
    const parts: string[] = [];
    for (let c = 0; c < n; c++) {
      if (c > 0 && c % grid.boxCols === 0) parts.push('|');
      parts.push(digitSymbol(grid.cells[r * n + c]));
    }
    out.push(parts.join(' '));
  }
  return out.join('\n') + '\n';
}

/** Canonical text of the givens: `N|RxC|line`. The id hashes it: changing it changes every id. */
export function canonicalGivens(grid: Grid): string {
  return `${grid.size}|${grid.boxRows}x${grid.boxCols}|${writeLine(grid)}`;
}

/** The puzzle's id from its givens, e.g. `s9x9-3fa2c81b09d4`: same givens and box, same id. */
export function puzzleId(givens: Grid): string {
  const [high, low] = hash53(canonicalGivens(givens));
  const hex = (high & 0xffff).toString(16).padStart(4, '0') + low.toString(16).padStart(8, '0');
  return `s${givens.size}x${givens.size}-${hex}`;
}

/**
 * A record of a board with exactly one solution (its id from the givens unless given). Throws an
 * Error saying why otherwise: inconsistent givens, no solution, or several.
 */
export function recordFromGivens(givens: Grid, options: { id?: string; seed?: number | string } = {}): SudokuPuzzle {
  const r = countSolutions(givens, 2);
  if (r.inconsistent) throw new Error(r.inconsistent.message);
  if (r.solutions === 0) throw new Error('the board has no solution');
  if (r.solutions > 1) throw new Error('the board has more than one solution');
  const rec: SudokuPuzzle = {
    kind: 'sudoku',
    id: options.id ?? puzzleId(givens),
    size: givens.size,
    box: [givens.boxRows, givens.boxCols],
    givens: gridRows(givens),
    solution: gridRows(r.solution as Grid),
  };
  if (options.seed !== undefined) rec.seed = options.seed;
  return rec;
}

function validate(value: unknown, file: string, line: number | undefined): SudokuPuzzle {
  const r = SudokuPuzzle.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new SudokuFormatError(`${path}${issue.message}`, file, line);
}

/** Records of a JSON file: one record or an array of them, each validated. */
export function parseSudokuJson(text: string, file = 'input.json'): SudokuPuzzle[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new SudokuFormatError(`not JSON: ${(e as Error).message}`, file);
  }
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, i) => {
    try {
      return validate(item, file, undefined);
    } catch (e) {
      throw Array.isArray(value) ? new SudokuFormatError(`record ${i + 1}: ${(e as Error).message.slice(file.length + 2)}`, file) : e;
    }
  });
}

/** Records of an NDJSON file: one JSON record a line (blank lines skipped); errors name the line. */
export function parseSudokuNdjson(text: string, file = 'input.ndjson'): SudokuPuzzle[] {
  const out: SudokuPuzzle[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new SudokuFormatError(`not JSON: ${(e as Error).message}`, file, i + 1);
    }
    out.push(validate(value, file, i + 1));
  });
  return out;
}

/** One record as one JSON line, keys in a fixed order (kind, id, size, box, givens, solution, seed, metrics). */
export function writeSudokuRecord(p: SudokuPuzzle): string {
  const o: Record<string, unknown> = { kind: 'sudoku', id: p.id, size: p.size, box: p.box, givens: p.givens, solution: p.solution };
  if (p.seed !== undefined) o.seed = p.seed;
  if (p.metrics !== undefined) o.metrics = p.metrics;
  return JSON.stringify(o);
}

/** Records as NDJSON text (one a line, with a final newline). */
export function writeSudokuNdjson(records: SudokuPuzzle[]): string {
  return records.map((r) => writeSudokuRecord(r) + '\n').join('');
}


