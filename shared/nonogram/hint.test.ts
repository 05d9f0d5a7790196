// The hint engine on hand-made positions, and followed from a blank board to the solution.
import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, UNKNOWN, cluesOf, createGrid, gridFromRows } from './grid.ts';
import { lineSolve } from './lineSolver.ts';
import type { Grid } from './grid.ts';
import { generatePuzzles, puzzleFromSeed } from './generate.ts';
import { hint } from './hint.ts';

const HEART = ['.#.#.', '#####', '#####', '.###.', '..#..'];

function position(solutionRows: string[], boardRows: string[]) {
  const solution = gridFromRows(solutionRows);
  // On boards '.' means crossed (EMPTY), '#' filled, '?' untouched.
  return { clues: cluesOf(solution), solution, board: gridFromRows(boardRows) };
}

describe('hint: errors come first', () => {
  it('points at a filled cell that should be empty, before any deduction', () => {
    const { clues, board, solution } = position(HEART, ['#????', '?????', '?????', '?????', '?????']);
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ kind: 'error', row: 0, col: 0, value: 'empty', reasoning: 'error' });
    expect(h?.explanation).toContain('row 1, column 1');
  });

  it('points at a crossed cell that should be filled, the first in reading order', () => {
    const { clues, board, solution } = position(HEART, ['?????', '??.??', '?????', '?????', '??#.?']);
    expect(hint(clues, board, solution)).toMatchObject({ kind: 'error', row: 1, col: 2, value: 'filled', reasoning: 'error' });
  });
});

describe('hint: the simplest deduction from a correct board', () => {
  it('starts with a foothold: a line its clue fills exactly', () => {
    const { clues, board, solution } = position(HEART, ['?????', '?????', '?????', '?????', '?????']);
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ kind: 'cell', row: 1, col: 0, value: 'filled', reasoning: 'foothold', line: { axis: 'row', index: 1 } });
    expect(h?.explanation).toMatch(/Row 2's clue 5 needs exactly 5 cells/);
  });

  it('then overlap: a cell every placement of a clue covers', () => {
    // Rows 2 and 3 done; row 4's clue 3 in 5 cells covers its middle cell wherever it goes.
    const { clues, board, solution } = position(HEART, ['?????', '#####', '#####', '?????', '?????']);
    expect(hint(clues, board, solution)).toMatchObject({ row: 3, col: 2, value: 'filled', reasoning: 'overlap', line: { axis: 'row', index: 3 } });
  });

  it('uses edge anchoring: a filled cell at the edge fixes the first run', () => {
    // Row 1 (clue 2) starts with a filled cell: the run covers column 2 too.
    const { clues, board, solution } = position(['##....', '#.....', '......', '......'], ['#?....', '??....', '......', '......']);
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ row: 0, col: 1, value: 'filled', reasoning: 'edge', line: { axis: 'row', index: 0 } });
  });

  it('cross-references: the line needs the marks in its middle that came from the columns', () => {
    // Row 3 (clue 1 2 1) holds '???#.??': the 2 must end at column 4, so the first 1 sits in column 1.
    const { clues, board, solution } = position(
      ['#..###.', '.#.##..', '#.##..#', '.####..', '#.#.#..', '.###.##', '.....##'],
      ['??.?#??', '??.##..', '???#.??', '??##??.', '?.#????', '?##??#?', '..?????'],
    );
    expect(hint(clues, board, solution)).toMatchObject({ row: 2, col: 0, value: 'filled', reasoning: 'cross-reference', line: { axis: 'row', index: 2 } });
  });

  it('probes when no line gives anything: the wrong value leads to a contradiction', () => {
    const { clues, board, solution } = position(
      ['..##.#', '#.#...', '.#.##.', '#.#..#', '###.#.', '.#..##'],
      ['??????', '?.#.??', '??????', '??????', '?##???', '??????'],
    );
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ row: 0, col: 0, value: 'empty', reasoning: 'probing' });
    expect(h?.explanation).toContain('were filled');
  });

  it('reveals a cell when the board needs a guess (an ambiguous puzzle)', () => {
    const { clues, board, solution } = position(
      ['..#..', '#.###', '####.', '#.#.#', '.#...'],
      ['.??..', '#.###', '####.', '#.#.#', '.??..'],
    );
    expect(hint(clues, board, solution)).toMatchObject({ row: 0, col: 1, value: 'empty', reasoning: 'reveal' });
  });
});

