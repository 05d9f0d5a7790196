// The tutorial's checklist: each control the participant must try once, read off the moves they made.
import type { Move } from '../schema/move.ts';

export const TUTORIAL_TASKS = ['fill', 'cross', 'drag', 'undo', 'reset', 'hint', 'submit'] as const;
/** A Sudoku tutorial's tasks: write a digit, pencil a note, erase, and the shared controls. */
export const SUDOKU_TUTORIAL_TASKS = ['digit', 'notes', 'erase', 'undo', 'reset', 'hint', 'submit'] as const;
export type TutorialTask = (typeof TUTORIAL_TASKS)[number] | (typeof SUDOKU_TUTORIAL_TASKS)[number];

// What each task is called on screen, for the input in use: the catalogue's `task.<input>.<task>` (shared/i18n/en.ts).

/** The tasks a tutorial asks for, by the puzzle's kind: hint only when the study offers hints. */
export function tutorialTasks(hintsOn: boolean, kind: 'nonogram' | 'sudoku' = 'nonogram'): TutorialTask[] {
  return (kind === 'sudoku' ? SUDOKU_TUTORIAL_TASKS : TUTORIAL_TASKS).filter((t) => hintsOn || t !== 'hint');
}

/** Which tasks the moves so far have done. A stroke counts as a drag; fills/crosses count by their type. */
export function tasksDone(moves: readonly Move[]): Set<TutorialTask> {
  const done = new Set<TutorialTask>();
  for (const m of moves) {
    if (m.type === 'fill' || m.type === 'cross' || m.type === 'undo' || m.type === 'reset' || m.type === 'hint' || m.type === 'submit') done.add(m.type);
    else if (m.type === 'set_digit') done.add('digit');
    else if (m.type === 'pencil') done.add('notes');
    else if (m.type === 'clear') done.add('erase');
    else if (m.type === 'stroke' && m.cells.length > 1) {
      done.add('drag');
      if (m.state === 'filled') done.add('fill');
      if (m.state === 'crossed') done.add('cross');
    }
  }
  return done;
}
