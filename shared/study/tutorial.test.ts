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
