// Candidate bitmasks and unit geometry for Sudoku boards of any box shape (pure: no I/O, no clocks, no Math.random).
//
// A candidate set is a bitmask: digit v (1..N) is bit 1 << (v - 1). Masks are kept in Uint32Array, one per
// cell in reading order, so boards up to N = 31 fit (every shape the grid model names: 4, 6, 9, 12, 16, 25...).
// A filled cell's mask is its own digit; an empty cell's is every digit not yet used in its row, column or box.
import { boxIndex, digitSymbol } from './grid.ts';
import type { Grid, Shape } from './grid.ts';

export type UnitKind = 'row' | 'col' | 'box';

/** A unit named for people and data: rows, columns and boxes are each counted from 0 here (from 1 in words). */
export interface UnitRef {
  kind: UnitKind;
  index: number;
}

export interface Unit extends UnitRef {
  /** Cell indexes in reading order. */
  cells: number[];
}

export interface Geometry {
  shape: Shape;
  size: number;
  cellCount: number;
  /** Every digit's bit. */
  full: number;
  rows: Unit[];
  cols: Unit[];
  boxes: Unit[];
  /** Rows, then columns, then boxes. */
  units: Unit[];
  /** Per cell: its row, column and box. */
  unitsOf: [Unit, Unit, Unit][];
  /** Per cell: every other cell sharing a unit with it (ascending). */
  peers: number[][];
  /** peerSet[a * cellCount + b] = 1 when cells a and b (a != b) share a unit. */
  peerSet: Uint8Array;
}

export const MAX_MASK_SIZE = 31;

const cache = new Map<string, Geometry>();

export function geometry(shape: Shape): Geometry {
  const key = `${shape.boxRows}x${shape.boxCols}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const n = shape.size;
  if (n > MAX_MASK_SIZE) throw new RangeError(`candidate masks cover boards up to ${MAX_MASK_SIZE}x${MAX_MASK_SIZE}, got ${n}x${n}`);
  const rows: Unit[] = [], cols: Unit[] = [], boxes: Unit[] = [];
  for (let i = 0; i < n; i++) {
    rows.push({ kind: 'row', index: i, cells: [] });
    cols.push({ kind: 'col', index: i, cells: [] });
    boxes.push({ kind: 'box', index: i, cells: [] });
  }
  const unitsOf: [Unit, Unit, Unit][] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      const b = boxIndex(shape, r, c);
      rows[r].cells.push(i);
      cols[c].cells.push(i);
      boxes[b].cells.push(i);
      unitsOf.push([rows[r], cols[c], boxes[b]]);
    }
  }
  const cellCount = n * n;
  const peerSet = new Uint8Array(cellCount * cellCount);
  const peers: number[][] = [];
  for (let i = 0; i < cellCount; i++) {
    for (const u of unitsOf[i]) for (const j of u.cells) if (j !== i) peerSet[i * cellCount + j] = 1;
    const list: number[] = [];
    for (let j = 0; j < cellCount; j++) if (peerSet[i * cellCount + j]) list.push(j);
    peers.push(list);
  }
  const g: Geometry = { shape: { size: n, boxRows: shape.boxRows, boxCols: shape.boxCols }, size: n, cellCount, full: fullMask(n), rows, cols, boxes, units: [...rows, ...cols, ...boxes], unitsOf, peers, peerSet };
  cache.set(key, g);
  return g;
}

export function fullMask(n: number): number {
  return n >= 32 ? 0xffffffff : ((1 << n) >>> 0) - 1;
}

export function bit(v: number): number {
  return (1 << (v - 1)) >>> 0;
}

/** Number of set bits of a 32-bit mask. */
export function popcount(m: number): number {
  m = m - ((m >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (Math.imul((m + (m >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** The smallest digit in a non-empty mask. */
export function lowestDigit(m: number): number {
  return 32 - Math.clz32((m & -m) >>> 0);
}

/** The largest digit in a non-empty mask. */
export function highestDigit(m: number): number {
  return 32 - Math.clz32(m);
}

/** The digits of a mask, ascending. */
export function digitsOf(m: number): number[] {
  const out: number[] = [];
  for (let v = 1; m !== 0; v++, m >>>= 1) if (m & 1) out.push(v);
  return out;
}

export function maskOf(digits: Iterable<number>): number {
  let m = 0;
  for (const v of digits) m = (m | bit(v)) >>> 0;
  return m;
}

export function sees(g: Geometry, a: number, b: number): boolean {
  return g.peerSet[a * g.cellCount + b] === 1;
}

/** The candidate mask of every cell from the digits alone (filled cells: their digit). */
export function candidatesOf(grid: Grid): Uint32Array {
  const g = geometry(grid);
  const out = new Uint32Array(g.cellCount);
  for (let i = 0; i < g.cellCount; i++) {
    const v = grid.cells[i];
    if (v !== 0) {
      out[i] = bit(v);
      continue;
    }
    let used = 0;
    for (const j of g.peers[i]) if (grid.cells[j] !== 0) used |= bit(grid.cells[j]);
    out[i] = (g.full & ~used) >>> 0;
  }
  return out;
}

/** The digits already placed in a cell's row, column and box (the cell itself left out). */
export function peerDigits(grid: Grid, cell: number): number {
  const g = geometry(grid);
  let used = 0;
  for (const j of g.peers[cell]) if (grid.cells[j] !== 0) used |= bit(grid.cells[j]);
  return used >>> 0;
}

/** Two filled cells holding the same digit in one unit, in reading order of the first; none when the digits are legal. */
export function conflicts(grid: Grid): { a: number; b: number; digit: number; unit: UnitRef }[] {
  const g = geometry(grid);
  const out: { a: number; b: number; digit: number; unit: UnitRef }[] = [];
  for (const u of g.units) {
    for (let x = 0; x < u.cells.length; x++) {
      const v = grid.cells[u.cells[x]];
      if (v === 0) continue;
      for (let y = x + 1; y < u.cells.length; y++) if (grid.cells[u.cells[y]] === v) out.push({ a: u.cells[x], b: u.cells[y], digit: v, unit: { kind: u.kind, index: u.index } });
    }
  }
  return out;
}

/** A mask in text, for messages and tests: "{1,5,A}". */
export function maskText(m: number): string {
  return `{${digitsOf(m).map(digitSymbol).join(',')}}`;
}
