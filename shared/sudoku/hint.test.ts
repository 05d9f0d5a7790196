// Sudoku hints: exact wording on hand-made boards, and a property test that every hint's claim is true of its board,
// checked against the reference solver and the reference reading of technique claims.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import type { Rng } from '../random.ts';
import { shapeOf } from './grid.ts';
import type { Grid, Shape } from './grid.ts';
import { explainStep, sudokuHint, unitName } from './hint.ts';
import type { SudokuHint } from './hint.ts';
import { TECHNIQUES, findStep, stateOf } from './techniques.ts';
import type { CellDigit, TechniqueId } from './techniques.ts';
import { randomPuzzle, referenceClaimErrors, referenceCount, referenceSolutions } from './referenceSolver.ts';
import { gridFromLine, gridToLine } from './testGrid.ts';

const WIKIPEDIA = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const WIKI_SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
const ESCARGOT = '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..';

const board = (line: string, edits: [number, number, number][] = []): Grid => {
  const g = gridFromLine(line);
  for (const [r, c, v] of edits) g.cells[r * g.size + c] = v;
  return g;
};

/** Candidates from the digits and the pencil marks, computed here without the engine. */
function referenceCandidates(grid: Grid, eliminated: readonly CellDigit[]): Uint32Array {
  const n = grid.size;
  const box = (i: number) => Math.floor(Math.floor(i / n) / grid.boxRows) * (n / grid.boxCols) + Math.floor((i % n) / grid.boxCols);
  const out = new Uint32Array(n * n);
  for (let i = 0; i < n * n; i++) {
    if (grid.cells[i] !== 0) continue;
    let m = (1 << n) - 1;
    for (let j = 0; j < n * n; j++) {
      if (j === i || grid.cells[j] === 0) continue;
      if (Math.floor(j / n) === Math.floor(i / n) || j % n === i % n || box(j) === box(i)) m &= ~(1 << (grid.cells[j] - 1));
    }
    out[i] = m;
  }
  for (const e of eliminated) out[e.r * n + e.c] &= ~(1 << (e.digit - 1));
  return out;
}

/** Whether the board has the named dead end now: the cell has no candidate, or the digit no place in the unit. */
function deadEndHolds(grid: Grid, c: NonNullable<SudokuHint['contradiction']>, marks: CellDigit[] = []): boolean {
  const n = grid.size;
  const cands = referenceCandidates(grid, marks);
  if (c.kind === 'no-candidate') return grid.cells[c.cell.r * n + c.cell.c] === 0 && cands[c.cell.r * n + c.cell.c] === 0;
  if (c.kind === 'duplicate') return false;
  const cells = [...grid.cells.keys()].filter((i) => inUnit(grid, c.unit, { r: Math.floor(i / n), c: i % n }));
  return !cells.some((i) => grid.cells[i] === c.digit) && cells.every((i) => grid.cells[i] !== 0 || !(cands[i] & (1 << (c.digit - 1))));
}

/** Naked and hidden singles, done here without the engine, until a dead end (true) or nothing more follows (false). */
function referenceSinglesDeadEnd(start: Grid): boolean {
  const n = start.size;
  const g = { ...start, cells: start.cells.slice() };
  const units: number[][] = [];
  for (let u = 0; u < 3 * n; u++) units.push([]);
  for (let i = 0; i < n * n; i++) {
    const p = { r: Math.floor(i / n), c: i % n };
    units[p.r].push(i);
    units[n + p.c].push(i);
    units[2 * n + Math.floor(p.r / g.boxRows) * (n / g.boxCols) + Math.floor(p.c / g.boxCols)].push(i);
  }
  for (;;) {
    const cands = referenceCandidates(g, []);
    if ([...g.cells.keys()].some((i) => g.cells[i] === 0 && cands[i] === 0)) return true;
    let move: [number, number] | null = null;
    for (const u of units) {
      for (let v = 1; v <= n && !move; v++) {
        if (u.some((i) => g.cells[i] === v)) continue;
        const at = u.filter((i) => g.cells[i] === 0 && cands[i] & (1 << (v - 1)));
        if (at.length === 0) return true;
        if (at.length === 1) move = [at[0], v];
      }
    }
    if (!move) {
      const i = [...g.cells.keys()].find((x) => g.cells[x] === 0 && (cands[x] & (cands[x] - 1)) === 0);
      if (i === undefined) return false;
      move = [i, 31 - Math.clz32(cands[i]) + 1];
    }
    g.cells[move[0]] = move[1];
  }
}

