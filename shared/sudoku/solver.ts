// The exact Sudoku solution counter: bitmask candidates, naked and hidden singles, locked candidates, MRV branching.
/*
 * Why it is exact. Each cell keeps a bitmask of the digits still possible (bit v-1 for digit v).
 * Propagation only removes digits no solution extending the current board can have:
 *  - a placed digit is removed from the cell's peers (same row, column or box);
 *  - a cell left with one digit gets it (naked single);
 *  - a digit with one possible cell in a unit goes there (hidden single);
 *  - when singles stall, locked candidates: a digit that a line can only hold where it crosses a
 *    box leaves the rest of that box (claiming), and one that a box can only hold on one line
 *    leaves the rest of that line (pointing) — each unit must hold every digit somewhere;
 *  - a cell with no digit left, or a unit where some digit has no cell, is a contradiction.
 * It runs to a fixpoint; then the search branches on an open cell with the fewest candidates
 * (minimum remaining values; ties go to the cell with the most open peers, which cut the nodes of
 * 16x16 checks by two thirds and of the hardest 9x9 by half), trying each of its digits, and
 * counts the leaves where every cell
 * holds a digit. The branches of a cell are disjoint and cover every solution, so counts add up and
 * nothing is counted twice. With limit 2 this decides uniqueness. (Locked candidates cost one
 * sweep over the line-box intersections per stalled fixpoint; they halved the median 16x16 check
 * and removed its slow tail, and left 9x9 as fast as before.)
 *
 * What it cannot do: the search is exponential in the worst case (Sudoku of side N is NP-complete);
 * `maxNodes` bounds it, and `complete: false` then says the count is a lower bound. Sides up to 32
 * (one 32-bit mask per cell).
 *
 * A board whose givens repeat a digit in a unit is reported as `inconsistent`, naming the unit and
 * the two cells, and never searched: the count of such a board is 0 for an obvious reason, and the
 * caller should be told which. The state of each search depth lives in preallocated typed arrays
 * reused from call to call (per shape); nothing survives a call but capacity.
 */
import { DIGIT_SYMBOLS, type Grid, type Shape, units } from './grid.ts';
import { popcount } from './candidates.ts';
import type { Rng } from '../random.ts';

export type UnitKind = 'row' | 'column' | 'box';

/** Two givens with the same digit in one unit: why a board has no solution without searching. */
export interface Inconsistency {
  unit: UnitKind;
  /** The unit's index from 0 (rows top to bottom, columns left to right, boxes in reading order). */
  index: number;
  digit: number;
  /** The two cells (index r*N+c) holding the digit. */
  cells: [number, number];
  message: string;
}

export interface CountOptions {
  /** Stop after this many search nodes; the result then says complete: false. */
  maxNodes?: number;
  /** Try the digits of a branching cell in a random order (the generator's random full grid). */
  rng?: Rng;
  /**
   * Start from these candidate masks (bit v-1 = digit v possible), one per cell, intersected with
   * the givens: used to ask "is there a solution where this cell is not d?" (infer.ts).
   */
  candidates?: Int32Array;
  /** Called with each solution found, in order (the grid is the caller's to keep). */
  onSolution?: (solution: Grid) => void;
}

export interface CountResult {
  /** Solutions found, at most `limit`. */
  solutions: number;
  /** True when the count is exact (search finished) or reached the limit; false when `maxNodes` stopped it. */
  complete: boolean;
  /** The first solution found. */
  solution?: Grid;
  /** The second solution found, when there is one (and the limit is at least 2). */
  second?: Grid;
  /** Search nodes visited (the root's propagation counts as one). */
  nodes: number;
  /** Set when the givens repeat a digit in a unit (then solutions is 0 and nothing was searched). */
  inconsistent?: Inconsistency;
}

const UNIT_KINDS: UnitKind[] = ['row', 'column', 'box'];

/** The first repeated digit among the givens, in unit order (rows, columns, boxes), or null. */
export function findInconsistency(grid: Grid): Inconsistency | null {
  const n = grid.size;
  checkCells(grid);
  const u = units(grid);
  const families = [u.rows, u.cols, u.boxes];
  for (let f = 0; f < 3; f++) {
    for (let k = 0; k < n; k++) {
      const seen = new Int32Array(n + 1).fill(-1);
      for (const cell of families[f][k]) {
        const v = grid.cells[cell];
        if (v === 0) continue;
        if (seen[v] >= 0) {
          const at = (i: number) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;
          const name = UNIT_KINDS[f];
          return {
            unit: name,
            index: k,
            digit: v,
            cells: [seen[v], cell],
            message: `inconsistent board: ${DIGIT_SYMBOLS[v - 1]} appears twice in ${name} ${k + 1} (${at(seen[v])} and ${at(cell)})`,
          };
        }
        seen[v] = cell;
      }
    }
  }
  return null;
}

