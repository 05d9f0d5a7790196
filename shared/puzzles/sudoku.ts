// The Sudoku kind: its engine is shared/sudoku/; this is its one door.
import {
  countSolutions, forcedCells, SudokuBoard, gridRows, parseGridText, parseLines, puzzleId, recordGrids, SudokuFormatError, SudokuPuzzle, sudokuDimacs,
  sudokuHint, sudokuHumanMetrics, sudokuSatMetricsRecord, SUDOKU_ENCODINGS, shapeOf, symbolValue, writeSudokuRecord, writeGridText, defaultBox, type Grid, type SudokuEncoding,
} from '../sudoku/index.ts';
import type { KindSolveLine, PuzzleKind } from './kind.ts';

/** The givens of a record or board as a grid (0 empty). */
export function givensOf(b: SudokuBoard): Grid {
  const shape = shapeOf(b.box[0], b.box[1]);
  const cells = new Uint8Array(shape.size * shape.size);
  b.givens.forEach((row, r) => {
    for (let c = 0; c < shape.size; c++) cells[r * shape.size + c] = Math.max(0, symbolValue(row[c] ?? '.', shape.size, true));
  });
  return { ...shape, cells };
}

const solutionRows = (b: SudokuBoard): string[] | null => b.solution ?? null;

function boardOfGrid(grid: Grid, extra: { comment?: string } = {}): SudokuBoard {
  return { kind: 'sudoku', id: puzzleId(grid), size: grid.size, box: [grid.boxRows, grid.boxCols], givens: gridRows(grid), ...extra };
}

/** A line of N² symbols ('.' or '0' for empty), as published collections print one puzzle a line. */
const LINE = /^[0-9A-Za-z.]{16,}(\s|$)/;
const looksLikeJsonSudoku = (text: string) => /^\s*[[{]/.test(text) && /"kind"\s*:\s*"sudoku"/.test(text.slice(0, 2_000));

function parseJsonRecords(text: string, file: string): SudokuBoard[] {
  const trimmed = text.trim();
  const values: { value: unknown; line?: number }[] = [];
  if (trimmed.startsWith('[') || !trimmed.includes('\n')) {
    try {
      const v = JSON.parse(trimmed) as unknown;
      for (const item of Array.isArray(v) ? v : [v]) values.push({ value: item });
    } catch (e) {
      throw new SudokuFormatError(`not JSON: ${(e as Error).message}`, file);
    }
  } else
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        values.push({ value: JSON.parse(line), line: i + 1 });
      } catch (e) {
        throw new SudokuFormatError(`not JSON: ${(e as Error).message}`, file, i + 1);
      }
    });
  return values.map(({ value, line }, i) => {
    const r = SudokuBoard.safeParse(value);
    if (r.success) return r.data;
    const issue = r.error.issues[0];
    throw new SudokuFormatError(`${line === undefined && values.length > 1 ? `record ${i + 1}: ` : ''}${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`, file, line);
  });
}

