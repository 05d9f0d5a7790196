// The weakest rung of the human technique ladder that forces one digit into one cell on a participant's Sudoku board.
/*
 * A participant writes digit v into cell i on a board B, their own digits (and the givens) just before the change,
 * wrong digits included. B's candidates are the digits' (stateOf: what each cell's row, column and box leave open);
 * the participant's pencil marks play no part (they are notes the participant may have got wrong, not facts: the
 * hint's explanations set them aside the same way). The cell's own digit, when it holds one, is set aside: it is what
 * is being decided. The label is the first technique k of TECHNIQUES (techniques.ts, the ladder of the hints and
 * grades: naked-single, hidden-single, pointing, claiming, naked-pair, hidden-pair, naked-triple, hidden-triple,
 * x-wing, swordfish, xy-wing) such that the techniques up to k, applied again and again from B (the easiest that
 * applies first, as gradeHuman does), place v at i. Rung k's run starts where rung k-1's stalled: the techniques only
 * remove candidates a solution consistent with the board cannot have, so whatever the lower rungs reached, the higher
 * ones reach too.
 *   guess  none of them: the ladder stalls with i open (only trial and error, or reasoning beyond xy-wing, settles
 *          it), or it places another digit at i, or removes v from i (v is against what B forces), or the board is
 *          already contradictory (a digit twice in a unit, a cell or a digit with no option left: a wrong digit makes
 *          every deduction vacuous, so none is credited) or becomes so on the way.
 * Every label but guess is sound: on a board whose digits agree with the solution, v is the solution's digit at i.
 * What it cannot do: know which technique the participant used (a cell a naked single gives may have been found as a
 * hidden single), or see the pencil marks' part in it. Cost: a chain of singles (most cells) is a few hundred
 * operations; a board that needs the upper rungs runs each of them until it stalls or the cell is placed.
 */
import { applyStep, contradiction, findStep, stateOf, TECHNIQUES, type HumanState, type Step, type TechniqueId } from './techniques.ts';
import { bit } from './candidates.ts';
import type { Grid, Shape } from './grid.ts';

export type SudokuReasoningLabel = TechniqueId | 'guess';
export const SUDOKU_REASONING_LABELS: readonly SudokuReasoningLabel[] = [...TECHNIQUES, 'guess'];

/** The singles: the family of a Sudoku's easiest reasoning (as the line family is a Nonogram's). */
export const SINGLES: ReadonlySet<SudokuReasoningLabel> = new Set(['naked-single', 'hidden-single']);

/** The easiest step among the first `upTo + 1` techniques of the ladder, or null. */
function stepUpTo(s: HumanState, upTo: number): Step | null {
  for (let k = 0; k <= upTo; k++) {
    const step = findStep(s, TECHNIQUES[k]);
    if (step) return step;
  }
  return null;
}

/**
 * The label of writing digit `value` into cell `i` of `cells` (the board before the change, reading order, 0 empty;
 * the cell's own digit is set aside). `shape` is the board's box shape.
 */
export function sudokuMoveLabel(shape: Shape, cells: Uint8Array, i: number, value: number): SudokuReasoningLabel {
  const board = cells.slice();
  board[i] = 0;
  const s = stateOf({ ...shape, cells: board } as Grid);
  const b = bit(value);
  for (let k = 0; k < TECHNIQUES.length; k++) {
    // Rung k starts where rung k-1 stalled, so the techniques below k find nothing until a step of rung k changes the
    // state: try technique k alone first (the same step stepUpTo would give, without scanning the lower rungs again).
    let stalledBelow = k > 0;
    for (;;) {
      if (contradiction(s)) return 'guess';
      if (s.cells[i] !== 0) return s.cells[i] === value ? TECHNIQUES[k] : 'guess';
      if ((s.cands[i] & b) === 0) return 'guess';
      const step = stalledBelow ? findStep(s, TECHNIQUES[k]) : stepUpTo(s, k);
      if (!step) break; // rung k stalls: the next rung starts from here
      applyStep(s, step);
      stalledBelow = false;
    }
  }
  return 'guess';
}

/** The cells a single places on the board as given (a Sudoku's footholds: what the first rung settles at once). */
export function singlesOnGivens(shape: Shape, givens: Uint8Array): Set<number> {
  const s = stateOf({ ...shape, cells: givens } as Grid);
  const out = new Set<number>();
  if (contradiction(s)) return out;
  const g = s.geo;
  for (let i = 0; i < g.cellCount; i++) {
    const m = s.cands[i];
    if (s.cells[i] === 0 && m !== 0 && (m & (m - 1)) === 0) out.add(i);
  }
  for (const u of g.units) {
    let once = 0, twice = 0;
    for (const i of u.cells) {
      if (s.cells[i] !== 0) continue;
      twice |= once & s.cands[i];
      once |= s.cands[i];
    }
    const lone = (once & ~twice) >>> 0;
    if (lone) for (const i of u.cells) if (s.cells[i] === 0 && (s.cands[i] & lone) !== 0) out.add(i);
  }
  return out;
}