describe('hint: policies and the end', () => {
  it('reveal-only names the same cell without the reasoning', () => {
    const { clues, board, solution } = position(HEART, ['?????', '#####', '#####', '?????', '?????']);
    const full = hint(clues, board, solution, 'explain-and-reveal');
    const bare = hint(clues, board, solution, 'reveal-only');
    expect(bare).toMatchObject({ row: full?.row, col: full?.col, value: full?.value });
    expect(bare?.explanation).toBe('The cell at row 4, column 3 is filled.');
  });

  it('returns null when hints are off or the board is complete and correct', () => {
    const { clues, board, solution } = position(HEART, HEART);
    expect(hint(clues, board, solution)).toBeNull();
    expect(hint(clues, createGrid(5, 5), solution, 'off')).toBeNull();
  });

  it('followed from a blank board, solves generated puzzles with correct cells and no reveals', () => {
    const puzzles = generatePuzzles({ width: 10, height: 10, density: 0.5, count: 12, seed: 3 });
    const seen = new Set<string>();
    for (const p of puzzles) {
      const solution = gridFromRows(p.solution as string[]);
      const clues = { rows: p.rows, cols: p.cols };
      const board: Grid = createGrid(10, 10);
      for (let step = 0; step < 100; step++) {
        const h = hint(clues, board, solution);
        if (!h) break;
        expect(h.kind).toBe('cell');
        expect(h.reasoning).not.toBe('reveal');
        const i = h.row * 10 + h.col;
        expect(h.value).toBe(solution.cells[i] === FILLED ? 'filled' : 'empty');
        board.cells[i] = h.value === 'filled' ? FILLED : EMPTY;
        seen.add(h.reasoning);
      }
      expect(Array.from(board.cells)).toEqual(Array.from(solution.cells));
    }
    expect([...seen].sort()).toEqual(['cross-reference', 'edge', 'foothold', 'overlap']);
  });
});

