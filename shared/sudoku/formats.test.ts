// Sudoku formats: the N²-character line, the grid text and JSON/NDJSON records round-trip; errors name the file and line.
import { describe, expect, it } from 'vitest';
import { emptyGrid, shapeOf } from './grid.ts';
import {
  SudokuFormatError,
  canonicalGivens,
  parseGridText,
  parseLine,
  parseLines,
  parseSudokuJson,
  parseSudokuNdjson,
  puzzleId,
  recordFromGivens,
  writeGridText,
  writeLine,
  writeSudokuNdjson,
  writeSudokuRecord,
} from './formats.ts';
import { generateSudoku } from './generate.ts';

const CLASSIC = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';

describe('line format', () => {
  it('reads 81 characters with . or 0 for empty, and writes them back with .', () => {
    const g = parseLine(CLASSIC.replace(/\./g, '0'));
    expect(g).toMatchObject({ size: 9, boxRows: 3, boxCols: 3 });
    expect(g.cells[0]).toBe(5);
    expect(g.cells[2]).toBe(0);
    expect(writeLine(g)).toBe(CLASSIC);
  });

  it('infers 4x4, 6x6 (2x3), 12x12 (3x4) and 16x16 from the length; letters past 9, either case', () => {
    for (const [size, box] of [[4, [2, 2]], [6, [2, 3]], [12, [3, 4]], [16, [4, 4]]] as [number, [number, number]][]) {
      const p = generateSudoku({ size, seed: 2 });
      const line = writeLine(p.givens);
      expect(line.length).toBe(size * size);
      const back = parseLine(line);
      expect([back.size, back.boxRows, back.boxCols]).toEqual([size, ...box]);
      expect(writeLine(back)).toBe(line);
      expect(writeLine(parseLine(line.toLowerCase()))).toBe(line);
    }
    expect(parseLine('.'.repeat(36), { box: [3, 2] })).toMatchObject({ boxRows: 3, boxCols: 2 });
  });

  it('says what is wrong with a line', () => {
    expect(() => parseLine('123')).toThrow('a board line has N² symbols (81 for 9x9, 256 for 16x16), got 3: "123"');
    expect(() => parseLine('.'.repeat(80) + 'A')).toThrow("r9c9 is 'A', expected 1-9, '.' or '0' on a 9x9 board");
    expect(() => parseLine('.'.repeat(36), { box: [2, 2] })).toThrow('a box of 2x2 does not tile a side of 6');
  });

  it('reads a file of lines: blank and # lines skipped, text after the board kept as a comment, errors with the line number', () => {
    const text = `# a collection\n\n${CLASSIC} the classic\n${'.'.repeat(81)}\r\n`;
    const boards = parseLines(text, 'set.txt');
    expect(boards.map((b) => [b.line, b.comment, writeLine(b.grid)])).toEqual([
      [3, 'the classic', CLASSIC],
      [4, undefined, '.'.repeat(81)],
    ]);
    const bad = `${CLASSIC}\n${CLASSIC.slice(1)}\n`;
    expect(() => parseLines(bad, 'set.txt')).toThrow(SudokuFormatError);
    expect(() => parseLines(bad, 'set.txt')).toThrow(/^set\.txt:2: a board line has N² symbols .* got 80/);
  });
});

describe('grid text', () => {
  it('writes boxes with | and -+- rules, and reads that back', () => {
    const g = parseLine(CLASSIC);
    const text = writeGridText(g);
    expect(text.split('\n').slice(0, 4)).toEqual(['5 3 . | . 7 . | . . .', '6 . . | 1 9 5 | . . .', '. 9 8 | . . . | . 6 .', '------+-------+------']);
    expect(writeLine(parseGridText(text))).toBe(CLASSIC);
  });

  it('reads plain rows, rows with spaces, and other box shapes', () => {
    const rows = CLASSIC.match(/.{9}/g) as string[];
    expect(writeLine(parseGridText(rows.join('\n')))).toBe(CLASSIC);
    expect(writeLine(parseGridText(rows.map((r) => r.replace(/\./g, '0').split('').join(' ')).join('\n')))).toBe(CLASSIC);
    const six = generateSudoku({ box: [2, 3], seed: 5 }).givens;
    const t = writeGridText(six);
    expect(t.split('\n')[2]).toBe('------+------');
    expect(writeLine(parseGridText(t))).toBe(writeLine(six));
    const sixTall = generateSudoku({ box: [3, 2], seed: 5 }).givens;
    expect(writeLine(parseGridText(writeGridText(sixTall), 'g.txt', { box: [3, 2] }))).toBe(writeLine(sixTall));
  });

  it('names the line of a bad row', () => {
    const rows = CLASSIC.match(/.{9}/g) as string[];
    rows[4] = '4..8.3..';
    expect(() => parseGridText(rows.join('\n'), 'g.txt')).toThrow('g.txt:5: row 5 has 8 symbols, the board has 9 rows');
    rows[4] = '4..8.3..Z';
    expect(() => parseGridText(['', ...rows].join('\n'), 'g.txt')).toThrow("g.txt:6: r5c9 is 'Z', expected 1-9, '.' or '0' on a 9x9 board");
    expect(() => parseGridText('\n\n', 'g.txt')).toThrow('g.txt: no rows');
  });
});

