import { describe, expect, it } from 'vitest';
import { clueExtent, fitCellSize } from './fit.ts';
import type { PuzzleClues } from '../../../shared/schema/puzzle.ts';

function square(n: number, clue: number[]): PuzzleClues {
  return { id: `p${n}`, width: n, height: n, rows: Array.from({ length: n }, () => clue), cols: Array.from({ length: n }, () => clue) };
}

describe('board fit', () => {
  it('caps small boards at the largest cell size', () => {
    expect(fitCellSize(square(5, [1, 1]), 900, 800, 56)).toBe(56);
  });
  it('fits a 30x30 board with long clues into a phone width and a desktop height', () => {
    const p = square(30, [1, 2, 1, 3, 1, 2, 1, 1]);
    const { rowUnits, colUnits } = clueExtent(p);
    const phone = fitCellSize(p, 370, 520, 44);
    expect(phone * (30 + rowUnits)).toBeLessThanOrEqual(370);
    const desk = fitCellSize(p, 880, 800, 44);
    expect(desk * (30 + colUnits)).toBeLessThanOrEqual(800);
    expect(desk).toBeGreaterThan(phone);
  });
  it('gives a 10x10 board cells of at least 28 px in a desktop window', () => {
    expect(fitCellSize(square(10, [2, 1, 3]), 880, 780, 44)).toBeGreaterThanOrEqual(28);
  });
});
