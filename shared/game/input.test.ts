import { describe, expect, it } from 'vitest';
import { gestureMove, keyAction, keyPaintMove, moveCursor, strokeCells, touchTool } from './input.ts';
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