describe('hint: why a mistake is wrong, in terms of a line\'s clue', () => {
  const explain = (solutionRows: string[], boardRows: string[], policy?: 'explain-and-reveal' | 'reveal-only') => {
    const { clues, board, solution } = position(solutionRows, boardRows);
    const h = hint(clues, board, solution, policy);
    if (!h) throw new Error('no hint');
    return h;
  };

  it('a cross in a line its clue fills exactly: the foothold', () => {
    const h = explain(HEART, ['?????', '??.??', '?????', '?????', '?????']);
    expect(h).toMatchObject({ kind: 'error', row: 1, col: 2, value: 'filled', line: { axis: 'row', index: 1 } });
    expect(h.explanation).toBe("Row 2's clue 5 needs exactly 5 cells, the whole line, so every cell in it is filled: the cell at row 2, column 3 cannot be crossed. It should be filled.");
  });

  it('a filled cell in a line with clue 0', () => {
    const h = explain(['#.#', '...', '###'], ['???', '?#?', '???']);
    expect(h).toMatchObject({ row: 1, col: 1, value: 'empty', line: { axis: 'row', index: 1 } });
    expect(h.explanation).toBe('Row 2 has clue 0: every cell in it is empty, so the cell at row 2, column 2 cannot be filled. It should be empty: cross it.');
  });

  it('a cross on a cell every arrangement covers: the overlap', () => {
    // Row 1's clue 4 in 5 cells covers columns 2 to 4 wherever it goes.
    const h = explain(['####.', '#....', '#.#..', '.....', '.....'], ['??.??', '?????', '?????', '?????', '?????']);
    expect(h).toMatchObject({ row: 0, col: 2, value: 'filled', line: { axis: 'row', index: 0 } });
    expect(h.explanation).toContain("Row 1's clue 4: however its runs are slid along the line, they cover the cell at row 1, column 3 in every arrangement, so it cannot be crossed.");
  });

  it('more filled cells than the clue allows: a count, named in the clue', () => {
    // Row 1 (clue 1 1 1 in 7) has its three cells rightly filled; a fourth cannot be.
    const h = explain(['#.#.#..', '#######'], ['#.#.#?#', '???????']);
    expect(h).toMatchObject({ row: 0, col: 6, value: 'empty', line: { axis: 'row', index: 0 } });
    expect(h.explanation).toBe("Row 1's clue 1 1 1 has 3 filled cells in all, and 3 other cells are rightly filled in it already, so the cell at row 1, column 7 cannot be filled too. It should be empty: cross it.");
  });

  it('a run longer than any number of the clue', () => {
    // Row 1 (clue 2 2 in 8): cells 2-3 rightly filled, and filling cell 4 would make a run of 3.
    const h = explain(['.##..##.', '########'], ['.###????', '????????']);
    expect(h).toMatchObject({ row: 0, col: 3, value: 'empty' });
    expect(h.explanation).toBe("Filling the cell at row 1, column 4 would make a run of 3 filled cells in Row 1, longer than any number of its clue 2 2, so it cannot be filled. It should be empty: cross it.");
  });

  it('no single line shows it: probing names the line whose clue stops fitting', () => {
    const h = explain(HEART, ['#????', '?????', '?????', '?????', '?????']);
    expect(h).toMatchObject({ row: 0, col: 0, value: 'empty', line: { axis: 'col', index: 0 } });
    expect(h.explanation).toBe("With the cell at row 1, column 1 filled, the row and column clues force other cells until Column 1's clue 2 no longer fits, so it cannot be filled. It should be empty: cross it.");
  });

  it('names the count before the run when both apply', () => {
    // Row 1 '#.#.#..' (clue 1 1 1); the participant filled column 2 (wrong) and column 7 (wrong).
    const h = explain(['#.#.#..', '#######'], ['#.#.##?', '??????#']);
    expect(h).toMatchObject({ row: 0, col: 5, value: 'empty' });
    // Counted on the rightly marked cells: three, not four (row 2's wrong... none) and a run of 2 in a clue of 1s.
    expect(h.explanation).toBe("Row 1's clue 1 1 1 has 3 filled cells in all, and 3 other cells are rightly filled in it already, so the cell at row 1, column 6 cannot be filled too. It should be empty: cross it.");
  });

  it('every explanation is sound: the named line, with the mark, admits no arrangement of its clue (random boards)', () => {
    const rng = mulberry(7);
    let sound = 0;
    for (let t = 0; t < 300; t++) {
      const w = 4 + Math.floor(rng() * 4);
      const hgt = 4 + Math.floor(rng() * 4);
      const solRows = Array.from({ length: hgt }, () => Array.from({ length: w }, () => (rng() < 0.55 ? '#' : '.')).join(''));
      const boardRows = solRows.map((r) => [...r].map((ch) => (rng() < 0.5 ? '?' : rng() < 0.1 ? (ch === '#' ? '.' : '#') : ch)).join(''));
      const { clues, board, solution } = position(solRows, boardRows);
      const h = hint(clues, board, solution);
      if (h?.kind !== 'error') continue;
      expect(h.explanation).toMatch(/(It should be filled\.|It should be empty: cross it\.)$/);
      expect(h.value).toBe(solution.cells[h.row * w + h.col] === FILLED ? 'filled' : 'empty');
      expect(h.explanation).toContain(`row ${h.row + 1}, column ${h.col + 1}`);
      const named = `${h.line.axis === 'row' ? 'Row' : 'Column'} ${h.line.index + 1}`;
      if (!h.explanation.startsWith('No line')) expect(h.explanation).toContain(named);
      if (h.explanation.startsWith('With the cell') || h.explanation.startsWith('No line')) continue;
      // A one-line reason: the named line's clue admits no arrangement with the rightly marked cells and the mark.
      const trusted = board.cells.map((v, i) => (v !== UNKNOWN && v !== solution.cells[i] ? UNKNOWN : v));
      trusted[h.row * w + h.col] = board.cells[h.row * w + h.col];
      const line = h.line.axis === 'row' ? Array.from(trusted.slice(h.line.index * w, (h.line.index + 1) * w)) : Array.from({ length: hgt }, (_, r) => trusted[r * w + h.line.index]);
      const clue = h.line.axis === 'row' ? clues.rows[h.line.index] : clues.cols[h.line.index];
      expect(lineSolve(clue, line)).toBe('contradiction');
      sound++;
    }
    expect(sound).toBeGreaterThan(30);
  });

  it('reveal-only keeps the short statement, without reasoning', () => {
    const h = explain(HEART, ['?????', '??.??', '?????', '?????', '?????'], 'reveal-only');
    expect(h.explanation).toBe('The cell at row 2, column 3 is marked empty, but it should be filled.');
  });
});