function checkCells(grid: Grid): void {
  const n = grid.size;
  if (grid.boxRows * grid.boxCols !== n) throw new RangeError(`box ${grid.boxRows}x${grid.boxCols} does not tile a side of ${n}`);
  if (grid.cells.length !== n * n) throw new RangeError(`a ${n}x${n} board has ${n * n} cells, got ${grid.cells.length}`);
  for (let i = 0; i < grid.cells.length; i++) {
    if (grid.cells[i] > n) throw new RangeError(`cell r${Math.floor(i / n) + 1}c${(i % n) + 1} holds ${grid.cells[i]}, more than the side ${n}`);
  }
}

/** Number of set bits of a 32-bit mask (one copy, the candidates' own). */
export { popcount };

/** The digit (1..32) of a one-bit mask. */
const digitOf = (bit: number): number => 32 - Math.clz32(bit);

/** Precomputed tables and per-depth buffers of one shape. */
class Engine {
  readonly n: number;
  readonly nn: number;
  readonly full: number;
  /** peers of cell i: peers[peerStart[i] .. peerStart[i+1]). */
  readonly peers: Int32Array;
  readonly peerStart: Int32Array;
  /** cells of unit k (rows, columns, boxes): unitCells[k*n .. k*n+n). */
  readonly unitCells: Int32Array;
  /** candidate masks per depth: cand[d*nn + i]. */
  cand: Int32Array;
  /** 1 when the cell's digit is placed (its peers were cleared), per depth. */
  placed: Uint8Array;
  /** Number of cells placed, per depth. */
  left: Int32Array;
  readonly queue: Int32Array;
  readonly branchCell: Int32Array;
  readonly branchMask: Int32Array;
  /**
   * Line-box intersections for locked candidates, each as three cell lists in `ixCells`:
   * segment (ixStart[3k] .. ixStart[3k+1]), rest of the line (.. ixStart[3k+2]), rest of the box (.. ixStart[3k+3]).
   */
  readonly ixCells: Int32Array;
  readonly ixStart: Int32Array;
  readonly nIx: number;
  /** The line's and the box's unit of intersection k: ixUnits[2k], ixUnits[2k+1]. */
  readonly ixUnits: Int32Array;
  /** The three units of cell i (row, n + column, 2n + box): cellUnits[3i .. 3i+3). */
  readonly cellUnits: Int32Array;
  /**
   * Units whose cells changed since they were last looked at, per rule: bit 1 for hidden singles,
   * bit 2 for locked candidates. A rule's conclusions about a unit depend on its cells only, so a
   * clean unit need not be looked at again (the fixpoint is the same, it is reached with less work).
   */
  readonly dirty: Uint8Array;
  readonly lcNow: Uint8Array;