function inUnit(shape: Shape, u: { kind: string; index: number }, p: { r: number; c: number }): boolean {
  if (u.kind === 'row') return p.r === u.index;
  if (u.kind === 'col') return p.c === u.index;
  return Math.floor(p.r / shape.boxRows) * (shape.size / shape.boxCols) + Math.floor(p.c / shape.boxCols) === u.index;
}

const SYM = '123456789ABCDEFG';
const named = (p: { r: number; c: number }) => `row ${p.r + 1}, column ${p.c + 1}`;

/**
 * Every claim of a hint checked against the board: with the solution, a wrong digit is named first and really is
 * wrong; a placed digit is the solution's and follows from the named technique; removals never take the solution's
 * digit. Without it, a conflict is real and a technique's claim is true of the board as it stands.
 */
function checkHint(grid: Grid, solution: Grid | null, eliminated: CellDigit[], h: SudokuHint, where: string): void {
  const n = grid.size;
  const marks = solution ? eliminated.filter((e) => solution.cells[e.r * n + e.c] !== e.digit) : eliminated;
  expect(h.heading.startsWith('Hint · '), where).toBe(true);
  expect(h.explanation.length, where).toBeGreaterThan(20);
  if (h.unit && h.technique !== 'x-wing' && h.technique !== 'swordfish') expect(h.explanation, where).toContain(unitName(grid, h.unit, true));
  const wrongs = solution ? [...grid.cells.keys()].filter((i) => grid.cells[i] !== 0 && grid.cells[i] !== solution.cells[i]) : [];
  if (h.kind === 'error') {
    if (solution) {
      expect(wrongs.length, where).toBeGreaterThan(0);
      const i = wrongs[0];
      expect(h.wrong, where).toEqual({ r: Math.floor(i / n), c: i % n, digit: grid.cells[i] });
      expect(h.digit, where).toBe(solution.cells[i]);
      if (h.reasoning === 'solution') expect(h.explanation, where).toContain(`${SYM[solution.cells[i] - 1]} at ${named(h.wrong!)}, not ${SYM[grid.cells[i] - 1]}.`);
      else expect(h.explanation.toLowerCase(), where).toContain(`the ${SYM[grid.cells[i] - 1]} at ${named(h.wrong!)}`);
      if (h.reasoning !== 'solution') expect(h.explanation.endsWith(`It should be ${SYM[solution.cells[i] - 1]}.`), where).toBe(true);
    }
    if (h.reasoning === 'conflict') {
      const a = { r: h.row, c: h.col }, b = h.conflictWith!;
      expect(grid.cells[a.r * n + a.c], where).toBe(grid.cells[b.r * n + b.c]);
      expect(grid.cells[a.r * n + a.c], where).not.toBe(0);
      expect(a, where).not.toEqual(b);
      expect(inUnit(grid, h.unit!, a) && inUnit(grid, h.unit!, b), where).toBe(true);
      if (solution) expect(h.explanation.includes('already has'), where).toBe(solution.cells[b.r * n + b.c] === grid.cells[b.r * n + b.c]);
    } else if (h.reasoning === 'contradiction') {
      // The named digit, with the board's other right digits, leaves no solution at all (and without a solution
      // given, the board as it stands has none).
      const trusted = { ...grid, cells: grid.cells.map((v, i) => (solution && v !== solution.cells[i] && i !== h.row * n + h.col ? 0 : v)) };
      expect(referenceCount(trusted, 1), where).toBe(0);
      expect(h.contradiction, where).not.toBeNull();
      if (solution) {
        expect(referenceSinglesDeadEnd(trusted), where).toBe(true);
        // "At once": the named cell or digit has no option on the board with the wrong digit, before anything is placed.
        if (!h.explanation.includes('it would force')) expect(deadEndHolds(trusted, h.contradiction!), where).toBe(true);
      } else expect(deadEndHolds(grid, h.contradiction!, marks), where).toBe(true);
    } else {
      expect(h.reasoning, where).toBe('solution');
      // "Reaches no contradiction yet": singles from the right digits and the wrong one really stall.
      const trusted = { ...grid, cells: grid.cells.map((v, i) => (v !== solution!.cells[i] && i !== h.row * n + h.col ? 0 : v)) };
      expect(referenceSinglesDeadEnd(trusted), where).toBe(false);
    }
    return;
  }
  expect(wrongs, where).toEqual([]);
  const cands = referenceCandidates(grid, marks);
  if (h.kind === 'stuck') {
    expect(solution, where).toBeNull();
  }
  if (h.kind === 'stuck' || h.reasoning === 'reveal') {
    // Nothing on the ladder applies to this board.
    const s = stateOf(grid, marks);
    for (const t of TECHNIQUES) expect(findStep(s, t), `${t} ${where}`).toBeNull();
    if (h.reasoning === 'reveal') expect(h.placed!.digit, where).toBe(solution!.cells[h.placed!.r * n + h.placed!.c]);
    return;
  }
  const step = { technique: h.technique!, placed: h.placed, eliminated: h.eliminated, units: h.units, cells: h.cells, digits: h.digits };
  expect(referenceClaimErrors(grid, grid.cells, cands, step), where).toEqual([]);
  if (h.placed) {
    expect(h.kind, where).toBe('cell');
    expect(h.explanation.toLowerCase(), where).toContain(`the cell at ${named(h.placed)}`);
    expect(h.explanation, where).toContain(SYM[h.placed.digit - 1]);
    if (solution) expect(h.placed.digit, where).toBe(solution.cells[h.placed.r * n + h.placed.c]);
  } else {
    expect(h.kind, where).toBe('eliminate');
    expect(h.eliminated.length, where).toBeGreaterThan(0);
    for (const e of h.eliminated) {
      expect(h.explanation, where).toContain(named(e));
      if (solution) expect(e.digit, `removal keeps the solution ${where}`).not.toBe(solution.cells[e.r * n + e.c]);
    }
  }
}