/** A small seeded generator for the random boards above. */
function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('hint: a mistake in a line whose clue of several runs spans it exactly (issue 32)', () => {
  // Study puzzle n10x10-4ad4955f0fa3: row 1's clue 1 2 1 1 1 spans the 10 cells, but the line is not all filled.
  const SOLUTION = ['#.##.#.#.#', '##.#...#..', '#.#...##..', '.#....#.##', '#.########', '.#####.#..', '..##......', '#.#...####', '....#.###.', '#..###.#..'];
  const blank = SOLUTION.map((r) => '?'.repeat(r.length));

  it('a filled cell that should be empty: names the one arrangement, not an all-filled line', () => {
    const board = blank.slice();
    board[0] = '?#????????';
    const { clues, solution } = position(SOLUTION, blank);
    const h = hint(clues, gridFromRows(board), solution)!;
    expect(h).toMatchObject({ kind: 'error', row: 0, col: 1, value: 'empty', line: { axis: 'row', index: 0 } });
    expect(h.explanation).not.toContain('every cell in it is filled');
    expect(h.explanation).toBe(
      "Row 1's clue 1 2 1 1 1 needs exactly 10 cells, the whole line, so it has only one arrangement, in which the cell at row 1, column 2 is empty, so it cannot be filled. It should be empty: cross it.",
    );
  });

  it('a crossed cell that should be filled: the same arrangement', () => {
    const board = blank.slice();
    board[0] = '.?????????';
    const { clues, solution } = position(SOLUTION, blank);
    const h = hint(clues, gridFromRows(board), solution)!;
    expect(h.explanation).toBe(
      "Row 1's clue 1 2 1 1 1 needs exactly 10 cells, the whole line, so it has only one arrangement, in which the cell at row 1, column 1 is filled, so it cannot be crossed. It should be filled.",
    );
  });
});

