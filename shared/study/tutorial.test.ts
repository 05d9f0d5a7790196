import { describe, expect, it } from 'vitest';
import { tasksDone, tutorialTasks } from './tutorial.ts';

describe('tutorial checklist', () => {
  it('reads the tasks off the moves', () => {
    expect([...tasksDone([{ type: 'fill', row: 0, col: 0 }, { type: 'undo' }])].sort()).toEqual(['fill', 'undo']);
    const all = tasksDone([
      { type: 'stroke', state: 'crossed', cells: [[0, 0], [0, 1]] },
      { type: 'fill', row: 1, col: 1 },
      { type: 'reset' },
      { type: 'undo' },
      { type: 'hint' },
      { type: 'submit' },
    ]);
    expect(tutorialTasks(true).every((t) => all.has(t))).toBe(true);
  });
  it('does not count a one-cell stroke as a drag, and drops the hint task when hints are off', () => {
    expect(tasksDone([{ type: 'stroke', state: 'filled', cells: [[0, 0]] }]).has('drag')).toBe(false);
    expect(tutorialTasks(false)).not.toContain('hint');
  });
});

describe("a Sudoku tutorial's checklist", () => {
  it('asks for a digit, a note, an erase and the shared controls, read off the Sudoku moves', () => {
    expect(tutorialTasks(true, 'sudoku')).toEqual(['digit', 'notes', 'erase', 'undo', 'reset', 'hint', 'submit']);
    expect(tutorialTasks(false, 'sudoku')).not.toContain('hint');
    const done = tasksDone([
      { type: 'pencil', row: 0, col: 0, digit: 3 },
      { type: 'set_digit', row: 0, col: 0, digit: 4 },
      { type: 'clear', row: 0, col: 0 },
      { type: 'undo' },
      { type: 'reset' },
      { type: 'hint' },
      { type: 'submit' },
    ]);
    expect(tutorialTasks(true, 'sudoku').every((t) => done.has(t))).toBe(true);
    expect(tasksDone([{ type: 'reveal_digit', row: 0, col: 0, digit: 4 }]).has('digit')).toBe(false);
  });
});
