// Turning pointer gestures into moves: straight drag strokes and the state they paint.
import type { Move } from '../schema/move.ts';
import { EMPTY, FILLED, type Grid } from '../nonogram/grid.ts';

export type Tool = 'fill' | 'cross';

/** Cells of a straight stroke from start towards current, along the start's row or column (whichever is longer). */
export function strokeCells(start: [number, number], current: [number, number]): [number, number][] {
  const [r0, c0] = start;
  const [r1, c1] = current;
  const horizontal = Math.abs(c1 - c0) >= Math.abs(r1 - r0);
  const cells: [number, number][] = [];
  if (horizontal) {
    const step = c1 >= c0 ? 1 : -1;
    for (let c = c0; c !== c1 + step; c += step) cells.push([r0, c]);
  } else {
    const step = r1 >= r0 ? 1 : -1;
    for (let r = r0; r !== r1 + step; r += step) cells.push([r, c0]);
  }
  return cells;
}

/**
 * The move a finished gesture makes. A single cell toggles (fill on filled clears it); a longer stroke paints every
 * cell with the state the first cell takes, so dragging from a filled cell with the fill tool clears the stroke.
 */
export function gestureMove(grid: Grid, tool: Tool, cells: [number, number][]): Move {
  const [r, c] = cells[0];
  if (cells.length === 1) return tool === 'fill' ? { type: 'fill', row: r, col: c } : { type: 'cross', row: r, col: c };
  const first = grid.cells[r * grid.width + c];
  const target = tool === 'fill' ? FILLED : EMPTY;
  const state = first === target ? 'unknown' : tool === 'fill' ? 'filled' : 'crossed';
  return { type: 'stroke', state, cells };
}