describe('hint: wordings the property test found false (issue 32)', () => {
  const boardOf = (width: number, digits: string): Grid => ({ width, height: digits.length / width, cells: Uint8Array.from([...digits].map(Number)) });

  it('edge: a cell the middle run covers is not said to be covered by the run next to an edge', () => {
    // Row 1's clue 3 3 5 in 15 cells, '###..?##.#####.': the marks at the ends place the outer runs, which leaves the
    // middle 3 four cells; it covers column 6 in either place. Neither edge run is anywhere near it.
    const { clues, solution } = position(['###..###.#####.', '...............'], ['???????????????', '???????????????']);
    const h = hint(clues, gridFromRows(['###..?##.#####.', '...............']), solution)!;
    expect(h).toMatchObject({ kind: 'cell', row: 0, col: 5, value: 'filled', reasoning: 'edge', line: { axis: 'row', index: 0 } });
    expect(h.explanation).not.toContain('anchor the run next to that edge');
    expect(h.claim.wording).toBe('edge-runs');
    expect(h.explanation).toBe("Row 1's clue 3 3 5: the marks near the ends of the line limit where its runs can go, and in every arrangement left the cell at row 1, column 6 is filled.");
  });

  it('edge, for a mistake: the same line with the cell crossed', () => {
    const { clues, solution } = position(['###..###.#####.', '...............'], ['???????????????', '???????????????']);
    const h = hint(clues, gridFromRows(['###...##.#####.', '???????????????']), solution)!;
    expect(h).toMatchObject({ kind: 'error', row: 0, col: 5, value: 'filled', line: { axis: 'row', index: 0 } });
    expect(h.claim.wording).toBe('mistake-edge-runs');
    expect(h.explanation).toBe(
      "Row 1's clue 3 3 5: the marks near the ends of the line limit where its runs can go, and in every arrangement left the cell at row 1, column 6 is filled, so it cannot be crossed. It should be filled.",
    );
  });

  it('edge: the wording that names the edge run stays where that run does cover the cell', () => {
    // Row 1's clue 2 ... begins with a filled cell: the first run covers column 2.
    const { clues, board, solution } = position(['##....', '#.....', '......', '......'], ['#?....', '??....', '......', '......']);
    const h = hint(clues, board, solution)!;
    expect(h.claim.wording).toBe('edge');
    expect(h.explanation).toBe("Row 1's clue 2: the marks near the end of the line anchor the run next to that edge, so the cell at row 1, column 2 is filled.");
  });

  it('cross-reference: one mark in the line is not "several from the crossing lines"', () => {
    // A generated puzzle that needs search (15x15, seed 2255), stuck after probing: row 13 holds one mark, column 5.
    const p = puzzleFromSeed(15, 15, 0.45, 2255)!;
    const board = boardOf(15, '001111110000020002212120000211000010201021111000010000000021000020000000021000000000000021000010000000000000000000000000000000000000000000000000000000000000000000021000210000000021000010000000000000210000000000000000000000000');
    const h = hint({ rows: p.rows, cols: p.cols }, board, gridFromRows(p.solution as string[]))!;
    expect(h).toMatchObject({ kind: 'cell', row: 12, col: 5, value: 'empty', reasoning: 'cross-reference', line: { axis: 'row', index: 12 } });
    expect(h.explanation).not.toContain('several');
    expect(h.claim.wording).toBe('cross-reference-one');
    expect(h.explanation).toBe(
      "Row 13's clue 2 1 1 1 1 1, together with the one cell already marked in it (row 13, column 5), leaves only arrangements in which the cell at row 13, column 6 is empty (cross it).",
    );
  });

  it('cross-reference, for a mistake: one rightly marked cell is named as one', () => {
    // Row 1's clue 3 with column 6 rightly filled: the run cannot reach column 1, which the participant filled.
    const { clues, solution } = position(['....###...', '#.........'], ['??????????', '??????????']);
    const h = hint(clues, gridFromRows(['#????#????', '??????????']), solution)!;
    expect(h).toMatchObject({ kind: 'error', row: 0, col: 0, value: 'empty', line: { axis: 'row', index: 0 } });
    expect(h.claim.wording).toBe('mistake-cross-reference-one');
    expect(h.explanation).toBe(
      "Row 1's clue 3, with the one cell rightly marked in it already (row 1, column 6), leaves only arrangements in which the cell at row 1, column 1 is empty, so it cannot be filled. It should be empty: cross it.",
    );
  });

  it('a mistake only the solution shows names no line as its reason', () => {
    // The puzzle that needs search, a few marks, and row 14, column 12 crossed: no line reasoning reaches it.
    const p = puzzleFromSeed(15, 15, 0.45, 2255)!;
    const board = boardOf(15, '000000000000000000000000100000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000200000000000200000002000200000000000000');
    const h = hint({ rows: p.rows, cols: p.cols }, board, gridFromRows(p.solution as string[]))!;
    expect(h).toMatchObject({ kind: 'error', row: 13, col: 11, value: 'filled' });
    expect(h.claim.wording).toBe('mistake-solution');
    expect(h.claim.line).toBeNull();
    expect(h.explanation).toBe("No line's clue shows it yet, but the puzzle's only solution has the cell at row 14, column 12 filled, not crossed. It should be filled.");
  });
});
