// The hint a participant's board gets, by the puzzle's kind: the engine's answer as the API sends it (solutions stay
// on the server) and what the server's `hint` record keeps of it.
import type { HintPolicy, StudyPuzzle } from '../shared/schema/config.ts';
import { isNonogramPuzzle } from '../shared/schema/config.ts';
import type { HintResponse } from '../shared/schema/api.ts';
import { gridFromBoardRows } from '../shared/game/board.ts';
import { hint as nonogramHint, hintExplanation, hintHeading } from '../shared/nonogram/hint.ts';
import { gridFromRows } from '../shared/nonogram/grid.ts';
import { sudokuHint, sudokuHintExplanation, sudokuHintHeading } from '../shared/sudoku/hint.ts';
import { ENGLISH_HINT_WORDS } from '../shared/i18n/hints/phrase.ts';
import type { HintWords } from '../shared/i18n/hints/phrase.ts';
import { givensOf } from '../shared/puzzles/sudoku.ts';
import { recordGrids } from '../shared/sudoku/schema.ts';

export interface KindHintAnswer {
  /** What the participant's page receives (null: nothing to say, the board is solved). */
  hint: HintResponse['hint'];
  /** The record's fields (row, col, kind, reasoning), or null when there is no hint. */
  record: { row: number; col: number; kind: string; reasoning: string } | null;
}

/** Digits a participant has ruled out, as the Sudoku hint reads them (candidates an earlier hint removed). */
export interface Eliminated {
  row: number;
  col: number;
  digit: number;
}

/**
 * The hint for `rows` (the kind's board text) on `puzzle` under `policy` ('off' is refused before this), its heading and
 * explanation in `words` (the session's language: shared/i18n/hints/catalogues.ts `hintWords`; English by default,
 * exactly the engines' text). A Sudoku's comes from shared/sudoku/hint.ts (its `reveal-only` text names the revealed
 * digit and nothing more); a Nonogram's `reveal-only` hint has no text (the page says what it shows).
 */
export function hintFor(
  puzzle: StudyPuzzle & { solution: string[] },
  rows: readonly string[],
  policy: HintPolicy,
  eliminated: readonly Eliminated[] = [],
  words: HintWords = ENGLISH_HINT_WORDS,
): KindHintAnswer {
  if (isNonogramPuzzle(puzzle)) {
    const board = gridFromBoardRows([...rows], puzzle.width, puzzle.height);
    const found = nonogramHint({ rows: puzzle.rows, cols: puzzle.cols }, board, gridFromRows(puzzle.solution), policy);
    if (!found) return { hint: null, record: null };
    return {
      hint: {
        kind: found.kind,
        row: found.row,
        col: found.col,
        value: found.value,
        line: found.line,
        reasoning: found.reasoning,
        heading: hintHeading(found, words),
        explanation: policy === 'reveal-only' ? '' : hintExplanation(found, words),
        reason_in_line: found.claim.line !== null,
      },
      record: { row: found.row, col: found.col, kind: found.kind, reasoning: found.reasoning },
    };
  }
  const n = puzzle.size;
  // The participant's board as a grid of this shape (a malformed row reads as empty cells: the check names nothing).
  const board = givensOf({ ...puzzle, givens: Array.from({ length: n }, (_, r) => (rows[r] ?? '').padEnd(n, '.').slice(0, n).replace(/[^1-9A-Z.]/g, '.')) });
  const { solution } = recordGrids(puzzle);
  const found = sudokuHint(board, solution, { policy, eliminated: eliminated.map((e) => ({ r: e.row, c: e.col, digit: e.digit })) });
  if (!found) return { hint: null, record: null };
  // The digit a reveal writes: a cell hint's digit; for a wrong digit, the right one (what "fix it for me" writes).
  const digit = found.kind === 'cell' ? found.digit : found.kind === 'error' ? solution.cells[found.row * n + found.col] : null;
  return {
    hint: {
      puzzle: 'sudoku',
      kind: found.kind,
      row: found.row,
      col: found.col,
      digit,
      eliminated: found.eliminated.map((e) => ({ row: e.r, col: e.c, digit: e.digit })),
      cells: found.cells.map((c) => [c.r, c.c] as [number, number]),
      heading: sudokuHintHeading(found, words),
      reasoning: found.reasoning,
      explanation: sudokuHintExplanation(found, words),
    },
    record: { row: found.row, col: found.col, kind: found.kind, reasoning: found.reasoning },
  };
}
