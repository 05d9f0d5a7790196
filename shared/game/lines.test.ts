import { describe, expect, it } from 'vitest';
import { doneLines, lineDone } from './lines.ts';
import { gridFromBoardRows } from './board.ts';

describe('done lines', () => {
  it('is done exactly when the filled runs equal the clue (unknown counts as empty)', () => {
    const cells = [1, 1, 0, 2, 1];
    expect(lineDone(cells, 0, 5, 1, [2, 1])).toBe(true);
    expect(lineDone(cells, 0, 5, 1, [2])).toBe(false);
    expect(lineDone(cells, 0, 5, 1, [1, 2])).toBe(false);
    expect(lineDone([0, 0, 0], 0, 3, 1, [])).toBe(true);
    expect(lineDone([0, 1, 0], 0, 3, 1, [])).toBe(false);
    expect(lineDone([1, 1, 1], 0, 3, 1, [3])).toBe(true);
  });
  it('walks columns by stride', () => {
    const grid = gridFromBoardRows(['#?', '#x', '?#'], 2, 3);
    const done = doneLines(grid, { rows: [[1], [1], [1]], cols: [[2], [1]] });
    expect(done.rows).toEqual([true, true, true]);
    expect(done.cols).toEqual([true, true]);
    expect(doneLines(grid, { rows: [[2], [1], [1]], cols: [[1], [1]] })).toEqual({ rows: [false, true, true], cols: [false, true] });
  });
});
