// The Sudoku move labeller: hand-worked boards, bots whose moves the ladder forces, a bot that guesses, soundness.
import { describe, expect, it } from 'vitest';
import { sudokuMoveLabel, singlesOnGivens, SINGLES, type SudokuReasoningLabel } from './reasoning.ts';
import { applyStep, contradiction, easiestStep, stateOf, TECHNIQUES } from './techniques.ts';
import { gridFromLine } from './testGrid.ts';
import { referenceSolutions } from './referenceSolver.ts';
import { generateSudoku } from './generate.ts';
import { createRng } from '../random.ts';
import type { Grid } from './grid.ts';

const WIKIPEDIA = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const ESCARGOT = '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..';

const label = (g: Grid, r: number, c: number, v: number) => sudokuMoveLabel(g, g.cells, r * g.size + c, v);

describe('sudokuMoveLabel on hand-worked 4x4 boards (2x2 boxes; solution 1234/3412/2143/4321)', () => {
  it('names a naked single, a hidden single, and a digit against what the board forces', () => {
    // 1... / .... / .... / 4... : (1,0) sees 1 (box) and 4 (column): {2,3}; no naked single anywhere, nor hidden.
    // 1... / ..12 / .1.. / 4..1 : (1,0) sees 1, 2 (row) and 4 (column): only 3 is left, a naked single.
    const g = gridFromLine('1.....12.1..4..1');
    expect(label(g, 1, 0, 3)).toBe('naked-single');
    // .... / .... / ...3 / 4... : every cell sees at most the 3 and the 4, so no cell has one candidate; in row 2 the 4
    // cannot go in (2,0) or (2,1) (box 2 holds the 4 of (3,0)), so (2,2) is its only place: a hidden single.
    const h = gridFromLine('...........34...');
    expect(label(h, 2, 2, 4)).toBe('hidden-single');
    // In row 3 the 3 has one place, (3,1) (box 3 holds the 3 of (2,3)): writing 2 there goes against it.
    expect(label(h, 3, 1, 3)).toBe('hidden-single');
    expect(label(h, 3, 1, 2)).toBe('guess');
    // (0,0) on that board: nothing on the ladder settles it.
    expect(label(h, 0, 0, 1)).toBe('guess');
  });

  it('credits nothing on a board that already breaks a rule, and sets the cell\'s own digit aside', () => {
    // two 1s in row 0: contradictory, so even the naked single (1,0) = 3 of the board above is a guess there
    expect(label(gridFromLine('11....12.1..4..1'), 1, 0, 3)).toBe('guess');
    // (1,0) holding a wrong 2: set aside, the naked single is found as before
    expect(label(gridFromLine('1...2.12.1..4..1'), 1, 0, 3)).toBe('naked-single');
  });

  it('finds the footholds: the cells a single places on the board as given', () => {
    const h = gridFromLine('...........34...');
    expect([...singlesOnGivens(h, h.cells)].sort((a, b) => a - b)).toEqual([10, 13]); // (2,2) = 4 and (3,1) = 3
  });
});

/**
 * A bot that writes, one by one, the digits the ladder places (its eliminations kept in its head, `technique` the
 * hardest technique of the turn); at a stall it guesses the solution's digit in the first cell with the fewest candidates.
 */
function playLadderBot(givens: Grid, solution: Grid): { cell: number; digit: number; label: SudokuReasoningLabel; technique: string }[] {
  const board = givens.cells.slice();
  const out: { cell: number; digit: number; label: SudokuReasoningLabel; technique: string }[] = [];
  for (let guard = 0; guard < 200 && board.includes(0); guard++) {
    const s = stateOf({ ...givens, cells: board });
    let placed: { i: number; technique: string } | null = null;
    let hardest = 0; // the hardest technique of this turn: eliminations first, then the placement
    for (;;) {
      const step = easiestStep(s);
      if (!step) break;
      hardest = Math.max(hardest, TECHNIQUES.indexOf(step.technique));
      if (step.placed) {
        placed = { i: step.placed.r * givens.size + step.placed.c, technique: TECHNIQUES[hardest] };
        break;
      }
      applyStep(s, step);
    }
    let i: number;
    let technique = 'guess';
    if (placed) ({ i, technique } = placed);
    else {
      i = -1;
      for (let j = 0; j < board.length; j++) if (board[j] === 0 && (i < 0 || popcount(s.cands[j]) < popcount(s.cands[i]))) i = j;
    }
    const digit = solution.cells[i];
    out.push({ cell: i, digit, label: sudokuMoveLabel(givens, board, i, digit), technique });
    board[i] = digit;
  }
  return out;
}

function popcount(m: number): number {
  let k = 0;
  for (; m; m &= m - 1) k++;
  return k;
}

describe('bots', () => {
  it('a bot whose every digit a single forces gets only single labels (the Wikipedia example, 51 digits)', () => {
    const g = gridFromLine(WIKIPEDIA);
    const [sol] = referenceSolutions(g, 1);
    const moves = playLadderBot(g, sol);
    expect(moves.length).toBe(51);
    // (a hidden single the bot saw may be reached by a chain of naked singles too: the label is the weakest)
    for (const m of moves) expect(SINGLES.has(m.label), `cell ${m.cell}`).toBe(true);
  });

  it('a ladder bot gets a ladder label no harder than the technique it used; told to guess (at a stall) it gets guess exactly there', () => {
    const rng = createRng(37);
    let guesses = 0, forced = 0;
    const seen = new Set<string>();
    const boards = [gridFromLine(ESCARGOT), ...Array.from({ length: 6 }, (_, k) => generateSudoku({ size: 9, seed: 370 + k + rng.int(1000) }).givens)];
    for (const g of boards) {
      const [sol] = referenceSolutions(g, 1);
      for (const m of playLadderBot(g, sol)) {
        if (m.technique === 'guess') {
          guesses++;
          expect(m.label, `guess at ${m.cell}`).toBe('guess');
        } else {
          forced++;
          seen.add(m.label);
          expect(m.label).not.toBe('guess');
          expect(TECHNIQUES.indexOf(m.label as never), `cell ${m.cell}`).toBeLessThanOrEqual(TECHNIQUES.indexOf(m.technique as never));
        }
      }
    }
    expect(guesses).toBeGreaterThan(0); // AI Escargot stalls the ladder
    expect(forced).toBeGreaterThan(100);
    expect([...seen].filter((l) => !SINGLES.has(l as SudokuReasoningLabel)).length, [...seen].join(' ')).toBeGreaterThan(0); // rungs above the singles credited
  });

  it('every label but guess is sound on a board whose digits are right: the digit is the solution\'s', () => {
    const rng = createRng(7);
    let checked = 0;
    for (let t = 0; t < 4; t++) {
      const { givens: puzzle } = generateSudoku({ size: 9, seed: 900 + t });
      const [sol] = referenceSolutions(puzzle, 1);
      const board = puzzle.cells.map((v, i) => (v === 0 && rng.next() < 0.3 ? sol.cells[i] : v));
      expect(contradiction(stateOf({ ...puzzle, cells: board }))).toBeNull();
      for (let i = 0; i < board.length; i++) {
        if (board[i] !== 0) continue;
        for (let v = 1; v <= 9; v++) {
          const l = sudokuMoveLabel(puzzle, board, i, v);
          if (l !== 'guess') {
            expect(v, `cell ${i}`).toBe(sol.cells[i]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
