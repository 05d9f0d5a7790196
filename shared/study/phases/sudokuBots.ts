// The Sudoku bots' play, registered by the bots' harness (analysis/simulate/bot.ts) rather than imported by the phase
// modules, so the participant page's first load (which carries them) never carries the bots' Sudoku engine.
import type * as SudokuPlayModule from './sudokuPlay.ts';

let sudokuPlay: typeof SudokuPlayModule | null = null;
export function registerSudokuPlay(m: typeof SudokuPlayModule): void {
  sudokuPlay = m;
}
export function sudokuPlayOrThrow(): typeof SudokuPlayModule {
  if (!sudokuPlay) throw new Error('Sudoku bots need registerSudokuPlay (analysis/simulate/bot.ts registers it)');
  return sudokuPlay;
}
