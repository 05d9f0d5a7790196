// The line solver: every cell of one row or column forced by its clue and what is already known.
//
// Why it works. A line of n cells with clue b[0..k-1] and partial knowledge (each cell unknown,
// filled or empty) has a set of placements: start positions s[0] < ... < s[k-1] with the blocks
// separated by at least one empty cell, covering every known-filled cell and no known-empty cell.
// A cell is forced filled iff it is filled in every placement, forced empty iff empty in every one.
// Enumerating placements is exponential, but two dynamic programmes make it O(k·n):
//   F[j][i] = the first j blocks fit in the prefix [0, i) (cells of the prefix not covered are empty),
//   G[j][i] = blocks j..k-1 fit in the suffix [i, n).
// Block j can start at s iff F says blocks 0..j-1 fit before s (with a separator at s-1), the block
// covers no known-empty cell, and G says blocks j+1..k-1 fit after it (with a separator at s+b).
// A cell can be filled iff some such (j, s) covers it (a difference array accumulates the spans);
// cell i can be empty iff for some j, F[j][i] and G[j][i+1] (blocks 0..j-1 left of it, the rest
// right of it). The line is contradictory iff F[k][n] is false. So the solver is complete for the
// line: it finds every forced cell, not just the left/right overlap.
//
// What it cannot do: it reasons about one line at a time. Cells forced only by the interaction of
// several lines are the business of propagation, probing and search (solver.ts).
//
// `overlapSolveLineInPlace` is the weaker "overlap" rule humans learn first (and difficulty level 1):
// each block's leftmost and rightmost valid starts give the cells it covers in both extremes
// (filled) and the cells no block can reach (empty). It shares the same tables.
//
// No allocation in the hot path: module-level scratch buffers grow on demand (JS is single-threaded).
import type { Clue, Clues } from './grid.ts';

// Cell states, as in grid.ts; local constants because imported bindings can compile to getters in hot loops.
const UNKNOWN = 0;
const FILLED = 1;
const EMPTY = 2;

let capN = 0;
let capTable = 0;
let line = new Uint8Array(0);
let emptyPre = new Int32Array(0);
let filledPre = new Int32Array(0);
let canFillDiff = new Int32Array(0);
let canEmpty = new Uint8Array(0);
let fwd = new Uint8Array(0);
let bwd = new Uint8Array(0);
let lo = new Int32Array(0);
let hi = new Int32Array(0);

let lastChanged = new Int32Array(0);

/** Line positions (0..length-1) set by the last in-place call; read only the first `count` entries. */
export function changedPositions(): Int32Array {
  return lastChanged;
}

function ensureCapacity(n: number, k: number): void {
  if (n + 1 > capN) {
    capN = Math.max(n + 1, capN * 2, 64);
    line = new Uint8Array(capN);
    emptyPre = new Int32Array(capN);
    filledPre = new Int32Array(capN);
    canFillDiff = new Int32Array(capN);
    canEmpty = new Uint8Array(capN);
    lastChanged = new Int32Array(capN);
    lo = new Int32Array(capN);
    hi = new Int32Array(capN);
  }
  const table = (k + 1) * (n + 1);
  if (table > capTable) {
    capTable = Math.max(table, capTable * 2, 1024);
    fwd = new Uint8Array(capTable);
    bwd = new Uint8Array(capTable);
  }
}

/**
 * Fill the F and G tables for the line copied into `line`. Returns false on contradiction.
 * Pre: line[0..n), emptyPre and filledPre hold the line and its prefix counts.
 */