  constructor(shape: Shape) {
    const n = shape.size;
    if (n > 32) throw new RangeError(`the solver handles sides up to 32, got ${n}`);
    this.n = n;
    this.nn = n * n;
    this.full = n === 32 ? -1 : (1 << n) - 1;
    const u = units(shape);
    const all = [...u.rows, ...u.cols, ...u.boxes];
    this.unitCells = Int32Array.from(all.flat());
    const peerLists: number[][] = [];
    const box = (i: number) => Math.floor(Math.floor(i / n) / shape.boxRows) * (n / shape.boxCols) + Math.floor((i % n) / shape.boxCols);
    for (let i = 0; i < this.nn; i++) {
      const set = new Set<number>([...u.rows[Math.floor(i / n)], ...u.cols[i % n], ...u.boxes[box(i)]]);
      set.delete(i);
      peerLists.push([...set].sort((a, b) => a - b));
    }
    this.peerStart = new Int32Array(this.nn + 1);
    for (let i = 0; i < this.nn; i++) this.peerStart[i + 1] = this.peerStart[i] + peerLists[i].length;
    this.peers = Int32Array.from(peerLists.flat());
    this.cand = new Int32Array(this.nn * 4);
    this.placed = new Uint8Array(this.nn * 4);
    this.left = new Int32Array(this.nn + 1);
    this.queue = new Int32Array(this.nn);
    this.branchCell = new Int32Array(this.nn + 1);
    this.branchMask = new Int32Array(this.nn + 1);
    const ixCells: number[] = [], ixStart: number[] = [0], ixUnits: number[] = [];
    const lines = [...u.rows, ...u.cols];
    for (let li = 0; li < lines.length; li++) {
      const line = lines[li];
      const byBox = new Map<number, number[]>();
      for (const cell of line) {
        const b = box(cell);
        if (!byBox.has(b)) byBox.set(b, []);
        (byBox.get(b) as number[]).push(cell);
      }
      for (const [b, seg] of byBox) {
        if (seg.length < 2 || seg.length === n) continue;
        const inSeg = new Set(seg);
        ixCells.push(...seg);
        ixStart.push(ixCells.length);
        ixCells.push(...line.filter((c) => !inSeg.has(c)));
        ixStart.push(ixCells.length);
        ixCells.push(...u.boxes[b].filter((c) => !inSeg.has(c)));
        ixStart.push(ixCells.length);
        ixUnits.push(li, 2 * n + b);
      }
    }
    this.ixCells = Int32Array.from(ixCells);
    this.ixStart = Int32Array.from(ixStart);
    this.nIx = (ixStart.length - 1) / 3;
    this.ixUnits = Int32Array.from(ixUnits);
    this.cellUnits = new Int32Array(3 * this.nn);
    for (let i = 0; i < this.nn; i++) {
      this.cellUnits[3 * i] = Math.floor(i / n);
      this.cellUnits[3 * i + 1] = n + (i % n);
      this.cellUnits[3 * i + 2] = 2 * n + box(i);
    }
    this.dirty = new Uint8Array(3 * n);
    this.lcNow = new Uint8Array(3 * n);
  }

  /** Makes room for depth d's state. */
  ensureDepth(d: number): void {
    const need = (d + 1) * this.nn;
    if (this.cand.length >= need) return;
    const size = Math.max(need, this.cand.length * 2);
    const c = new Int32Array(size);
    c.set(this.cand);
    this.cand = c;
    const p = new Uint8Array(size);
    p.set(this.placed);
    this.placed = p;
  }

  /**
   * Propagates the state at offset `o` (cells with one candidate and not yet placed are queued by
   * the caller in queue[0..qn)). Returns false on a contradiction. Updates left[depth].
   */
  propagate(o: number, depth: number, qn: number): boolean {
    const { n, nn, full, peers, peerStart, unitCells, queue, cand, placed, dirty, cellUnits } = this;
    let done = this.left[depth];
    let qh = 0;
    for (;;) {
      // Naked singles: clear each placed digit from the peers.
      while (qh < qn) {
        const i = queue[qh++];
        const bit = cand[o + i];
        for (let k = peerStart[i], e = peerStart[i + 1]; k < e; k++) {
          const p = o + peers[k];
          const m = cand[p];
          if ((m & bit) === 0) continue;
          if (placed[p]) return false;
          const r = m & ~bit;
          if (r === 0) return false;
          cand[p] = r;
          const q = 3 * peers[k];
          dirty[cellUnits[q]] = dirty[cellUnits[q + 1]] = dirty[cellUnits[q + 2]] = 3;
          if ((r & (r - 1)) === 0) {
            placed[p] = 1;
            done++;
            queue[qn++] = peers[k];
          }
        }
      }
      if (done === nn) break;
      // Hidden singles over every unit that changed.
      const before = qn;
      for (let u = 0, base = 0; u < 3 * n; u++, base += n) {
        if ((dirty[u] & 1) === 0) continue;
        dirty[u] &= 2;
        let once = 0, twice = 0, fixed = 0;
        for (let k = 0; k < n; k++) {
          const c = o + unitCells[base + k];
          const m = cand[c];
          if (placed[c]) fixed |= m;
          else {
            twice |= once & m;
            once |= m;
          }
        }
        if ((once | fixed) !== full) return false;
        let hidden = once & ~twice & ~fixed;
        while (hidden !== 0) {
          const bit = hidden & -hidden;
          hidden ^= bit;
          for (let k = 0; k < n; k++) {
            const cell = unitCells[base + k];
            const c = o + cell;
            if ((cand[c] & bit) === 0) continue;
            if (placed[c]) return false; // took another hidden digit of this unit just now
            cand[c] = bit;
            placed[c] = 1;
            done++;
            queue[qn++] = cell;
            const q = 3 * cell;
            dirty[cellUnits[q]] = dirty[cellUnits[q + 1]] = dirty[cellUnits[q + 2]] = 3;
            break;
          }
        }
      }
      if (qn !== before) continue;
      // Locked candidates (pointing and claiming), when singles are stalled.
      const lc = this.locked(o, qn);
      if (lc < 0) return false;
      if (lc === qn && !this.lockedChanged) break;
      qn = lc;
      done += this.lockedPlaced;
    }
    this.left[depth] = done;
    return true;
  }