export const sudoku: PuzzleKind<SudokuBoard> = {
  id: 'sudoku',
  name: 'Sudoku',
  schema: SudokuBoard,
  recognizes(text, file) {
    if (/\.(sdk|sudoku)$/i.test(file)) return true;
    if (looksLikeJsonSudoku(text)) return true;
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    // A grid text: N rows of N symbols (rule lines of - + = | and spaces between symbols ignored).
    const rows = lines.filter((l) => !/^[\s|+=-]+$/.test(l)).map((l) => l.replace(/[\s|]/g, ''));
    if (rows.length >= 4 && rows.every((r) => r.length === rows.length && /^[0-9A-Za-z.]+$/.test(r))) return true;
    const first = lines[0];
    if (!first) return false;
    const board = first.trim().split(/\s/)[0];
    const n = Math.round(Math.sqrt(board.length));
    return LINE.test(first.trim()) && n * n === board.length && /^[0-9A-Za-z.]+$/.test(board);
  },
  parseFile(text, file) {
    if (looksLikeJsonSudoku(text)) return parseJsonRecords(text, file);
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    if (lines.length === 0) throw new SudokuFormatError('no puzzle in the file', file);
    // One board drawn as rows (a grid text: rule characters or spaced symbols, or N rows of N symbols), else one
    // board a line, as published collections print them (then a bad line is named by its number).
    const drawn = lines.some((l) => /[|+]|\S\s+\S/.test(l.trim()) && !/^\S{16,}\s/.test(l.trim())) || lines.every((l) => l.trim().length === lines.length && lines.length <= 35);
    if (drawn) return [boardOfGrid(parseGridText(text, file))];
    return parseLines(text, file).map((b) => boardOfGrid(b.grid, b.comment ? { comment: b.comment } : {}));
  },
  writeRecord: (b) => (b.solution ? writeSudokuRecord(b as SudokuPuzzle) : JSON.stringify(b)),
  sizeOf: (b) => `${b.size}x${b.size}`,
  solutionOf: solutionRows,
  solve(b, { limit, now }) {
    const t0 = now?.() ?? 0;
    const r = countSolutions(givensOf(b), limit);
    if (r.inconsistent) throw new Error(`${b.id}: ${r.inconsistent.message} (no board can satisfy these givens; not searched)`);
    const line: KindSolveLine = {
      id: b.id,
      kind: 'sudoku',
      size: b.size,
      box: b.box,
      solutions: r.solutions,
      complete: r.complete,
      time_ms: now ? Math.round((now() - t0) * 10) / 10 : 0,
      settled_by: 'search',
      solution: r.solution ? gridRows(r.solution) : null,
    };
    if (r.second) line.second = gridRows(r.second);
    return line;
  },
  withSolution(b) {
    if (solutionRows(b)) return b;
    const r = countSolutions(givensOf(b), 2);
    if (r.inconsistent) throw new Error(`puzzle ${b.id}: ${r.inconsistent.message}`);
    if (r.solutions === 0) throw new Error(`puzzle ${b.id}: its givens have no solution`);
    if (r.solutions > 1) throw new Error(`puzzle ${b.id}: its givens have more than one solution`);
    const { comment: _comment, ...rest } = b;
    return SudokuPuzzle.parse({ ...rest, solution: gridRows(r.solution!) });
  },
  encodings: SUDOKU_ENCODINGS,
  defaultEncoding: 'extended',
  defaultMetric: 'extended_conflicts',
  draw(rows, second) {
    const box = (r: readonly string[]) => writeGridText(givensOf({ kind: 'sudoku', id: 'x', size: r.length, box: defaultBox(r.length), givens: [...r] })).trimEnd().split('\n');
    const a = box(rows);
    if (!second) return a.join('\n');
    const b = box(second);
    return a.map((l, i) => `${l}     ${b[i]}`).join('\n') + '\n(right: the second solution)';
  },
  dimacs(b, encoding) {
    if (!(SUDOKU_ENCODINGS as readonly string[]).includes(encoding)) throw new Error(`a Sudoku has no '${encoding}' encoding (${SUDOKU_ENCODINGS.join(', ')})`);
    return sudokuDimacs(givensOf(b), encoding as SudokuEncoding);
  },
  satMetrics: (b) => sudokuSatMetricsRecord(givensOf(b)),
  humanMetrics: (b) => ({ ...sudokuHumanMetrics(givensOf(b)) }),
  forced(b) {
    const g = givensOf(b);
    const r = forcedCells(g);
    const rows = r.forced ? gridRows(r.forced).map((row) => row.replaceAll('.', '?')) : gridRows(g).map((row) => row.replace(/\./g, '?'));
    return { rows, forced: r.forcedCount, complete: r.complete };
  },
  hint(b, board) {
    const full = sudoku.withSolution(b) as SudokuPuzzle;
    const { solution } = recordGrids(full);
    const grid = givensOf({ ...b, givens: [...board] });
    const h = sudokuHint(grid, solution);
    return h && { kind: h.kind, row: h.row, col: h.col, heading: h.heading, explanation: h.explanation, reasoning: h.reasoning };
  },
  check(b, board) {
    const solution = solutionRows(sudoku.withSolution(b))!;
    let wrong = 0;
    let solved = board.length === solution.length;
    solution.forEach((want, r) => {
      for (let c = 0; c < want.length; c++) {
        const got = board[r]?.[c] ?? '.';
        if (got.toUpperCase() !== want[c]) solved = false;
        if (got !== '.' && got !== '0' && got.toUpperCase() !== want[c]) wrong++;
      }
    });
    return { solved, wrong };
  },
};