function buildTables(clue: ArrayLike<number>, n: number): boolean {
  const k = clue.length;
  const W = n + 1;
  // F[0][i]: no filled cell in [0, i).
  for (let i = 0; i <= n; i++) fwd[i] = filledPre[i] === 0 ? 1 : 0;
  for (let j = 1; j <= k; j++) {
    const b = clue[j - 1];
    const row = j * W;
    const prev = (j - 1) * W;
    fwd[row] = 0;
    for (let i = 1; i <= n; i++) {
      let v = line[i - 1] !== FILLED && fwd[row + i - 1] === 1;
      if (!v && i >= b && emptyPre[i] === emptyPre[i - b]) {
        const s = i - b;
        if (j === 1) v = fwd[s] === 1;
        else v = s >= 1 && line[s - 1] !== FILLED && fwd[prev + s - 1] === 1;
      }
      fwd[row + i] = v ? 1 : 0;
    }
  }
  if (fwd[k * W + n] !== 1) return false;
  // G[k][i]: no filled cell in [i, n).
  const last = k * W;
  for (let i = 0; i <= n; i++) bwd[last + i] = filledPre[n] === filledPre[i] ? 1 : 0;
  for (let j = k - 1; j >= 0; j--) {
    const b = clue[j];
    const row = j * W;
    const next = (j + 1) * W;
    bwd[row + n] = 0;
    for (let i = n - 1; i >= 0; i--) {
      let v = line[i] !== FILLED && bwd[row + i + 1] === 1;
      if (!v && i + b <= n && emptyPre[i + b] === emptyPre[i]) {
        const e = i + b;
        if (j === k - 1) v = bwd[last + e] === 1;
        else v = e < n && line[e] !== FILLED && bwd[next + e + 1] === 1;
      }
      bwd[row + i] = v ? 1 : 0;
    }
  }
  return true;
}

function loadLine(cells: ArrayLike<number>, start: number, n: number, step: number): void {
  emptyPre[0] = 0;
  filledPre[0] = 0;
  for (let i = 0, p = start; i < n; i++, p += step) {
    const v = cells[p];
    line[i] = v;
    emptyPre[i + 1] = emptyPre[i] + (v === EMPTY ? 1 : 0);
    filledPre[i + 1] = filledPre[i] + (v === FILLED ? 1 : 0);
  }
}

/** Can block j (length b) start at s, given the tables? */
function validStart(clue: ArrayLike<number>, j: number, s: number, n: number, W: number): boolean {
  const b = clue[j];
  const k = clue.length;
  const e = s + b;
  if (e > n || emptyPre[e] !== emptyPre[s]) return false;
  if (j === 0) {
    if (fwd[s] !== 1) return false;
  } else if (s < 1 || line[s - 1] === FILLED || fwd[j * W + s - 1] !== 1) return false;
  if (j === k - 1) return bwd[k * W + e] === 1;
  return e < n && line[e] !== FILLED && bwd[(j + 1) * W + e + 1] === 1;
}

/** Earliest start of block j if all blocks are packed left (ignoring knowledge). */
function packedBounds(clue: ArrayLike<number>, n: number): void {
  const k = clue.length;
  let pos = 0;
  for (let j = 0; j < k; j++) {
    lo[j] = pos;
    pos += clue[j] + 1;
  }
  pos = n;
  for (let j = k - 1; j >= 0; j--) {
    pos -= clue[j];
    hi[j] = pos;
    pos -= 1;
  }
}

/**
 * Complete line solving in place on cells[start + i*step], i < length.
 * Returns -1 on contradiction (cells untouched), else the number of cells it set; their line
 * positions are in `changedPositions()[0..count)`.
 */