  lockedChanged = false;
  lockedPlaced = 0;
  /** True while a count uses this engine. */
  busy = false;

  /**
   * One sweep of locked candidates over every line-box intersection: a digit of the segment found
   * nowhere else in the line is removed from the rest of the box (claiming), one found nowhere else
   * in the box is removed from the rest of the line (pointing). Cells left with one digit are placed
   * and queued after queue[qn). Returns the new queue length, or -1 on a contradiction; sets
   * lockedChanged (a mask changed) and lockedPlaced (cells placed).
   */
  locked(o: number, qn: number): number {
    const { cand, placed, ixCells, ixStart, queue, dirty, lcNow, ixUnits, cellUnits } = this;
    this.lockedChanged = false;
    this.lockedPlaced = 0;
    // Intersections whose line or box changed since the last sweep; changes made now are for the next one.
    for (let u = 0; u < dirty.length; u++) {
      lcNow[u] = dirty[u] & 2;
      dirty[u] &= 1;
    }
    for (let k = 0, s = 0; k < this.nIx; k++, s += 3) {
      if (lcNow[ixUnits[2 * k]] === 0 && lcNow[ixUnits[2 * k + 1]] === 0) continue;
      const a = ixStart[s], b = ixStart[s + 1], c = ixStart[s + 2], d = ixStart[s + 3];
      let seg = 0, lineRest = 0, boxRest = 0;
      for (let i = a; i < b; i++) seg |= cand[o + ixCells[i]];
      for (let i = b; i < c; i++) lineRest |= cand[o + ixCells[i]];
      for (let i = c; i < d; i++) boxRest |= cand[o + ixCells[i]];
      const claim = seg & ~lineRest & boxRest;
      const point = seg & ~boxRest & lineRest;
      if (claim === 0 && point === 0) continue;
      for (let pass = 0; pass < 2; pass++) {
        const e = pass === 0 ? claim : point;
        if (e === 0) continue;
        const from = pass === 0 ? c : b, to = pass === 0 ? d : c;
        for (let i = from; i < to; i++) {
          const p = o + ixCells[i];
          const m = cand[p];
          if ((m & e) === 0) continue;
          if (placed[p]) return -1;
          const r = m & ~e;
          if (r === 0) return -1;
          cand[p] = r;
          this.lockedChanged = true;
          const q = 3 * ixCells[i];
          dirty[cellUnits[q]] = dirty[cellUnits[q + 1]] = dirty[cellUnits[q + 2]] = 3;
          if ((r & (r - 1)) === 0) {
            placed[p] = 1;
            this.lockedPlaced++;
            queue[qn++] = ixCells[i];
          }
        }
      }
    }
    return qn;
  }
}

const engines = new Map<string, Engine>();
function engineFor(shape: Shape): Engine {
  const key = `${shape.boxRows}x${shape.boxCols}`;
  let e = engines.get(key);
  if (!e) {
    e = new Engine(shape);
    engines.set(key, e);
  }
  return e;
}

/**
 * Counts the solutions of a board up to `limit` (limit 2 decides uniqueness) and returns the first
 * two. Exact: `complete` is false only when `maxNodes` stopped the search. A board whose givens
 * repeat a digit in a unit comes back `inconsistent` with 0 solutions, unsearched.
 */
export function countSolutions(grid: Grid, limit = 2, options: CountOptions = {}): CountResult {
  const inconsistent = findInconsistency(grid);
  if (inconsistent) return { solutions: 0, complete: true, nodes: 0, inconsistent };
  // A count started from onSolution while this shape's engine is searching gets an engine of its own.
  const shared = engineFor(grid);
  const e = shared.busy ? new Engine(grid) : shared;
  e.busy = true;
  try {
    return search(e, grid, limit, options);
  } finally {
    e.busy = false;
  }
}

