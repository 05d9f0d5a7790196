// The tutorial's checklist: each control the participant must try once, read off the moves they made.
import type { Move } from '../schema/move.ts';
import type { InputKind } from '../schema/config.ts';

export const TUTORIAL_TASKS = ['fill', 'cross', 'drag', 'undo', 'reset', 'hint', 'submit'] as const;
/** A Sudoku tutorial's tasks: write a digit, pencil a note, erase, and the shared controls. */
export const SUDOKU_TUTORIAL_TASKS = ['digit', 'notes', 'erase', 'undo', 'reset', 'hint', 'submit'] as const;
export type TutorialTask = (typeof TUTORIAL_TASKS)[number] | (typeof SUDOKU_TUTORIAL_TASKS)[number];

const SUDOKU_LABELS = {
  pointer: { digit: 'Write a digit: click a cell, then a digit on the pad (or its key)', notes: 'Pencil a note: switch to Notes, then a digit', erase: 'Erase a cell (Erase, or Backspace)' },
  touch: { digit: 'Write a digit: tap a cell, then a digit on the pad', notes: 'Pencil a note: switch the pad to Notes, then tap a digit', erase: 'Erase a cell: tap it, then Erase' },
  keyboard: { digit: 'Write a digit: arrows to a cell, then its key', notes: 'Pencil a note: N for notes, then a digit key', erase: 'Erase a cell: Backspace or Delete' },
} as const;

export const TASK_LABELS: Record<TutorialTask, string> = {
  digit: 'Write a digit in a cell (select it, then a digit)',
  notes: 'Pencil a small note (Notes mode, then a digit)',
  erase: 'Erase a cell (Erase, Backspace or Delete)',
  fill: 'Fill a cell (left click, tap in Fill mode, or Space)',
  cross: 'Cross a cell you know is empty (right click, long press, or X)',
  drag: 'Drag along a row or column to paint several cells at once (Shift+arrows, then Space, on a keyboard)',
  undo: 'Undo your last action (the Undo button or Z)',
  reset: 'Reset the grid (and confirm)',
  hint: 'Ask for a hint',
  submit: 'Submit the puzzle to check it',
};

/** Each task said for the input in use (the checklist shows the one that fits the device). */
export const TASK_LABELS_BY_INPUT: Record<InputKind, Record<TutorialTask, string>> = {
  pointer: {
    ...SUDOKU_LABELS.pointer,
    fill: 'Fill a cell: click it',
    cross: 'Cross a cell: right-click it',
    drag: 'Drag along a line to paint several cells',
    undo: 'Undo your last action (Undo, or Z)',
    reset: 'Reset the grid (and confirm)',
    hint: 'Ask for a hint',
    submit: 'Submit the puzzle to check it',
  },
  // Short (one line each in a phone's checklist bar, two columns): the instructions above the board say the rest.
  touch: {
    ...SUDOKU_LABELS.touch,
    fill: 'Fill a cell: tap it',
    cross: 'Cross a cell: long-press',
    drag: 'Slide to paint a line',
    undo: 'Undo your last action',
    reset: 'Reset (and confirm)',
    hint: 'Ask for a hint',
    submit: 'Submit to check',
  },
  keyboard: {
    ...SUDOKU_LABELS.keyboard,
    fill: 'Fill a cell: arrows to it, then Space',
    cross: 'Cross a cell: X',
    drag: 'Select a line (Shift+arrows), then Space',
    undo: 'Undo your last action: Z',
    reset: 'Reset the grid (and confirm)',
    hint: 'Ask for a hint',
    submit: 'Submit the puzzle to check it',
  },
};

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
