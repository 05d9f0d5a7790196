// Moves: every participant action on a board, as data (applyMove in shared/game turns them into states).
import { z } from 'zod';

const Row = z.number().int().nonnegative().max(99);
const Col = z.number().int().nonnegative().max(99);
/** A Sudoku digit: 1..N for a board of side N (at most 35 symbols: shared/sudoku/grid.ts DIGIT_SYMBOLS). */
const Digit = z.number().int().min(1).max(35);

/** The three states a participant can paint; 'crossed' is the participant's mark for an empty cell. */
export const PaintState = z.enum(['filled', 'crossed', 'unknown']);
export type PaintState = z.infer<typeof PaintState>;

/** Offsets (ms, <= 0, non-decreasing) of a stroke's cells from the stroke event's time stamp. */
export const StrokeCellMs = z
  .array(z.number().finite().min(-600_000).max(0))
  .max(100)
  .refine((xs) => xs.every((x, i) => i === 0 || x >= xs[i - 1]), { message: 'cell offsets must not decrease' });
export type StrokeCellMs = z.infer<typeof StrokeCellMs>;

export const Move = z.discriminatedUnion('type', [
  z.object({ type: z.literal('fill'), row: Row, col: Col }),
  z.object({ type: z.literal('cross'), row: Row, col: Col }),
  z.object({ type: z.literal('clear'), row: Row, col: Col }),
  /**
   * A drag: one straight stroke painting every touched cell with one state; undone as a unit. `cell_ms` (optional:
   * logs written before it existed have none) gives, for each cell in order, when the pointer reached it, in
   * milliseconds relative to the event's own time stamp (the stroke is logged when it ends, so every offset is
   * <= 0, and they never decrease).
   */
  z
    .object({ type: z.literal('stroke'), state: PaintState, cells: z.array(z.tuple([Row, Col])).min(1).max(100), cell_ms: StrokeCellMs.optional() })
    .refine((m) => m.cell_ms === undefined || m.cell_ms.length === m.cells.length, { message: 'cell_ms must give one offset per cell', path: ['cell_ms'] }),
  /** A cell revealed by a hint (the server's answer), applied like a paint and undoable. */
  z.object({ type: z.literal('reveal'), row: Row, col: Col, state: z.enum(['filled', 'crossed']) }),
  // Sudoku's moves (shared/sudoku/board.ts applies them; `clear`, `undo`, `reset`, `hint`, `submit`, `skip` are shared):
  /** Write a digit in a cell (replacing the digit there; its pencil marks stay under it and show again when it is cleared). */
  z.object({ type: z.literal('set_digit'), row: Row, col: Col, digit: Digit }),
  /** Toggle one pencil mark (a candidate drawn small) in a cell that holds no digit. */
  z.object({ type: z.literal('pencil'), row: Row, col: Col, digit: Digit }),
  /** A digit revealed by a hint (the server's answer), applied like set_digit and undoable. */
  z.object({ type: z.literal('reveal_digit'), row: Row, col: Col, digit: Digit }),
  z.object({ type: z.literal('undo') }),
  z.object({ type: z.literal('reset') }),
  z.object({ type: z.literal('hint') }),
  z.object({ type: z.literal('submit') }),
  z.object({ type: z.literal('skip') }),
]);
export type Move = z.infer<typeof Move>;

export const InputSource = z.enum(['mouse', 'touch', 'keyboard', 'system']);
export type InputSource = z.infer<typeof InputSource>;