function search(e: Engine, grid: Grid, limit: number, options: CountOptions): CountResult {
  const { nn, full, queue } = e;
  const maxNodes = options.maxNodes ?? Infinity;
  const rng = options.rng;
  const result: CountResult = { solutions: 0, complete: true, nodes: 0 };
  if (limit <= 0) return result;

  // Depth 0: the givens (and the caller's candidate masks) placed and propagated.
  e.ensureDepth(0);
  let { cand, placed } = e;
  let qn = 0;
  let placedCount = 0;
  for (let i = 0; i < nn; i++) {
    const v = grid.cells[i];
    let m = options.candidates ? options.candidates[i] & full : full;
    if (v !== 0) m &= 1 << (v - 1);
    if (m === 0) {
      result.nodes = 1;
      return result;
    }
    cand[i] = m;
    placed[i] = 0;
    if ((m & (m - 1)) === 0) {
      placed[i] = 1;
      placedCount++;
      queue[qn++] = i;
    }
  }
  e.left[0] = placedCount;
  e.dirty.fill(3);
  result.nodes = 1;
  if (!e.propagate(0, 0, qn)) return result;

  const emit = (o: number) => {
    const cells = new Uint8Array(nn);
    for (let i = 0; i < nn; i++) cells[i] = digitOf(e.cand[o + i]);
    const sol: Grid = { size: grid.size, boxRows: grid.boxRows, boxCols: grid.boxCols, cells };
    result.solutions++;
    if (!result.solution) result.solution = sol;
    else if (!result.second) result.second = sol;
    options.onSolution?.(sol);
  };

  let depth = 0;
  // Choose the branching cell of depth `depth`; -1 when every cell is placed.
  const choose = (): number => {
    const o = depth * nn;
    const c = e.cand, p = e.placed, peers = e.peers, ps = e.peerStart;
    let bestCount = 33;
    for (let i = 0; i < nn; i++) {
      if (p[o + i]) continue;
      const k = popcount(c[o + i]);
      if (k < bestCount) {
        bestCount = k;
        if (k === 2) break;
      }
    }
    if (bestCount === 33) return -1;
    let best = -1, bestDeg = -1;
    for (let i = 0; i < nn; i++) {
      if (p[o + i] || popcount(c[o + i]) !== bestCount) continue;
      let deg = 0;
      for (let j = ps[i], end = ps[i + 1]; j < end; j++) if (!p[o + peers[j]]) deg++;
      if (deg > bestDeg) {
        best = i;
        bestDeg = deg;
      }
    }
    return best;
  };

  let cell = choose();
  if (cell < 0) {
    emit(0);
    return result;
  }
  e.branchCell[0] = cell;
  e.branchMask[0] = e.cand[cell];
  while (depth >= 0) {
    let mask = e.branchMask[depth];
    if (mask === 0) {
      depth--;
      continue;
    }
    if (result.nodes >= maxNodes) {
      result.complete = false;
      break;
    }
    let bit: number;
    if (rng) {
      let k = rng.int(popcount(mask));
      bit = mask & -mask;
      let rest = mask;
      while (k-- > 0) {
        rest ^= bit;
        bit = rest & -rest;
      }
    } else bit = mask & -mask;
    mask ^= bit;
    e.branchMask[depth] = mask;
    // Child state at depth+1: the parent's with cell := bit.
    e.ensureDepth(depth + 1);
    cand = e.cand;
    placed = e.placed;
    const po = depth * nn, co = po + nn;
    cand.copyWithin(co, po, po + nn);
    placed.copyWithin(co, po, po + nn);
    cell = e.branchCell[depth];
    cand[co + cell] = bit;
    placed[co + cell] = 1;
    e.left[depth + 1] = e.left[depth] + 1;
    queue[0] = cell;
    // The parent is at a fixpoint: only the branch cell's units (and what follows from it) changed.
    e.dirty.fill(0);
    const q = 3 * cell;
    e.dirty[e.cellUnits[q]] = e.dirty[e.cellUnits[q + 1]] = e.dirty[e.cellUnits[q + 2]] = 3;
    result.nodes++;
    if (!e.propagate(co, depth + 1, 1)) continue;
    depth++;
    const next = choose();
    if (next < 0) {
      emit(co);
      depth--;
      if (result.solutions >= limit) break;
      continue;
    }
    e.branchCell[depth] = next;
    e.branchMask[depth] = e.cand[co + next];
  }
  return result;
}

/** The solution if the board has exactly one, else null (none, several, inconsistent, or budget exhausted). */
export function solve(grid: Grid, options: CountOptions = {}): Grid | null {
  const r = countSolutions(grid, 2, options);
  return r.complete && r.solutions === 1 && r.solution ? r.solution : null;
}

/** True when the board has exactly one solution. */
export function isUnique(grid: Grid, options: CountOptions = {}): boolean {
  const r = countSolutions(grid, 2, options);
  return r.complete && r.solutions === 1;
}
