// Board sizing: the largest cell size (px) at which the clues and grid fit the box the board is given.
import { useLayoutEffect, useState, type RefObject } from 'react';
import type { PuzzleClues } from '../../../shared/schema/puzzle.ts';

/** Clue text is 0.55 of a cell; a digit is about 0.6 em wide, a line 1.15 em high (see styles.css). */
const DIGIT = 0.55 * 0.62;
const GAP = 0.55 * 0.4;
const LINE = 0.55 * 1.15;

/** Px the keyboard focus ring takes outside the grid on each side (see `.grid.keyboard-focus` in styles.css). */
export const FOCUS_RING = 5;

/** Width of the row clues and height of the column clues, in cells. */
export function clueExtent(puzzle: PuzzleClues): { rowUnits: number; colUnits: number } {
  let rowUnits = 0;
  for (const clue of puzzle.rows) {
    const nums = clue.length ? clue : [0];
    const digits = nums.reduce((a, n) => a + String(n).length, 0);
    rowUnits = Math.max(rowUnits, digits * DIGIT + (nums.length - 1) * GAP);
  }
  let colLines = 1;
  for (const clue of puzzle.cols) colLines = Math.max(colLines, clue.length);
  return { rowUnits: rowUnits + 0.45, colUnits: colLines * LINE + 0.3 };
}

export function fitCellSize(puzzle: PuzzleClues, width: number, height: number, maxCell: number): number {
  const { rowUnits, colUnits } = clueExtent(puzzle);
  // The grid's 2 px border on each side, and room for the keyboard focus ring (3 px outline, 1 px offset) and a little air.
  const border = 4 + 2 * FOCUS_RING;
  const byWidth = (width - border) / (puzzle.width + rowUnits);
  const byHeight = (height - border) / (puzzle.height + colUnits);
  return Math.max(8, Math.floor(Math.min(maxCell, byWidth, byHeight)));
}

/**
 * The height (px) the board takes in a box `width` px wide when nothing else limits it: on a phone the box is given
 * this height (no empty band above and below a small board, so the controls under it stay on the first screen).
 */
export function naturalHeight(puzzle: PuzzleClues, width: number, maxCell: number): number {
  const cell = fitCellSize(puzzle, width, Number.POSITIVE_INFINITY, maxCell);
  return Math.ceil((puzzle.height + clueExtent(puzzle).colUnits) * cell) + 4 + 2 * FOCUS_RING + 1;
}

/** Comfortable touch target (px): a zoomed board's cells are at least this big. */
export const TOUCH_TARGET = 44;

/** Watches the box and returns the cell size that fits it, and the box's natural height at its width (naturalHeight). */
export function useCellSize(box: RefObject<HTMLElement | null>, puzzle: PuzzleClues, maxCell: number): { size: number; natural: number } {
  const [size, setSize] = useState(() => {
    const width = Math.min(window.innerWidth, 900);
    return { size: fitCellSize(puzzle, width, window.innerHeight * 0.6, maxCell), natural: naturalHeight(puzzle, width, maxCell) };
  });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const next = { size: fitCellSize(puzzle, el.clientWidth, el.clientHeight, maxCell), natural: naturalHeight(puzzle, el.clientWidth, maxCell) };
      setSize((was) => (was.size === next.size && was.natural === next.natural ? was : next));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [box, puzzle, maxCell]);
  return size;
}
