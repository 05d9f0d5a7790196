// The propagation ladder of Simonis 2005 ("Sudoku as a Constraint Problem"), pure: no I/O, no clocks, no Math.random.
//
// Sudoku as a CSP: one variable per cell with domain 1..N (a given: its digit), one all-different constraint per
// row, column and box. The ladder propagates those constraints at increasing strength, without search:
//   value           forward checking: all-different read as binary "not equal" constraints; a cell whose domain is
//                   one digit removes that digit from every peer (in people's terms: naked singles only);
//   bounds          bounds consistency of each all-different (Hall intervals: k cells whose domains lie within an
//                   interval of k digits take those digits, so the interval's digits leave the other cells' bounds);
//   domain          domain (generalised arc) consistency of each all-different, after Régin 1994: a digit stays in a
//                   cell's domain only if some perfect matching of the unit's cells to its digits uses it (maximum
//                   matching, then strongly connected components of the residual graph);
//   bounds-shaving  bounds consistency plus shaving (singleton consistency): each digit of each open cell is tried,
//                   propagated with the base level, and removed when that fails; repeated until nothing changes;
//   domain-shaving  the same with domain consistency as the base.
// Each level keeps the weaker levels' propagators (bounds and domain also forward-check), so value <= bounds <=
// domain <= domain-shaving and bounds <= bounds-shaving <= domain-shaving in pruning strength. Bounds shaving and
// domain consistency are incomparable in theory (the tests hold a board bounds shaving solves and domain consistency
// does not; the converse did not turn up in 400 random minimal 9x9 puzzles); the ladder lists bounds-shaving after domain, as issue 34 does, and the grade is the first level in ladder
// order that solves the board.
//
// Bounds consistency here prunes with Hall intervals over each cell's [lowest, highest] digit, to a fixpoint; a
// bound that moves lands on the next digit actually left in the domain (holes are respected, never filled).
//
// Every level is sound: it removes a digit from a cell only when no solution of the board has that digit there.
import { bit, geometry, highestDigit, lowestDigit, popcount } from './candidates.ts';
import type { Geometry } from './candidates.ts';
import type { Grid } from './grid.ts';

export const PROPAGATION_LEVELS = ['value', 'bounds', 'domain', 'bounds-shaving', 'domain-shaving'] as const;
export type PropagationLevel = (typeof PROPAGATION_LEVELS)[number];
/** A level name, 'search' when no level solves the board, 'inconsistent' when propagation proves it has no solution. */
export type PropagationGrade = PropagationLevel | 'search' | 'inconsistent';

/** The starting domains: a given is its digit, an empty cell every digit (propagation does the rest). */
export function initialDomains(grid: Grid): Uint32Array {
  const g = geometry(grid);
  const d = new Uint32Array(g.cellCount);
  for (let i = 0; i < g.cellCount; i++) d[i] = grid.cells[i] === 0 ? g.full : bit(grid.cells[i]);
  return d;
}

/** Forward checking to a fixpoint: false when some cell's domain empties. */
function forwardCheck(g: Geometry, d: Uint32Array): boolean {
  const queue: number[] = [];
  const done = new Uint8Array(g.cellCount);
  for (let i = 0; i < g.cellCount; i++) {
    if (d[i] === 0) return false;
    if ((d[i] & (d[i] - 1)) === 0) queue.push(i);
  }
  while (queue.length) {
    const i = queue.pop()!;
    if (done[i]) continue;
    done[i] = 1;
    const b = d[i];
    for (const j of g.peers[i]) {
      if ((d[j] & b) === 0) continue;
      d[j] = (d[j] & ~b) >>> 0;
      if (d[j] === 0) return false;
      if ((d[j] & (d[j] - 1)) === 0) queue.push(j);
    }
  }
  return true;
}

/** Bounds consistency of one all-different; 'fail', or whether a domain changed. */
function boundsUnit(n: number, cells: number[], d: Uint32Array): 'fail' | boolean {
  let changedAny = false;
  const k = cells.length;
  const lo = new Array<number>(k), hi = new Array<number>(k);
  const cnt = new Array<number>(n + 2);
  for (let again = true; again; ) {
    again = false;
    for (let x = 0; x < k; x++) {
      const m = d[cells[x]];
      if (m === 0) return 'fail';
      lo[x] = lowestDigit(m);
      hi[x] = highestDigit(m);
    }
    outer: for (let a = 1; a <= n; a++) {
      cnt.fill(0);
      for (let x = 0; x < k; x++) if (lo[x] >= a) cnt[hi[x]]++;
      let inside = 0;
      for (let b = a; b <= n; b++) {
        inside += cnt[b];
        const width = b - a + 1;
        if (inside > width) return 'fail';
        if (inside < width || inside === 0) continue;
        // Hall interval [a, b]: its cells take all of its digits; the others lose the interval at their bounds.
        let span = 0;
        for (let v = a; v <= b; v++) span |= bit(v);
        for (let x = 0; x < k; x++) {
          const inI = lo[x] >= a && hi[x] <= b;
          if (inI) continue;
          const touches = (lo[x] >= a && lo[x] <= b) || (hi[x] >= a && hi[x] <= b);
          if (!touches) continue;
          const cell = cells[x];
          const next = (d[cell] & ~span) >>> 0;
          if (next !== d[cell]) {
            d[cell] = next;
            if (next === 0) return 'fail';
            changedAny = true;
            again = true;
          }
        }
        if (again) break outer;
      }
    }
  }
  return changedAny;
}

