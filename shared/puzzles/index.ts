// Puzzle kinds, by id: every kind is one module (shared/puzzles/<kind>.ts). A record names its kind (`"kind"`;
// absent means "nonogram", so every existing file, config and log reads unchanged). docs/puzzle-kinds.md says how to
// add one.
import type { KindId, PuzzleKind } from './kind.ts';
import { nonogram } from './nonogram.ts';
import { sudoku } from './sudoku.ts';

export type { KindId, KindHint, KindSolveLine, PuzzleKind } from './kind.ts';
export { nonogram } from './nonogram.ts';
export { sudoku, givensOf } from './sudoku.ts';
export { SudokuBoard } from '../sudoku/schema.ts';

/** Every kind, the default (nonogram) last: a file is the first kind's that recognizes it. */
export const PUZZLE_KINDS: readonly PuzzleKind<any>[] = [sudoku, nonogram];
export const KIND_IDS: readonly KindId[] = ['nonogram', 'sudoku'];

export class UnknownKindError extends Error {}

/** The kind of an id; UnknownKindError listing the kinds for anything else. */
export function puzzleKind(id: string): PuzzleKind<any> {
  const k = PUZZLE_KINDS.find((x) => x.id === id);
  if (!k) throw new UnknownKindError(`unknown puzzle kind '${id}' (kinds: ${KIND_IDS.join(', ')})`);
  return k;
}

/** The kind a record names (`kind`, default nonogram). */
export function kindOfRecord(record: { kind?: unknown }): PuzzleKind<any> {
  return puzzleKind(typeof record.kind === 'string' ? record.kind : 'nonogram');
}

/** The kind of a file's text: the first kind whose formats recognize it (nonogram otherwise). */
export function kindOfText(text: string, file: string): PuzzleKind<any> {
  return PUZZLE_KINDS.find((k) => k.recognizes(text, file)) ?? nonogram;
}
