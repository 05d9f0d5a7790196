// Moves: every participant action on a board, as data (applyMove in shared/game turns them into states).
import { z } from 'zod';

const Row = z.number().int().nonnegative().max(99);
const Col = z.number().int().nonnegative().max(99);

/** The three states a participant can paint; 'crossed' is the participant's mark for an empty cell. */
export const PaintState = z.enum(['filled', 'crossed', 'unknown']);
export type PaintState = z.infer<typeof PaintState>;

export const Move = z.discriminatedUnion('type', [
  z.object({ type: z.literal('fill'), row: Row, col: Col }),
  z.object({ type: z.literal('cross'), row: Row, col: Col }),
  z.object({ type: z.literal('clear'), row: Row, col: Col }),
  /** A drag: one straight stroke painting every touched cell with one state; undone as a unit. */
  z.object({ type: z.literal('stroke'), state: PaintState, cells: z.array(z.tuple([Row, Col])).min(1).max(100) }),
  /** A cell revealed by a hint (the server's answer), applied like a paint and undoable. */
  z.object({ type: z.literal('reveal'), row: Row, col: Col, state: z.enum(['filled', 'crossed']) }),
  z.object({ type: z.literal('undo') }),
  z.object({ type: z.literal('reset') }),
  z.object({ type: z.literal('hint') }),
  z.object({ type: z.literal('submit') }),
  z.object({ type: z.literal('skip') }),
]);
export type Move = z.infer<typeof Move>;

export const InputSource = z.enum(['mouse', 'touch', 'keyboard', 'system']);
export type InputSource = z.infer<typeof InputSource>;
