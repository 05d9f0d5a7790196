// The replay board's size: as large as its column and most of the window's height allow (it was fixed at 26 px cells,
// tiny on a wide screen), capped so a small board does not turn into a poster.
import { useLayoutEffect, useState, type RefObject } from 'react';
import { fitCellSize } from '../board/fit.ts';
import type { PuzzleClues } from '../../../shared/schema/puzzle.ts';

export const REPLAY_MAX_CELL = 48;
/** Share of the window's height the board may take (the timeline and controls sit below it). */
const HEIGHT_SHARE = 0.7;

export function replayCellSize(puzzle: PuzzleClues, columnWidth: number, viewportHeight: number): number {
  return fitCellSize(puzzle, columnWidth, viewportHeight * HEIGHT_SHARE, REPLAY_MAX_CELL);
}

/** A Sudoku's replay cell size (a side of `n` cells and its 2 px frame; no clues), by the same caps as a Nonogram's. */
export function sudokuReplayCellSize(n: number, columnWidth: number, viewportHeight: number): number {
  const border = 4;
  return Math.max(8, Math.floor(Math.min(REPLAY_MAX_CELL, (columnWidth - border) / n, (viewportHeight * HEIGHT_SHARE - border) / n)));
}

/**
 * The cell size for the board in `box` (its width) and the window (its height), kept current as either changes:
 * `fit(columnWidth, viewportHeight)` is the kind's sizing (replayCellSize, sudokuReplayCellSize); undefined while there
 * is no board. Give a stable function (useCallback), or the box is measured again at each render.
 */
export function useReplayCellSize(box: RefObject<HTMLElement | null>, fit: ((columnWidth: number, viewportHeight: number) => number) | undefined): number {
  const [size, setSize] = useState(26);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !fit) return;
    const measure = () => setSize(fit(el.clientWidth, window.innerHeight));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [box, fit]);
  return size;
}