describe('ids and records', () => {
  it('puzzleId is stable, names the size, and depends on givens and box', () => {
    const g = parseLine(CLASSIC);
    expect(puzzleId(g)).toMatch(/^s9x9-[0-9a-f]{12}$/);
    expect(puzzleId(parseLine(CLASSIC))).toBe(puzzleId(g));
    expect(canonicalGivens(g)).toBe(`9|3x3|${CLASSIC}`);
    const other = parseLine(CLASSIC.replace('53', '35'));
    expect(puzzleId(other)).not.toBe(puzzleId(g));
    const wide = emptyGrid(shapeOf(2, 3)), tall = emptyGrid(shapeOf(3, 2));
    expect(puzzleId(wide)).not.toBe(puzzleId(tall));
    expect(puzzleId(wide)).toMatch(/^s6x6-/);
  });

  it('recordFromGivens solves the board and refuses boards without exactly one solution', () => {
    const r = recordFromGivens(parseLine(CLASSIC));
    expect(r).toMatchObject({ kind: 'sudoku', size: 9, box: [3, 3], id: puzzleId(parseLine(CLASSIC)) });
    expect(r.solution[0]).toBe('534678912');
    expect(() => recordFromGivens(parseLine('.'.repeat(81)))).toThrow('the board has more than one solution');
    expect(() => recordFromGivens(parseLine('12345678.' + '.'.repeat(8) + '9' + '.'.repeat(63)))).toThrow('the board has no solution');
    expect(() => recordFromGivens(parseLine('11' + '.'.repeat(79)))).toThrow('inconsistent board: 1 appears twice in row 1 (r1c1 and r1c2)');
  });

  it('JSON and NDJSON round-trip, with a fixed key order', () => {
    const recs = [1, 2, 3].map((seed) => generateSudoku({ size: 9, seed }).puzzle);
    recs[1].metrics = { sat_minimal: { decisions: 3, propagations: 900, conflicts: 1, restarts: 1 } };
    const nd = writeSudokuNdjson(recs);
    expect(nd.split('\n').length).toBe(4);
    expect(nd.startsWith('{"kind":"sudoku","id":"s9x9-')).toBe(true);
    expect(parseSudokuNdjson(nd)).toEqual(recs);
    expect(parseSudokuJson(JSON.stringify(recs))).toEqual(recs);
    expect(parseSudokuJson(writeSudokuRecord(recs[0]))).toEqual([recs[0]]);
    expect(writeSudokuNdjson(parseSudokuNdjson(nd))).toBe(nd);
  });

  it('NDJSON and JSON errors name the line or record and the field', () => {
    const rec = generateSudoku({ size: 4, seed: 1 }).puzzle;
    const bad = { ...rec, givens: rec.givens.slice(1) };
    const text = `${writeSudokuRecord(rec)}\n\n${JSON.stringify(bad)}\n`;
    expect(() => parseSudokuNdjson(text, 'p.ndjson')).toThrow('p.ndjson:3: givens: expected 4 rows, got 3');
    expect(() => parseSudokuNdjson('{"kind":', 'p.ndjson')).toThrow(/^p\.ndjson:1: not JSON/);
    expect(() => parseSudokuJson(JSON.stringify([rec, bad]), 'p.json')).toThrow('p.json: record 2: givens: expected 4 rows, got 3');
    expect(() => parseSudokuJson(JSON.stringify(bad), 'p.json')).toThrow('p.json: givens: expected 4 rows, got 3');
  });
});
