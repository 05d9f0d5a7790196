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
export function gestureMove(grid: Grid, tool: Tool, cells: [number, number][], timing?: StrokeTiming): Move {
  const [r, c] = cells[0];
  if (cells.length === 1) return tool === 'fill' ? { type: 'fill', row: r, col: c } : { type: 'cross', row: r, col: c };
  const first = grid.cells[r * grid.width + c];
  const target = tool === 'fill' ? FILLED : EMPTY;
  const state = first === target ? 'unknown' : tool === 'fill' ? 'filled' : 'crossed';
  if (timing && timing.cells.length === cells.length) return { type: 'stroke', state, cells, cell_ms: strokeCellMs(timing) };
  return { type: 'stroke', state, cells };
}

/** When the pointer reached each cell of a stroke and when the stroke ended (ms, one clock: the event's t_mono clock). */
export interface StrokeTiming {
  cells: readonly number[];
  end: number;
}

/**
 * A stroke's `cell_ms`: each cell's time as an offset from the end (the event is stamped when the stroke ends), to
 * 0.1 ms, never after the end and never before the previous cell (clocks that step back are flattened).
 */
export function strokeCellMs(timing: StrokeTiming): number[] {
  const out: number[] = [];
  let prev = -600_000;
  for (const t of timing.cells) {
    const ms = Math.min(0, Math.max(prev, Math.round((t - timing.end) * 10) / 10));
    out.push(ms);
    prev = ms;
  }
  return out;
}

/**
 * The cell times of a stroke whose cells changed from `before` to `after` at time `now`: cells kept from the start of
 * the old stroke keep their times, new ones are reached now (a fast pointer can skip cells: they share its time).
 */
export function strokeCellTimes(before: readonly Cell[], times: readonly number[], after: readonly Cell[], now: number): number[] {
  const out: number[] = [];
  let kept = true;
  for (let i = 0; i < after.length; i++) {
    kept &&= i < before.length && i < times.length && before[i][0] === after[i][0] && before[i][1] === after[i][1];
    out.push(kept ? times[i] : now);
  }
  return out;
}

export type Cell = [number, number];
export type KeyAction = { kind: 'move'; dr: number; dc: number; extend: boolean } | { kind: 'paint'; state: 'filled' | 'crossed' | 'unknown' } | { kind: 'undo' } | { kind: 'cancel' };

/**
 * What a key does on the board (the grid has focus): arrows move the cursor (with Shift they extend a straight
 * selection from the anchor), Space fills, X crosses, Backspace/Delete clears, Z undoes, Escape drops the selection.
 * Keys with Ctrl/Alt/Meta (other than Ctrl+Z) are left to the browser.
 */
export function keyAction(key: string, mods: { shift?: boolean; ctrl?: boolean; alt?: boolean; meta?: boolean } = {}): KeyAction | null {
  const k = key.length === 1 ? key.toLowerCase() : key;
  if ((mods.ctrl || mods.meta) && k === 'z') return { kind: 'undo' };
  if (mods.ctrl || mods.meta || mods.alt) return null;
  const extend = !!mods.shift;
  switch (k) {
    case 'ArrowUp':
      return { kind: 'move', dr: -1, dc: 0, extend };
    case 'ArrowDown':
      return { kind: 'move', dr: 1, dc: 0, extend };
    case 'ArrowLeft':
      return { kind: 'move', dr: 0, dc: -1, extend };
    case 'ArrowRight':
      return { kind: 'move', dr: 0, dc: 1, extend };
    case ' ':
    case 'Enter':
    case 'f':
      return { kind: 'paint', state: 'filled' };
    case 'x':
      return { kind: 'paint', state: 'crossed' };
    case 'Backspace':
    case 'Delete':
      return { kind: 'paint', state: 'unknown' };
    case 'z':
      return { kind: 'undo' };
    case 'Escape':
      return { kind: 'cancel' };
    default:
      return null;
  }
}

/** The cursor moved by (dr, dc), kept inside a width x height board. */
export function moveCursor(cursor: Cell, dr: number, dc: number, width: number, height: number): Cell {
  return [Math.min(height - 1, Math.max(0, cursor[0] + dr)), Math.min(width - 1, Math.max(0, cursor[1] + dc))];
}

/**
 * The move a key paint makes. On one cell it behaves like a click (space on a filled cell clears it, x on a crossed
 * one clears it, backspace clears); on a Shift-extended selection it is one stroke, like a drag, with the state of
 * the first cell.
 */
export function keyPaintMove(grid: Grid, state: 'filled' | 'crossed' | 'unknown', cells: Cell[]): Move {
  if (state === 'unknown') {
    const [r, c] = cells[0];
    return cells.length === 1 ? { type: 'clear', row: r, col: c } : { type: 'stroke', state: 'unknown', cells };
  }
  return gestureMove(grid, state === 'filled' ? 'fill' : 'cross', cells);
}

/**
 * The tool a touch gesture uses: the mode switch's, except that a press held still for the long-press time on its
 * first cell crosses (a quick way to cross without switching modes).
 */
export function touchTool(mode: Tool, longPressed: boolean): Tool {
  return longPressed ? 'cross' : mode;
}
