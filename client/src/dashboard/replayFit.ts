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

/** The cell size for the board in `box` (its width) and the window (its height), kept current as either changes. */
export function useReplayCellSize(box: RefObject<HTMLElement | null>, puzzle: PuzzleClues | undefined): number {
  const [size, setSize] = useState(26);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !puzzle) return;
    const measure = () => setSize(replayCellSize(puzzle, el.clientWidth, window.innerHeight));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [box, puzzle]);
  return size;
}