/** Domain consistency of one all-different (Régin); 'fail', or whether a domain changed. */
function domainUnit(n: number, cells: number[], d: Uint32Array): 'fail' | boolean {
  const k = cells.length;
  const matchOfVar = new Array<number>(k).fill(-1);
  const matchOfVal = new Array<number>(n + 1).fill(-1);
  // Maximum matching by augmenting paths (Kuhn).
  const seen = new Uint8Array(n + 1);
  const augment = (x: number): boolean => {
    let m = d[cells[x]];
    while (m) {
      const v = lowestDigit(m);
      m = (m & (m - 1)) >>> 0;
      if (seen[v]) continue;
      seen[v] = 1;
      if (matchOfVal[v] < 0 || augment(matchOfVal[v])) {
        matchOfVar[x] = v;
        matchOfVal[v] = x;
        return true;
      }
    }
    return false;
  };
  for (let x = 0; x < k; x++) {
    seen.fill(0);
    if (!augment(x)) return 'fail';
  }
  // Residual graph: node x (0..k-1) a cell, node k + v - 1 a digit. Unmatched edge cell -> digit, matched digit -> cell.
  // A Sudoku unit has as many cells as digits, so the matching is perfect and no digit is free: an unmatched edge lies
  // on an alternating cycle (some other perfect matching uses it) exactly when its ends share a component.
  const nodes = k + n;
  const adj: number[][] = [];
  for (let i = 0; i < nodes; i++) adj.push([]);
  for (let x = 0; x < k; x++) {
    let m = d[cells[x]];
    while (m) {
      const v = lowestDigit(m);
      m = (m & (m - 1)) >>> 0;
      if (matchOfVar[x] === v) adj[k + v - 1].push(x);
      else adj[x].push(k + v - 1);
    }
  }
  // Tarjan's strongly connected components.
  const index = new Array<number>(nodes).fill(-1), low = new Array<number>(nodes).fill(0), comp = new Array<number>(nodes).fill(-1);
  const onStack = new Uint8Array(nodes);
  const stack: number[] = [];
  let counter = 0, comps = 0;
  const strong = (u: number) => {
    index[u] = low[u] = counter++;
    stack.push(u);
    onStack[u] = 1;
    for (const w of adj[u]) {
      if (index[w] < 0) {
        strong(w);
        low[u] = Math.min(low[u], low[w]);
      } else if (onStack[w]) low[u] = Math.min(low[u], index[w]);
    }
    if (low[u] === index[u]) {
      for (;;) {
        const w = stack.pop()!;
        onStack[w] = 0;
        comp[w] = comps;
        if (w === u) break;
      }
      comps++;
    }
  };
  for (let u = 0; u < nodes; u++) if (index[u] < 0) strong(u);
  let changed = false;
  for (let x = 0; x < k; x++) {
    let m = d[cells[x]];
    let keep = m;
    while (m) {
      const v = lowestDigit(m);
      m = (m & (m - 1)) >>> 0;
      if (matchOfVar[x] === v) continue;
      if (comp[x] === comp[k + v - 1]) continue;
      keep = (keep & ~bit(v)) >>> 0;
    }
    if (keep !== d[cells[x]]) {
      d[cells[x]] = keep;
      changed = true;
    }
  }
  return changed;
}

/**
 * Forward checking and one unit propagator to their common fixpoint. Units are revisited only when one of their
 * cells changed; `from`, when given, is a fixpoint the domains were narrowed from (only units of cells that differ
 * from it start dirty), else every unit does.
 */
function unitsFixpoint(g: Geometry, d: Uint32Array, unit: (n: number, cells: number[], d: Uint32Array) => 'fail' | boolean, from?: Uint32Array): boolean {
  const n = g.size;
  const dirty = new Uint8Array(3 * n);
  const mark = (prev: Uint32Array) => {
    for (let i = 0; i < d.length; i++) {
      if (prev[i] === d[i]) continue;
      const [ru, cu, bu] = g.unitsOf[i];
      dirty[ru.index] = 1;
      dirty[n + cu.index] = 1;
      dirty[2 * n + bu.index] = 1;
    }
  };
  if (from) mark(from);
  else dirty.fill(1);
  const snap = d.slice();
  for (;;) {
    if (!forwardCheck(g, d)) return false;
    mark(snap);
    snap.set(d);
    const u = dirty.indexOf(1);
    if (u < 0) return true;
    dirty[u] = 0;
    const r = unit(n, g.units[u].cells, d);
    if (r === 'fail') return false;
    if (r) {
      mark(snap);
      snap.set(d);
      // Each unit propagator leaves its own unit at its fixpoint.
      dirty[u] = 0;
    }
  }
}