describe('sudokuHint: the easiest technique, in words', () => {
  it('gives the Wikipedia example its first naked single, every other digit named', () => {
    const h = sudokuHint(board(WIKIPEDIA), board(WIKI_SOLUTION))!;
    expect(h).toMatchObject({ kind: 'cell', reasoning: 'naked-single', technique: 'naked-single', row: 4, col: 4, digit: 5, placed: { r: 4, c: 4, digit: 5 }, eliminated: [], unit: null });
    expect(h.heading).toBe('Hint · Row 5, column 5');
    expect(h.explanation).toBe('The cell at row 5, column 5 can only be 5: its row, column and box already hold 1, 2, 3, 4, 6, 7, 8 and 9.');
  });

  it('says which candidates were ruled out when pencil marks made the single', () => {
    // Row 1 of the Wikipedia board: r1c3 has 1, 2 and 4 left; ruling out 1 and 2 leaves 4 (the solution's digit).
    const h = sudokuHint(board(WIKIPEDIA), board(WIKI_SOLUTION), { eliminated: [{ r: 0, c: 2, digit: 1 }, { r: 0, c: 2, digit: 2 }] })!;
    expect(h.placed).toEqual({ r: 0, c: 2, digit: 4 });
    expect(h.explanation).toBe('The cell at row 1, column 3 can only be 4: its row, column and box already hold 3, 5, 6, 7, 8 and 9, and 1 and 2 have been ruled out there, so 4 is the only digit left.');
  });

  it('ignores, with the solution known, a pencil mark that removed the right digit', () => {
    const right = sudokuHint(board(WIKIPEDIA), board(WIKI_SOLUTION));
    const marked = sudokuHint(board(WIKIPEDIA), board(WIKI_SOLUTION), { eliminated: [{ r: 4, c: 4, digit: 5 }] });
    expect(marked).toEqual(right);
  });

  it('words a hidden single with the digits that rule out the other cells', () => {
    // Only hidden singles are left to find on this 4x4 board: 1 has one place in row 1.
    const g = board('.2..' + '..1.' + '....' + '...1' );
    const h = sudokuHint(g, null)!;
    expect(h.reasoning).toBe('hidden-single');
    checkHint(g, null, [], h, 'hand 4x4');
    expect(h.explanation).toMatch(/^1 can go nowhere else in (row|column|box) \d.*: the 1s? at .* rules? it out of the other empty cells there, so the cell at row \d, column \d is 1\.$/);
  });

  it('reveals a cell on AI Escargot once the ladder stalls, and says so without a solution', () => {
    const grid = board(ESCARGOT);
    const [sol] = referenceSolutions(grid, 1);
    // Walk the ladder first: Escargot's singles and eliminations run out quickly.
    let g = grid;
    const marks: CellDigit[] = [];
    let h = sudokuHint(g, sol, { eliminated: marks })!;
    for (let k = 0; k < 200 && h.reasoning !== 'reveal'; k++) {
      if (h.placed) g = { ...g, cells: g.cells.map((v, i) => (i === h.placed!.r * 9 + h.placed!.c ? h.placed!.digit : v)) };
      else marks.push(...h.eliminated);
      h = sudokuHint(g, sol, { eliminated: marks })!;
    }
    expect(h.reasoning).toBe('reveal');
    expect(h.explanation).toMatch(/^No technique up to XY-wing applies on this board; the cell at row \d, column \d is revealed: it is \d\.$/);
    checkHint(g, sol, marks, h, 'escargot');
    const stuck = sudokuHint(g, null, { eliminated: marks })!;
    expect(stuck).toMatchObject({ kind: 'stuck', reasoning: 'stuck', placed: null });
    expect(stuck.explanation).toMatch(/^No technique up to XY-wing applies on this board: it needs trial and error from here \(the cell at row \d, column \d has the fewest candidates, .*\)\.$/);
    checkHint(g, null, marks, stuck, 'escargot stuck');
  });

  it('returns null on a complete right board and when hints are off; reveal-only says just the digit', () => {
    expect(sudokuHint(board(WIKI_SOLUTION), board(WIKI_SOLUTION))).toBeNull();
    expect(sudokuHint(board(WIKI_SOLUTION), null)).toBeNull();
    expect(sudokuHint(board(WIKIPEDIA), board(WIKI_SOLUTION), { policy: 'off' })).toBeNull();
    const h = sudokuHint(board(WIKIPEDIA), board(WIKI_SOLUTION), { policy: 'reveal-only' })!;
    expect(h).toMatchObject({ kind: 'cell', reasoning: 'reveal', placed: { r: 4, c: 4, digit: 5 } });
    expect(h.explanation).toBe('The cell at row 5, column 5 is 5.');
    const e = sudokuHint(board(WIKIPEDIA, [[0, 2, 1]]), board(WIKI_SOLUTION), { policy: 'reveal-only' })!;
    expect(e.explanation).toBe('The 1 at row 1, column 3 is wrong: it should be 4.');
  });

  it('rejects a solution of another shape', () => {
    expect(() => sudokuHint(board(WIKIPEDIA), board('1234341221434321'))).toThrow(/solution must be a full 9x9 board/);
  });
});

