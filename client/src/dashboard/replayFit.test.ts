// The replay board fills the room it has (issue 32: it was drawn at 26 px cells whatever the screen).
import { describe, expect, it } from 'vitest';
import { clueExtent } from '../board/fit.ts';
import { REPLAY_MAX_CELL, replayCellSize, sudokuReplayCellSize } from './replayFit.ts';

const square = (n: number, clue: number[]) => ({ id: `p${n}`, width: n, height: n, rows: Array.from({ length: n }, () => clue), cols: Array.from({ length: n }, () => clue) });

describe('replayCellSize', () => {
  it('on a wide screen, a 10x10 board gets big cells (not 26 px), and still fits the window height', () => {
    const p = square(10, [1, 2, 1]);
    const cell = replayCellSize(p, 1500, 1000);
    expect(cell).toBeGreaterThanOrEqual(40);
    expect(cell * (10 + clueExtent(p).colUnits)).toBeLessThanOrEqual(1000 * 0.7);
  });

  it('a 15x15 board on a 1920x1080 screen: larger than before, within height', () => {
    const p = square(15, [2, 1, 3, 1]);
    const cell = replayCellSize(p, 1500, 1080);
    expect(cell).toBeGreaterThan(26);
    expect(cell * (15 + clueExtent(p).colUnits)).toBeLessThanOrEqual(1080 * 0.7);
  });

  it('a small board is capped, and a narrow column gives a board that fits its width', () => {
    expect(replayCellSize(square(5, [1]), 2000, 1400)).toBe(REPLAY_MAX_CELL);
    const p = square(20, [1, 1, 1, 1, 1]);
    const cell = replayCellSize(p, 340, 900);
    expect(cell * (20 + clueExtent(p).rowUnits)).toBeLessThanOrEqual(340);
  });
});

describe('sudokuReplayCellSize', () => {
  it('a 9x9 fills its column up to the cap and fits the window height; a 16x16 in a narrow column fits its width', () => {
    expect(sudokuReplayCellSize(9, 1500, 1000)).toBe(REPLAY_MAX_CELL);
    const cell = sudokuReplayCellSize(9, 1500, 500);
    expect(cell * 9 + 4).toBeLessThanOrEqual(500 * 0.7);
    expect(cell).toBeGreaterThan(30);
    expect(sudokuReplayCellSize(16, 340, 1400) * 16 + 4).toBeLessThanOrEqual(340);
  });
});