function base(g: Geometry, d: Uint32Array, level: 'value' | 'bounds' | 'domain', from?: Uint32Array): boolean {
  if (level === 'value') return forwardCheck(g, d);
  return unitsFixpoint(g, d, level === 'bounds' ? boundsUnit : domainUnit, from);
}

function shave(g: Geometry, d: Uint32Array, level: 'bounds' | 'domain'): boolean {
  if (!base(g, d, level)) return false;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < g.cellCount; i++) {
      let m = d[i];
      if ((m & (m - 1)) === 0) continue;
      while (m) {
        const b = (m & -m) >>> 0;
        m = (m & ~b) >>> 0;
        if ((d[i] & b) === 0) continue;
        const trial = d.slice();
        trial[i] = b;
        if (!base(g, trial, level, d)) {
          const before = d.slice();
          d[i] = (d[i] & ~b) >>> 0;
          if (!base(g, d, level, before)) return false;
          changed = true;
        }
      }
    }
  }
  return true;
}

/**
 * Propagate `domains` (changed in place) at `level` to its fixpoint; false when the board has no solution (a domain
 * empties or a unit cannot be matched). Start from any sound superset of the level's fixpoint, e.g. a weaker level's.
 */
export function propagateDomains(grid: Grid, domains: Uint32Array, level: PropagationLevel): boolean {
  const g = geometry(grid);
  switch (level) {
    case 'value':
    case 'bounds':
    case 'domain':
      return base(g, domains, level);
    case 'bounds-shaving':
      return shave(g, domains, 'bounds');
    case 'domain-shaving':
      return shave(g, domains, 'domain');
  }
}

export interface PropagationResult {
  level: PropagationLevel;
  /** False when propagation proved the board has no solution. */
  consistent: boolean;
  /** Every cell down to one digit. */
  solved: boolean;
  domains: Uint32Array;
  /** Cells with one digit left (givens included). */
  fixed: number;
  /** Digits left over all cells (N*N when solved). */
  candidates: number;
}

function summary(level: PropagationLevel, consistent: boolean, domains: Uint32Array): PropagationResult {
  let fixed = 0, candidates = 0;
  for (const m of domains) {
    const k = popcount(m);
    candidates += k;
    if (k === 1) fixed++;
  }
  return { level, consistent, solved: consistent && fixed === domains.length, domains, fixed, candidates };
}

/** The board propagated at one level from its givens. */
export function propagate(grid: Grid, level: PropagationLevel): PropagationResult {
  const d = initialDomains(grid);
  const ok = propagateDomains(grid, d, level);
  return summary(level, ok, d);
}

export interface PropagationGrading {
  grade: PropagationGrade;
  /**
   * Each level's outcome from the givens, in ladder order: up to and including the grade (or every level with
   * `allLevels`, and always every level when the grade is 'search').
   */
  levels: PropagationResult[];
}

/**
 * The propagation grade: the first level (in ladder order) whose propagation alone solves the board, 'search' when
 * none does, 'inconsistent' when propagation shows there is no solution. Each level starts from the fixpoint of a
 * weaker one (the same fixpoint, reached faster). Levels past the grade are skipped unless `allLevels` is set.
 */
export function gradePropagation(grid: Grid, options: { allLevels?: boolean } = {}): PropagationGrading {
  const levels: PropagationResult[] = [];
  const from: Partial<Record<PropagationLevel, Uint32Array>> = {};
  const weaker: Record<PropagationLevel, PropagationLevel[]> = { value: [], bounds: ['value'], domain: ['bounds'], 'bounds-shaving': ['bounds'], 'domain-shaving': ['domain', 'bounds-shaving'] };
  let grade: PropagationGrade | null = null;
  for (const level of PROPAGATION_LEVELS) {
    if (grade === 'inconsistent') {
      levels.push(summary(level, false, new Uint32Array(0)));
      continue;
    }
    if (grade !== null && !options.allLevels) break;
    const d = initialDomains(grid);
    for (const w of weaker[level]) {
      const prev = from[w];
      if (prev) for (let i = 0; i < d.length; i++) d[i] &= prev[i];
    }
    const ok = propagateDomains(grid, d, level);
    from[level] = d;
    const result = summary(level, ok, d);
    levels.push(result);
    if (!ok) grade = 'inconsistent';
    else if (result.solved && grade === null) grade = level;
  }
  return { grade: grade ?? 'search', levels };
}