describe('sudokuHint: a wrong digit first, and why it cannot stand', () => {
  it('names a direct conflict with a right digit in the same unit', () => {
    // r1c3 should be 4; a 5 there meets the given 5 at r1c1.
    const h = sudokuHint(board(WIKIPEDIA, [[0, 2, 5]]), board(WIKI_SOLUTION))!;
    expect(h).toMatchObject({ kind: 'error', reasoning: 'conflict', row: 0, col: 2, digit: 4, wrong: { r: 0, c: 2, digit: 5 }, conflictWith: { r: 0, c: 0 }, unit: { kind: 'row', index: 0 } });
    expect(h.heading).toBe('Hint · Mistake at row 1, column 3 · reason in row 1');
    expect(h.explanation).toBe('The 5 at row 1, column 3 cannot stand: row 1 already has a 5, at row 1, column 1, and a digit can appear only once in each row, column and box. It should be 4.');
  });

  it('when the only clash is with another wrong digit, says they cannot both stand', () => {
    // Two wrong 1s in row 1 (r1c3 should be 4, r1c4 should be 6); no right 1 shares a unit with r1c3.
    const g = board(WIKIPEDIA, [[0, 2, 1], [0, 3, 1]]);
    const h = sudokuHint(g, board(WIKI_SOLUTION))!;
    expect(h).toMatchObject({ reasoning: 'conflict', wrong: { r: 0, c: 2, digit: 1 }, conflictWith: { r: 0, c: 3 } });
    expect(h.explanation).toBe('The 1 at row 1, column 3 and the 1 at row 1, column 4 are both in row 1, and a digit can appear only once in each row, column and box, so they cannot both stand; the 1 at row 1, column 3 is the one that is wrong. It should be 4.');
    checkHint(g, board(WIKI_SOLUTION), [], h, 'two wrong');
  });

  it('without the solution, names two equal digits in a unit, and a cell or digit with no option left', () => {
    const clash = sudokuHint(board(WIKIPEDIA, [[0, 2, 5]]), null)!;
    expect(clash).toMatchObject({ kind: 'error', reasoning: 'conflict', wrong: null, digit: null, row: 0, col: 0, conflictWith: { r: 0, c: 2 } });
    expect(clash.explanation).toBe('The 5s at row 1, column 1 and row 1, column 3 are both in row 1, and a digit can appear only once in each row, column and box, so one of them must change.');
    // 4x4: r1c4 sees 1, 2 (row), 3 (column) and 4 (box): no digit left.
    const none = sudokuHint(board('12..' + '...4' + '...3' + '....'), null)!;
    expect(none).toMatchObject({ kind: 'error', reasoning: 'contradiction', row: 0, col: 3, contradiction: { kind: 'no-candidate', cell: { r: 0, c: 3 } } });
    expect(none.explanation).toBe('The cell at row 1, column 4 has no digit left: its row, column and box already hold every digit, so some digit on the board is wrong.');
    // 4x4: row 1 needs a 1, but each of its empty cells sees a 1.
    const nowhere = sudokuHint(board('.2.3' + '..1.' + '1...' + '....'), null)!;
    expect(nowhere.contradiction).toMatchObject({ kind: 'no-place', digit: 1, unit: { kind: 'row', index: 0 } });
    expect(nowhere.explanation).toBe('1 has no place left in row 1: every empty cell there sees a 1, so some digit on the board is wrong.');
    expect(nowhere.heading).toBe('Hint · Mistake at row 1, column 1 · reason in row 1');
  });

  it('without a direct conflict, follows the forced digits to a dead end, or says only what the solution has', () => {
    const rng = createRng(77);
    const kinds = new Set<string>();
    for (let k = 0; k < 60 && kinds.size < 4; k++) {
      const { puzzle, solution } = randomPuzzle(shapeOf(3, 3), rng);
      const g = { ...puzzle, cells: puzzle.cells.slice() };
      const empties = [...g.cells.keys()].filter((i) => g.cells[i] === 0);
      for (const i of empties) {
        const cands = referenceCandidates(g, []);
        const others = [...Array(9).keys()].map((v) => v + 1).filter((v) => v !== solution.cells[i] && cands[i] & (1 << (v - 1)));
        if (!others.length) continue;
        const test = { ...g, cells: g.cells.slice() };
        test.cells[i] = others[0];
        const h = sudokuHint(test, solution)!;
        checkHint(test, solution, [], h, gridToLine(test));
        expect(h.reasoning).not.toBe('conflict');
        const key = h.reasoning === 'contradiction' ? (h.explanation.includes('it would force another digit') ? 'forced one' : h.explanation.includes('it would force') ? 'forced many' : 'at once') : h.reasoning;
        if (kinds.has(key)) continue;
        kinds.add(key);
        if (key.startsWith('forced')) expect(h.explanation).toMatch(/^If the \d at row \d, column \d stood, it would force (another digit|\d+ more digits) \(each the only digit left for its cell, or the only place left for a digit in a row, column or box\), and then (the cell at row \d, column \d would have no digit left|\d would have no place left in (row|column|box) \d.*)\. So it cannot stand\. It should be \d\.$/);
        if (key === 'at once') expect(h.explanation).toMatch(/^If the \d at row \d, column \d stood, (the cell at row \d, column \d would have no digit left|\d would have no place left in (row|column|box) \d.*), so it cannot stand\. It should be \d\.$/);
        if (key === 'solution') expect(h.explanation).toMatch(/^Placing the digits that the \d at row \d, column \d forces reaches no contradiction yet, but the puzzle's solution has \d at row \d, column \d, not \d\.$/);
        if (key === 'solution') expect(h.heading).toMatch(/^Hint · Mistake at row \d, column \d$/);
      }
    }
    expect([...kinds].sort()).toEqual(['at once', 'forced many', 'forced one', 'solution']);
  });
});

describe('every technique has its wording', () => {
  const empty4 = board('.'.repeat(16));
  it('words a naked single made by pencil marks alone', () => {
    const s = stateOf(empty4, [1, 2, 3].map((digit) => ({ r: 0, c: 0, digit })));
    expect(explainStep(s, findStep(s, 'naked-single')!)).toBe('The cell at row 1, column 1 can only be 4: 1, 2 and 3 have been ruled out there, so 4 is the only digit left.');
  });

  it('words a hidden single whose other places were ruled out, seen, or both, and the last empty cell of a unit', () => {
    const ruled = stateOf(empty4, [1, 2, 3].map((c) => ({ r: 0, c, digit: 1 })));
    expect(explainStep(ruled, findStep(ruled, 'hidden-single')!)).toBe('1 can go nowhere else in row 1: 1 has been ruled out at row 1, column 2, row 1, column 3 and row 1, column 4, so the cell at row 1, column 1 is 1.');
    const both = stateOf(board('....' + '..1.' + '....' + '....'), [{ r: 0, c: 1, digit: 1 }]);
    const step = findStep(both, 'hidden-single')!;
    expect(step.placed).toEqual({ r: 0, c: 0, digit: 1 });
    expect(explainStep(both, step)).toBe('1 can go nowhere else in row 1: the 1 at row 2, column 3 rules it out of the empty cells there in its row, column or box, and 1 has been ruled out at row 1, column 2, so the cell at row 1, column 1 is 1.');
    const last = stateOf(board('123.' + '....' + '....' + '....'));
    const lone = findStep(last, 'hidden-single')!;
    expect(explainStep(last, lone)).toBe('4 is the only digit missing from row 1, and the cell at row 1, column 4 is its only empty cell, so it is 4.');
  });

  it('words a dead end on the board with pencil marks', () => {
    const marks = [{ r: 0, c: 2, digit: 3 }, { r: 0, c: 2, digit: 4 }];
    const h = sudokuHint(board('12..' + '....' + '....' + '....'), null, { eliminated: marks })!;
    expect(h.explanation).toBe('The cell at row 1, column 3 has no digit left: every digit is already in its row, column or box, or has been ruled out there, so some digit on the board is wrong.');
    const none = sudokuHint(board('.2..' + '....' + '1...' + '....'), null, { eliminated: [2, 3].map((c) => ({ r: 0, c, digit: 1 })) })!;
    expect(none.explanation).toBe('1 has no place left in row 1: every empty cell there sees a 1 or has it ruled out, so some digit on the board is wrong.');
  });

  it('explains each technique found on random positions, naming its digits, cells and units', () => {
    const rng = createRng(909);
    const texts = new Map<TechniqueId, string>();
    for (let k = 0; k < 60 && texts.size < TECHNIQUES.length; k++) {
      const { puzzle, solution } = randomPuzzle(shapeOf(3, 3), rng);
      const { grid, eliminated } = progress(puzzle, solution, rng, rng.next() * 0.3, rng.next() * 0.5);
      const s = stateOf(grid, eliminated);
      for (const t of TECHNIQUES) {
        const step = findStep(s, t);
        if (!step || texts.has(t)) continue;
        const text = explainStep(s, step);
        texts.set(t, text);
        for (const e of step.eliminated) expect(text).toContain(named(e));
        for (const v of step.digits) expect(text).toContain(String(v));
        for (const u of step.units) expect(text).toContain(String(u.index + 1));
      }
    }
    const patterns: Record<TechniqueId, RegExp> = {
      'naked-single': /^The cell at row \d, column \d can only be \d: its row, column and box already hold .*\.$/,
      'hidden-single': /^\d can go nowhere else in (row|column|box) \d.*: the \ds? at .* (rule|rules) it out of .*, so the cell at row \d, column \d is \d\.$/,
      pointing: /^In box \d \(rows \d–\d, columns \d–\d\), \d can only go in (row|column) \d \(at .*\)\. So the \d of (row|column) \d is one of those cells, and \d can go nowhere else in (row|column) \d: remove \d from .*\.$/,
      claiming: /^In (row|column) \d, \d can only go in box \d \(rows \d–\d, columns \d–\d\) \(at (rows|columns) .*\)\. So the \d of box \d is one of those cells, and \d can go nowhere else in box \d: remove \d from .*\.$/,
      'naked-pair': /^In .*, the two cells at .* can only hold \d and \d between them, so they take those two digits and no other cell of .* can: remove .*\.$/,
      'naked-triple': /^In .*, the three cells at .* can only hold \d, \d and \d between them, so they take those three digits and no other cell of .* can: remove .*\.$/,
      'hidden-pair': /^In .*, \d and \d can only go in the two cells at .*, so those cells hold \d and \d and nothing else: remove .*\.$/,
      'hidden-triple': /^In .*, \d, \d and \d can only go in the three cells at .*, so those cells hold \d, \d and \d and nothing else: remove .*\.$/,
      'x-wing': /^In (rows|columns) \d and \d, \d can only go in (rows|columns) \d and \d\. Each of those (rows|columns) needs a \d, each in a different one of these (rows|columns), so they take the \d of both (rows|columns): remove \d from .*\.$/,
      swordfish: /^In (rows|columns) \d, \d and \d, \d can only go in (rows|columns) \d, \d and \d\. Each of those (rows|columns) needs a \d, each in a different one of these (rows|columns), so they take the \d of all three (rows|columns): remove \d from .*\.$/,
      'xy-wing': /^The cell at row \d, column \d can only be \d or \d\. If it is \d, the cell at row \d, column \d \(only \d or \d\) is \d; if it is \d, the cell at row \d, column \d \(only \d or \d\) is \d\. Either way one of those two cells is \d, so no cell that sees both of them can be \d: remove \d from .*\.$/,
    };
    for (const t of TECHNIQUES) {
      expect(texts.has(t), t).toBe(true);
      expect(texts.get(t), t).toMatch(patterns[t]);
    }
  });
});

/** A random position on the way to the solution: some empty cells filled rightly, some wrong candidates pencilled out. */
function progress(puzzle: Grid, solution: Grid, rng: Rng, fill: number, strike: number): { grid: Grid; eliminated: CellDigit[] } {
  const n = puzzle.size;
  const cells = puzzle.cells.map((v, i) => (v === 0 && rng.next() < fill ? solution.cells[i] : v));
  const eliminated: CellDigit[] = [];
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] !== 0) continue;
    for (let v = 1; v <= n; v++) if (v !== solution.cells[i] && rng.next() < strike) eliminated.push({ r: Math.floor(i / n), c: i % n, digit: v });
  }
  return { grid: { ...puzzle, cells }, eliminated };
}

