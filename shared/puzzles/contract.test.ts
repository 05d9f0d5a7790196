// One contract for every puzzle kind: what the commands, the server and the analysis ask of a kind module hold the
// same way for Nonogram and Sudoku (a new kind joins `CASES` and must pass all of it).
import { describe, expect, it } from 'vitest';
import { generatePuzzles } from '../nonogram/index.ts';
import { generateSudoku, gridRows } from '../sudoku/index.ts';
import { parseDimacs, solveCnf } from '../sat/index.ts';
import { kindOfRecord, kindOfText, nonogram, PUZZLE_KINDS, puzzleKind, sudoku, type PuzzleKind } from './index.ts';

interface Case {
  kind: PuzzleKind<any>;
  /** A few uniquely solvable records, as the kind's generator makes them. */
  records: () => { id: string }[];
  /** A record of a board with more than one solution. */
  ambiguous: () => { id: string };
  /** The solution's rows changed in one cell to a wrong value (a board a participant could submit). */
  oneWrong: (solution: string[]) => string[];
  /** The empty board in the kind's board text. */
  emptyBoard: (record: any) => string[];
  /** A file text in one of the kind's own formats other than JSON. */
  otherFormat: string;
}

const CASES: Case[] = [
  {
    kind: nonogram,
    records: () => generatePuzzles({ width: 8, height: 8, density: 0.5, count: 3, seed: 5, bernoulli: false }),
    ambiguous: () => ({ id: 'twin', width: 2, height: 2, rows: [[1], [1]], cols: [[1], [1]] }),
    oneWrong: (s) => [s[0][0] === '#' ? 'x' + s[0].slice(1) : '#' + s[0].slice(1), ...s.slice(1)],
    emptyBoard: (p) => Array.from({ length: p.height }, () => '?'.repeat(p.width)),
    otherFormat: 'catalogue "t"\nwidth 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n',
  },
  {
    kind: sudoku,
    records: () => [1, 2, 3].map((seed) => generateSudoku({ size: 9, seed }).puzzle),
    ambiguous: () => ({ kind: 'sudoku', id: 'open', size: 4, box: [2, 2], givens: ['12..', '34..', '....', '....'] }),
    oneWrong: (s) => [(s[0][0] === '1' ? '2' : '1') + s[0].slice(1), ...s.slice(1)],
    emptyBoard: (p) => p.givens,
    otherFormat: '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n',
  },
];

describe.each(CASES)('puzzle kind $kind.id', ({ kind, records, ambiguous, oneWrong, emptyBoard, otherFormat }) => {
  it('is found by its id and by what its records name', () => {
    expect(puzzleKind(kind.id)).toBe(kind);
    for (const r of records()) expect(kindOfRecord(r as { kind?: unknown })).toBe(kind);
    expect(() => puzzleKind('kakuro')).toThrow(/unknown puzzle kind 'kakuro' \(kinds: nonogram, sudoku\)/);
  });

  it('writes records its schema and its own reader take back unchanged, and recognizes its files', () => {
    const rs = records();
    const text = rs.map((r) => kind.writeRecord(r) + '\n').join('');
    expect(kindOfText(text, 'set.ndjson')).toBe(kind);
    const back = kind.parseFile(text, 'set.ndjson');
    // (the same records; a schema may list an object's known keys first)
    expect(back.map((r) => JSON.parse(kind.writeRecord(r)))).toEqual(rs.map((r) => JSON.parse(kind.writeRecord(r))));
    for (const r of back) expect(kind.schema.safeParse(r).success).toBe(true);
    expect(kindOfText(otherFormat, 'board.txt')).toBe(kind);
    expect(kind.parseFile(otherFormat, 'board.txt').length).toBe(1);
  });

  it('counts solutions exactly: one for its generated puzzles (the recorded solution), two for an ambiguous board', () => {
    for (const r of records()) {
      const line = kind.solve(r, { limit: 2 });
      expect([line.solutions, line.complete]).toEqual([1, true]);
      expect(line.solution).toEqual(kind.solutionOf(r));
    }
    const two = kind.solve(ambiguous(), { limit: 2 });
    expect(two.solutions).toBe(2);
    expect(two.second).toBeDefined();
    expect(two.second).not.toEqual(two.solution);
    expect(() => kind.withSolution(ambiguous())).toThrow(/more than one solution/);
  });

  it('every encoding is satisfiable on its puzzles, and its SAT metrics are MiniSat counters per encoding', () => {
    const r = records()[0];
    for (const encoding of kind.encodings) expect(solveCnf(parseDimacs(kind.dimacs(r, encoding))).result).toBe('SAT');
    expect(() => kind.dimacs(r, 'no-such')).toThrow(/no 'no-such' encoding/);
    const sat = kind.satMetrics(r);
    expect(Object.keys(sat).length).toBe(kind === nonogram ? 2 : kind.encodings.length);
    for (const block of Object.values(sat)) for (const key of ['decisions', 'propagations', 'conflicts', 'restarts']) expect(Number.isInteger((block as any)[key])).toBe(true);
    expect(typeof kind.humanMetrics(r).level).toBe('number');
  });

  it('checks a board against the solution and counts wrong cells', () => {
    const r = records()[0];
    const solution = kind.solutionOf(r)!;
    expect(kind.check(r, solution)).toEqual({ solved: true, wrong: 0 });
    expect(kind.check(r, oneWrong(solution))).toEqual({ solved: false, wrong: 1 });
  });

  it('forces every cell of a uniquely solvable puzzle, and hints on the empty board name a cell on it', () => {
    const r = records()[0];
    const f = kind.forced(r);
    expect(f.complete).toBe(true);
    expect(f.rows.join('')).not.toContain('?');
    const h = kind.hint(r, emptyBoard(r));
    expect(h).not.toBeNull();
    expect(h!.explanation.length).toBeGreaterThan(0);
    expect(h!.row).toBeGreaterThanOrEqual(0);
    expect(h!.col).toBeGreaterThanOrEqual(0);
  });
});

it('every kind is in the contract suite', () => {
  expect(CASES.map((c) => c.kind.id).sort()).toEqual(PUZZLE_KINDS.map((k) => k.id).sort());
  // (gridRows is the Sudoku board text the cases use)
  expect(gridRows(generateSudoku({ size: 4, seed: 1 }).givens)).toHaveLength(4);
});
