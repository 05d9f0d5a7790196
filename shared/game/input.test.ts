import { describe, expect, it } from 'vitest';
import { gestureMove, keyAction, keyPaintMove, moveCursor, strokeCells, strokeCellTimes, touchTool } from './input.ts';
import { Move } from '../schema/move.ts';
import { gridFromBoardRows } from './board.ts';

describe('strokes and gestures', () => {
  it('keeps a stroke on the start line, whichever axis moved further', () => {
    expect(strokeCells([1, 1], [2, 4])).toEqual([[1, 1], [1, 2], [1, 3], [1, 4]]);
    expect(strokeCells([3, 2], [0, 3])).toEqual([[3, 2], [2, 2], [1, 2], [0, 2]]);
  });
  it('paints a stroke with the state of its first cell', () => {
    const grid = gridFromBoardRows(['#??', '???'], 3, 2);
    expect(gestureMove(grid, 'fill', [[0, 0], [0, 1]])).toEqual({ type: 'stroke', state: 'unknown', cells: [[0, 0], [0, 1]] });
    expect(gestureMove(grid, 'cross', [[1, 0], [1, 1]])).toEqual({ type: 'stroke', state: 'crossed', cells: [[1, 0], [1, 1]] });
    expect(gestureMove(grid, 'fill', [[1, 2]])).toEqual({ type: 'fill', row: 1, col: 2 });
  });
  it('gives a stroke its cells\' times as offsets from its end, one per cell', () => {
    const grid = gridFromBoardRows(['???', '???'], 3, 2);
    // pointer down on (0,0) at 100 ms, reaches (0,1) at 112.34, jumps over (0,2)... back to (0,1) at 130, out to (0,2) at 141, up at 150
    let cells: [number, number][] = [[0, 0]];
    let times = [100];
    for (const [to, now] of [[[0, 1], 112.34], [[0, 2], 120], [[0, 1], 130], [[0, 2], 141]] as [[number, number], number][]) {
      const next = strokeCells([0, 0], to);
      times = strokeCellTimes(cells, times, next, now);
      cells = next;
    }
    expect(times).toEqual([100, 112.34, 141]);
    const move = gestureMove(grid, 'fill', cells, { cells: times, end: 150 });
    expect(move).toEqual({ type: 'stroke', state: 'filled', cells: [[0, 0], [0, 1], [0, 2]], cell_ms: [-50, -37.7, -9] });
    expect(Move.safeParse(move).success).toBe(true);
    // a clock that steps back is flattened: offsets never decrease and never pass the end
    expect(gestureMove(grid, 'fill', cells, { cells: [100, 90, 160], end: 150 })).toMatchObject({ cell_ms: [-50, -50, 0] });
    // a single cell is a click, without times
    expect(gestureMove(grid, 'fill', [[1, 1]], { cells: [5], end: 9 })).toEqual({ type: 'fill', row: 1, col: 1 });
  });
  it('crosses on a long press whatever the touch mode', () => {
    expect(touchTool('fill', true)).toBe('cross');
    expect(touchTool('fill', false)).toBe('fill');
    expect(touchTool('cross', false)).toBe('cross');
  });
});

describe('keyboard', () => {
  it('maps keys to actions', () => {
    expect(keyAction('ArrowLeft')).toEqual({ kind: 'move', dr: 0, dc: -1, extend: false });
    expect(keyAction('ArrowDown', { shift: true })).toEqual({ kind: 'move', dr: 1, dc: 0, extend: true });
    expect(keyAction(' ')).toEqual({ kind: 'paint', state: 'filled' });
    expect(keyAction('X')).toEqual({ kind: 'paint', state: 'crossed' });
    expect(keyAction('Backspace')).toEqual({ kind: 'paint', state: 'unknown' });
    expect(keyAction('z')).toEqual({ kind: 'undo' });
    expect(keyAction('z', { ctrl: true })).toEqual({ kind: 'undo' });
    expect(keyAction('r', { ctrl: true })).toBeNull();
    expect(keyAction('q')).toBeNull();
  });
  it('keeps the cursor on the board', () => {
    expect(moveCursor([0, 0], -1, 0, 5, 5)).toEqual([0, 0]);
    expect(moveCursor([4, 3], 1, 1, 5, 5)).toEqual([4, 4]);
    expect(moveCursor([2, 2], 0, -1, 5, 5)).toEqual([2, 1]);
  });
  it('turns a key paint into a click-like move or a stroke', () => {
    const grid = gridFromBoardRows(['#x?'], 3, 1);
    expect(keyPaintMove(grid, 'filled', [[0, 0]])).toEqual({ type: 'fill', row: 0, col: 0 });
    expect(keyPaintMove(grid, 'unknown', [[0, 1]])).toEqual({ type: 'clear', row: 0, col: 1 });
    expect(keyPaintMove(grid, 'crossed', [[0, 2], [0, 1]])).toEqual({ type: 'stroke', state: 'crossed', cells: [[0, 2], [0, 1]] });
    expect(keyPaintMove(grid, 'unknown', [[0, 0], [0, 1]])).toEqual({ type: 'stroke', state: 'unknown', cells: [[0, 0], [0, 1]] });
  });
});