describe('PROPERTY: every hint is true of its board (checked against the reference solver)', () => {
  it('following the hints from each random puzzle reaches its solution, every claim checked on the way', () => {
    const rng = createRng(3434);
    const seen = new Set<string>();
    const shapes = [shapeOf(3, 3), shapeOf(3, 3), shapeOf(2, 3), shapeOf(2, 2), shapeOf(3, 3), shapeOf(3, 2)];
    for (let k = 0; k < 48; k++) {
      const { puzzle, solution } = randomPuzzle(shapes[k % shapes.length], rng);
      let g = puzzle;
      const marks: CellDigit[] = [];
      for (let steps = 0; steps < 2000; steps++) {
        const h = sudokuHint(g, solution, { eliminated: marks });
        if (!h) break;
        checkHint(g, solution, marks, h, `${gridToLine(g)} less ${JSON.stringify(marks)}`);
        seen.add(h.reasoning);
        if (h.placed) g = { ...g, cells: g.cells.map((v, i) => (i === h.placed!.r * g.size + h.placed!.c ? h.placed!.digit : v)) };
        else marks.push(...h.eliminated);
      }
      expect(Array.from(g.cells)).toEqual(Array.from(solution.cells));
    }
    for (const r of ['naked-single', 'hidden-single', 'pointing', 'claiming', 'naked-pair', 'hidden-pair', 'reveal']) expect(seen, r).toContain(r);
  });

  it('on 12x12 and 16x16 boards, digits past 9 are letters in the words, and following the hints still solves', () => {
    const rng = createRng(3436);
    for (const [shape, keep] of [[shapeOf(3, 4), 60], [shapeOf(4, 4), 140]] as const) {
      const { puzzle, solution } = randomPuzzle(shape, rng, keep);
      let g = puzzle;
      const marks: CellDigit[] = [];
      let letters = 0;
      for (let steps = 0; steps < 3000; steps++) {
        const h = sudokuHint(g, solution, { eliminated: marks });
        if (!h) break;
        checkHint(g, solution, marks, h, `${shape.size}x${shape.size} step ${steps}`);
        if (h.placed && h.placed.digit > 9) {
          letters++;
          expect(h.explanation).toContain(` ${SYM[h.placed.digit - 1]}`);
          // The digit itself is never written as a number past 9 (row and column numbers may be).
          expect(h.explanation).not.toMatch(/can only be 1[0-6]\b|is 1[0-6]\.$/);
        }
        if (h.placed) g = { ...g, cells: g.cells.map((v, i) => (i === h.placed!.r * g.size + h.placed!.c ? h.placed!.digit : v)) };
        else marks.push(...h.eliminated);
      }
      expect(Array.from(g.cells)).toEqual(Array.from(solution.cells));
      expect(letters).toBeGreaterThan(0);
    }
  });

  it('on random progress states with random wrong digits and pencil marks, with and without the solution', () => {
    const rng = createRng(3435);
    const seen = new Set<string>();
    const shapes = [shapeOf(3, 3), shapeOf(2, 3), shapeOf(2, 2), shapeOf(3, 3)];
    for (let k = 0; k < 160; k++) {
      const shape = shapes[k % shapes.length];
      const n = shape.size;
      const { puzzle, solution } = randomPuzzle(shape, rng);
      const { grid, eliminated } = progress(puzzle, solution, rng, rng.next() * 0.6, rng.next() < 0.5 ? 0 : rng.next() * 0.3);
      const wrong = rng.int(3);
      for (let w = 0; w < wrong; w++) {
        const empties = [...grid.cells.keys()].filter((i) => grid.cells[i] === 0);
        if (!empties.length) break;
        const i = empties[rng.int(empties.length)];
        grid.cells[i] = 1 + ((solution.cells[i] + rng.int(n - 1)) % n);
      }
      const where = `${gridToLine(grid)} less ${JSON.stringify(eliminated)}`;
      const withSolution = sudokuHint(grid, solution, { eliminated });
      if (withSolution) {
        checkHint(grid, solution, eliminated, withSolution, `${where} (solution given)`);
        seen.add(`${withSolution.kind}:${withSolution.reasoning}`);
      } else expect(Array.from(grid.cells)).toEqual(Array.from(solution.cells));
      const alone = sudokuHint(grid, null, { eliminated });
      if (alone) {
        checkHint(grid, null, eliminated, alone, `${where} (no solution)`);
        seen.add(`alone ${alone.kind}:${alone.reasoning}`);
      }
    }
    for (const key of ['error:conflict', 'error:contradiction', 'cell:naked-single', 'alone error:conflict', 'alone cell:naked-single']) expect(seen, key).toContain(key);
  });
});