export function solveLineInPlace(clue: ArrayLike<number>, cells: Uint8Array, start: number, length: number, step: number): number {
  const n = length;
  const k = clue.length;
  ensureCapacity(n, k);
  loadLine(cells, start, n, step);
  if (!buildTables(clue, n)) return -1;
  const W = n + 1;
  canFillDiff.fill(0, 0, n + 1);
  packedBounds(clue, n);
  for (let j = 0; j < k; j++) {
    const b = clue[j];
    for (let s = lo[j], end = hi[j]; s <= end; s++) {
      if (validStart(clue, j, s, n, W)) {
        canFillDiff[s]++;
        canFillDiff[s + b]--;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    let e = 0;
    if (line[i] !== FILLED) {
      for (let j = 0; j <= k; j++) {
        if (fwd[j * W + i] === 1 && bwd[j * W + i + 1] === 1) {
          e = 1;
          break;
        }
      }
    }
    canEmpty[i] = e;
  }
  let count = 0;
  let run = 0;
  for (let i = 0; i < n; i++) {
    run += canFillDiff[i];
    if (line[i] !== UNKNOWN) continue;
    const f = run > 0;
    const e = canEmpty[i] === 1;
    if (f && !e) {
      cells[start + i * step] = FILLED;
      lastChanged[count++] = i;
    } else if (e && !f) {
      cells[start + i * step] = EMPTY;
      lastChanged[count++] = i;
    }
  }
  return count;
}

/**
 * The overlap rule in place (weaker than `solveLineInPlace`): block j's leftmost and rightmost valid
 * starts lo, hi force [hi, lo + b) filled; cells outside every [lo, hi + b) are forced empty.
 * Returns -1 on contradiction, else the number of cells set (positions in `changedPositions()`).
 */
export function overlapSolveLineInPlace(clue: ArrayLike<number>, cells: Uint8Array, start: number, length: number, step: number): number {
  const n = length;
  const k = clue.length;
  ensureCapacity(n, k);
  loadLine(cells, start, n, step);
  if (!buildTables(clue, n)) return -1;
  const W = n + 1;
  packedBounds(clue, n);
  for (let j = 0; j < k; j++) {
    let s = lo[j];
    while (!validStart(clue, j, s, n, W)) s++;
    let t = hi[j];
    while (!validStart(clue, j, t, n, W)) t--;
    lo[j] = s;
    hi[j] = t;
  }
  // canFillDiff doubles as "reachable by some block" coverage; canEmpty as forced-filled marks.
  canFillDiff.fill(0, 0, n + 1);
  canEmpty.fill(0, 0, n);
  for (let j = 0; j < k; j++) {
    const b = clue[j];
    canFillDiff[lo[j]]++;
    canFillDiff[hi[j] + b]--;
    for (let i = hi[j]; i < lo[j] + b; i++) canEmpty[i] = 1;
  }
  let count = 0;
  let run = 0;
  for (let i = 0; i < n; i++) {
    run += canFillDiff[i];
    if (line[i] !== UNKNOWN) continue;
    if (canEmpty[i] === 1) {
      cells[start + i * step] = FILLED;
      lastChanged[count++] = i;
    } else if (run === 0) {
      cells[start + i * step] = EMPTY;
      lastChanged[count++] = i;
    }
  }
  return count;
}

/**
 * Complete line solving, allocating: the line's cells after solving (UNKNOWN=0, FILLED=1, EMPTY=2),
 * or 'contradiction' if no placement of the clue agrees with what is known. `cells` is not modified.
 */
export function lineSolve(clue: Clue, cells: ArrayLike<number>, start = 0, length = cells.length, step = 1): 'contradiction' | number[] {
  const copy = new Uint8Array(length);
  for (let i = 0; i < length; i++) copy[i] = cells[start + i * step];
  return solveLineInPlace(clue, copy, 0, length, 1) < 0 ? 'contradiction' : Array.from(copy);
}

/** The overlap rule alone, allocating (see `overlapSolveLineInPlace`). */
export function lineSolveOverlap(clue: Clue, cells: ArrayLike<number>, start = 0, length = cells.length, step = 1): 'contradiction' | number[] {
  const copy = new Uint8Array(length);
  for (let i = 0; i < length; i++) copy[i] = cells[start + i * step];
  return overlapSolveLineInPlace(clue, copy, 0, length, 1) < 0 ? 'contradiction' : Array.from(copy);
}

/** Cells a clue needs at least: sum of runs plus one gap between consecutive runs. */
export function clueSpan(clue: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < clue.length; j++) s += clue[j];
  return s + Math.max(0, clue.length - 1);
}

/**
 * A cache of complete line solves (pbnsolve's "H" algorithm): the result of `solveLineInPlace` is a
 * function of the clue and the line's cells alone, and search and probing meet the same line in the
 * same state again and again (after a backtrack, in the other branch, in the next probe), so each
 * line's results are kept by its cells. A hit writes the cached line back and reports the same
 * changed positions, in the same (ascending) order, as the solve it replaces: propagation is step for
 * step the same, only cheaper. Lines are told apart by `index` (any stable number per line: rows
 * 0..H-1, columns H..H+W-1); one cache serves one set of clues. When it holds `maxEntries` results
 * it starts again empty (a bound on memory, not on correctness).
 */
export class LineCache {
  hits = 0;
  misses = 0;
  private readonly maps: (LineResultMap | undefined)[] = [];
  private readonly store: LineResults;
  /**
   * `shared`: keep the results in that store, keyed by each line's clue and length instead of its
   * index (`clues` names the lines: rows 0..H-1, columns H..H+W-1), so that caches for clue sets
   * that share lines (a board and its one-cell variants, as `makeUnique` tries them) share their
   * results. A line's result depends on its clue, length and cells alone, so this is still exact.
   */
  constructor(readonly maxEntries = 200_000, shared?: { results: LineResults; clues: Clues }) {
    this.store = shared?.results ?? new LineResults(maxEntries);
    if (shared) {
      const { rows, cols } = shared.clues;
      for (let r = 0; r < rows.length; r++) this.maps[r] = shared.results.mapFor(rows[r], cols.length);
      for (let c = 0; c < cols.length; c++) this.maps[rows.length + c] = shared.results.mapFor(cols[c], rows.length);
    }
  }

  /** `solveLineInPlace(clue, cells, start, length, step)` through the cache, for line `index`. */
  solve(index: number, clue: ArrayLike<number>, cells: Uint8Array, start: number, length: number, step: number): number {
    const n = length;
    let key: number | string;
    if (n <= 33) {
      // Base 3: exact in a double up to 3^33 < 2^53.
      let k = 0;
      for (let i = 0, p = start; i < n; i++, p += step) k = k * 3 + cells[p];
      key = k;
    } else {
      let s = '';
      for (let i = 0, p = start; i < n; i++, p += step) s += String.fromCharCode(48 + cells[p]);
      key = s;
    }
    let map = this.maps[index];
    if (map === undefined) this.maps[index] = map = this.store.newMap();
    const hit = map.get(key);
    if (hit !== undefined) {
      this.hits++;
      if (hit === null) return -1;
      ensureCapacity(n, clue.length);
      let count = 0;
      for (let i = 0, p = start; i < n; i++, p += step) {
        if (cells[p] === UNKNOWN && hit[i] !== UNKNOWN) {
          cells[p] = hit[i];
          lastChanged[count++] = i;
        }
      }
      return count;
    }
    this.misses++;
    const r = solveLineInPlace(clue, cells, start, n, step);
    this.store.added();
    if (r < 0) map.set(key, null);
    else {
      const out = new Uint8Array(n);
      for (let i = 0, p = start; i < n; i++, p += step) out[i] = cells[p];
      map.set(key, out);
    }
    return r;
  }
}

type LineResultMap = Map<number | string, Uint8Array | null>;

/**
 * Line results for many clue sets at once (see `LineCache`'s `shared`): one map per clue and line
 * length. When it holds `maxEntries` results it starts again empty (a bound on memory).
 */
export class LineResults {
  private size = 0;
  private readonly all: LineResultMap[] = [];
  private readonly byClue = new Map<string, LineResultMap>();
  constructor(readonly maxEntries = 200_000) {}

  /** The map of results for this clue on lines of this length. */
  mapFor(clue: ArrayLike<number>, length: number): LineResultMap {
    let key = `${length}:`;
    for (let j = 0; j < clue.length; j++) key += `${clue[j]},`;
    let map = this.byClue.get(key);
    if (map === undefined) {
      map = this.newMap();
      this.byClue.set(key, map);
    }
    return map;
  }

  /** A new map counted against this store's bound. */
  newMap(): LineResultMap {
    const map: LineResultMap = new Map();
    this.all.push(map);
    return map;
  }

  /** One result was added (called before it is stored): past the bound, every map starts again empty. */
  added(): void {
    if (this.size >= this.maxEntries) {
      for (const m of this.all) m.clear();
      this.size = 0;
    }
    this.size++;
  }
}
