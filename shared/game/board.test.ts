import { describe, expect, it } from 'vitest';
import { applyMove, boardRows, countWrongCells, initialBoard, matchesSolution, replayMoves } from './board.ts';
import type { Move } from '../schema/move.ts';

describe('applyMove', () => {
  it('fills, crosses and toggles back to unknown', () => {
    let s = initialBoard(3, 2);
    s = applyMove(s, { type: 'fill', row: 0, col: 1 });
    s = applyMove(s, { type: 'cross', row: 1, col: 2 });
    expect(boardRows(s.grid)).toEqual(['?#?', '??x']);
    s = applyMove(s, { type: 'fill', row: 0, col: 1 });
    expect(boardRows(s.grid)).toEqual(['???', '??x']);
    expect(s.history).toHaveLength(3);
  });

  it('undoes a stroke as one unit and a reset as one unit', () => {
    let s = initialBoard(4, 1);
    s = applyMove(s, { type: 'fill', row: 0, col: 0 });
    s = applyMove(s, { type: 'stroke', state: 'crossed', cells: [[0, 1], [0, 2], [0, 3]] });
    expect(boardRows(s.grid)).toEqual(['#xxx']);
    s = applyMove(s, { type: 'reset' });
    expect(boardRows(s.grid)).toEqual(['????']);
    s = applyMove(s, { type: 'undo' });
    expect(boardRows(s.grid)).toEqual(['#xxx']);
    s = applyMove(s, { type: 'undo' });
    expect(boardRows(s.grid)).toEqual(['#???']);
    s = applyMove(s, { type: 'undo' });
    s = applyMove(s, { type: 'undo' });
    expect(boardRows(s.grid)).toEqual(['????']);
  });

  it('leaves the state untouched for non-board moves and no-op paints', () => {
    const s = applyMove(initialBoard(2, 2), { type: 'fill', row: 0, col: 0 });
    for (const m of [{ type: 'hint' }, { type: 'submit' }, { type: 'skip' }, { type: 'stroke', state: 'filled', cells: [[0, 0]] }] as Move[])
      expect(applyMove(s, m)).toBe(s);
    expect(applyMove(s, { type: 'fill', row: 5, col: 5 })).toBe(s);
  });

  it('replays a move log to the same board', () => {
    const moves: Move[] = [
      { type: 'fill', row: 0, col: 0 },
      { type: 'stroke', state: 'filled', cells: [[1, 0], [1, 1]] },
      { type: 'undo' },
      { type: 'cross', row: 1, col: 1 },
    ];
    let s = initialBoard(2, 2);
    for (const m of moves) s = applyMove(s, m);
    expect(replayMoves(2, 2, moves).grid.cells).toEqual(s.grid.cells);
  });
});

describe('checking against a solution', () => {
  it('treats crossed and unknown alike and counts wrong cells', () => {
    expect(matchesSolution(['#x', '?#'], ['#.', '.#'])).toBe(true);
    expect(matchesSolution(['#x', '##'], ['#.', '.#'])).toBe(false);
    expect(countWrongCells(['#x', '#x'], ['#.', '.#'])).toBe(2);
  });
});
