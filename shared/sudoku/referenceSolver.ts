// Test support: a small, plain backtracking Sudoku solver, kept as an independent reference for property tests of
// the propagation ladder, the technique ladder and the hints. It is deliberately simple (most-constrained cell first,
// digits tried in order or in a seeded random order) and shares no reasoning with the code it checks. The engine's
// own exact counter lives in solver.ts.
import { emptyGrid } from './grid.ts';
import type { Grid, Shape } from './grid.ts';
import type { Rng } from '../random.ts';
import { shuffle } from '../random.ts';

interface Search {
  n: number;
  cells: Uint8Array;
  unitsOf: number[][];
  members: number[][];
  used: Uint32Array;
}

function setup(grid: Grid): Search | null {
  const n = grid.size;
  const members: number[][] = [];
  for (let u = 0; u < 3 * n; u++) members.push([]);
  const unitsOf: number[][] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const b = Math.floor(r / grid.boxRows) * (n / grid.boxCols) + Math.floor(c / grid.boxCols);
      const us = [r, n + c, 2 * n + b];
      unitsOf.push(us);
      for (const u of us) members[u].push(r * n + c);
    }
  }
  const used = new Uint32Array(3 * n);
  const cells = grid.cells.slice();
  for (let i = 0; i < n * n; i++) {
    const v = cells[i];
    if (v === 0) continue;
    const b = 1 << (v - 1);
    for (const u of unitsOf[i]) {
      if (used[u] & b) return null;
      used[u] |= b;
    }
  }
  return { n, cells, unitsOf, members, used };
}

/** Solutions of the board, up to `limit`; each is a full grid. An illegal board (a digit twice in a unit) has none. */
export function referenceSolutions(grid: Grid, limit = 2, rng?: Rng): Grid[] {
  const s = setup(grid);
  if (!s) return [];
  const { n, cells, unitsOf, used } = s;
  const full = (1 << n) - 1;
  const out: Grid[] = [];
  const free = (i: number) => full & ~(used[unitsOf[i][0]] | used[unitsOf[i][1]] | used[unitsOf[i][2]]);
  const rec = (): boolean => {
    let best = -1;
    let bestCount = 99;
    for (let i = 0; i < n * n; i++) {
      if (cells[i] !== 0) continue;
      let m = free(i);
      let k = 0;
      while (m) { m &= m - 1; k++; }
      if (k < bestCount) { best = i; bestCount = k; if (k <= 1) break; }
    }
    if (best < 0) {
      out.push({ size: grid.size, boxRows: grid.boxRows, boxCols: grid.boxCols, cells: cells.slice() });
      return out.length >= limit;
    }
    if (bestCount === 0) return false;
    const m = free(best);
    const digits: number[] = [];
    for (let v = 1; v <= n; v++) if (m & (1 << (v - 1))) digits.push(v);
    if (rng) shuffle(digits, rng);
    for (const v of digits) {
      const b = 1 << (v - 1);
      cells[best] = v;
      for (const u of unitsOf[best]) used[u] |= b;
      const stop = rec();
      for (const u of unitsOf[best]) used[u] &= ~b;
      cells[best] = 0;
      if (stop) return true;
    }
    return false;
  };
  rec();
  return out;
}

export function referenceCount(grid: Grid, limit = 2): number {
  return referenceSolutions(grid, limit).length;
}

/** A uniformly shuffled search's first full grid: random enough for tests. */
export function randomFullGrid(shape: Shape, rng: Rng): Grid {
  const [g] = referenceSolutions(emptyGrid(shape), 1, rng);
  return g;
}

/**
 * A puzzle with a unique solution: a random full grid, then clues removed one at a time in random order while the
 * solution stays unique (a minimal puzzle), stopping early once `keep` clues are left when asked.
 */
export function randomPuzzle(shape: Shape, rng: Rng, keep = 0): { puzzle: Grid; solution: Grid } {
  const solution = randomFullGrid(shape, rng);
  const puzzle = { ...solution, cells: solution.cells.slice() };
  const order = shuffle(Array.from({ length: shape.size * shape.size }, (_, i) => i), rng);
  let clues = order.length;
  for (const i of order) {
    if (clues <= keep) break;
    const v = puzzle.cells[i];
    puzzle.cells[i] = 0;
    if (referenceCount(puzzle, 2) !== 1) puzzle.cells[i] = v;
    else clues--;
  }
  return { puzzle, solution };
}

/**
 * The reference's own reading of a technique step's claim, independent of techniques.ts: given the digits and the
 * candidates (bit v-1 for digit v) the step was found on, the reasons a claim is false (empty when it is true).
 */
export function referenceClaimErrors(
  shape: Shape,
  cells: Uint8Array,
  cands: Uint32Array,
  step: { technique: string; placed: { r: number; c: number; digit: number } | null; eliminated: { r: number; c: number; digit: number }[]; units: { kind: 'row' | 'col' | 'box'; index: number }[]; cells: { r: number; c: number }[]; digits: number[] },
): string[] {
  const n = shape.size;
  const errs: string[] = [];
  const at = (p: { r: number; c: number }) => p.r * n + p.c;
  const has = (i: number, v: number) => cells[i] === 0 && (cands[i] & (1 << (v - 1))) !== 0;
  const boxOf = (i: number) => Math.floor(Math.floor(i / n) / shape.boxRows) * (n / shape.boxCols) + Math.floor((i % n) / shape.boxCols);
  const unitCells = (u: { kind: string; index: number }) => {
    const out: number[] = [];
    for (let i = 0; i < n * n; i++) {
      const k = u.kind === 'row' ? Math.floor(i / n) : u.kind === 'col' ? i % n : boxOf(i);
      if (k === u.index) out.push(i);
    }
    return out;
  };
  const see = (a: number, b: number) => a !== b && (Math.floor(a / n) === Math.floor(b / n) || a % n === b % n || boxOf(a) === boxOf(b));
  const places = (u: number[], v: number) => u.filter((i) => has(i, v));
  const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((x, k) => x === [...b].sort((p, q) => p - q)[k]);
  const elim = step.eliminated;
  for (const e of elim) if (!has(at(e), e.digit)) errs.push(`eliminates ${e.digit} at ${e.r},${e.c}, which is not a candidate there`);
  const [d] = step.digits;
  switch (step.technique) {
    case 'naked-single': {
      const i = at(step.placed!);
      if (cells[i] !== 0 || cands[i] !== 1 << (step.placed!.digit - 1)) errs.push('the cell does not have exactly that one candidate');
      break;
    }
    case 'hidden-single': {
      const u = unitCells(step.units[0]);
      const i = at(step.placed!);
      if (!u.includes(i)) errs.push('the cell is not in the named unit');
      if (u.some((j) => cells[j] === step.placed!.digit)) errs.push('the digit is already placed in the unit');
      if (!sameSet(places(u, step.placed!.digit), [i])) errs.push('the digit has other places in the unit');
      break;
    }
    case 'pointing':
    case 'claiming': {
      const inner = unitCells(step.units[0]), outer = unitCells(step.units[1]);
      if ((step.technique === 'pointing') !== (step.units[0].kind === 'box')) errs.push('wrong unit kinds');
      const p = places(inner, d);
      if (!sameSet(p, step.cells.map(at))) errs.push('the cells are not all the places of the digit in the first unit');
      if (!p.every((i) => outer.includes(i))) errs.push('the places do not all lie in the second unit');
      if (!elim.every((e) => outer.includes(at(e)) && !inner.includes(at(e)) && e.digit === d)) errs.push('an elimination is outside the second unit, inside the first, or another digit');
      break;
    }
    case 'naked-pair':
    case 'naked-triple': {
      const k = step.technique === 'naked-pair' ? 2 : 3;
      const u = unitCells(step.units[0]);
      const cs = step.cells.map(at);
      let union = 0;
      for (const i of cs) union |= cells[i] === 0 ? cands[i] : 1 << 30;
      const dm = step.digits.reduce((m, v) => m | (1 << (v - 1)), 0);
      if (cs.length !== k || step.digits.length !== k || union !== dm || !cs.every((i) => u.includes(i))) errs.push('the cells are not k empty cells of the unit holding only the k digits');
      if (!elim.every((e) => u.includes(at(e)) && !cs.includes(at(e)) && step.digits.includes(e.digit))) errs.push('an elimination is outside the unit, in the subset, or another digit');
      break;
    }
    case 'hidden-pair':
    case 'hidden-triple': {
      const k = step.technique === 'hidden-pair' ? 2 : 3;
      const u = unitCells(step.units[0]);
      const cs = step.cells.map(at);
      if (cs.length !== k || step.digits.length !== k || !cs.every((i) => u.includes(i) && cells[i] === 0)) errs.push('not k empty cells of the unit');
      for (const v of step.digits) {
        if (u.some((j) => cells[j] === v)) errs.push(`${v} is already placed in the unit`);
        if (!places(u, v).every((i) => cs.includes(i))) errs.push(`${v} has places outside the cells`);
      }
      if (!elim.every((e) => cs.includes(at(e)) && !step.digits.includes(e.digit))) errs.push('an elimination is outside the cells or one of the digits');
      break;
    }
    case 'x-wing':
    case 'swordfish': {
      const k = step.technique === 'x-wing' ? 2 : 3;
      const bases = step.units.slice(0, k), covers = step.units.slice(k);
      if (covers.length !== k || !bases.every((b) => b.kind === bases[0].kind) || !covers.every((c) => c.kind !== bases[0].kind && c.kind !== 'box')) errs.push('not k base lines and k cross lines');
      const coverCells = new Set(covers.flatMap(unitCells));
      const baseCells = new Set(bases.flatMap(unitCells));
      for (const b of bases) {
        const u = unitCells(b);
        if (u.some((j) => cells[j] === d)) errs.push('the digit is placed in a base line');
        if (!places(u, d).every((i) => coverCells.has(i))) errs.push('a base line has a place outside the cover lines');
      }
      if (!elim.every((e) => coverCells.has(at(e)) && !baseCells.has(at(e)) && e.digit === d)) errs.push('an elimination is off the cover lines or on a base line');
      break;
    }
    case 'xy-wing': {
      const [p, a, b] = step.cells.map(at);
      const [x, y, z] = step.digits;
      const m = (...vs: number[]) => vs.reduce((acc, v) => acc | (1 << (v - 1)), 0);
      if (cells[p] !== 0 || cands[p] !== m(x, y) || cells[a] !== 0 || cands[a] !== m(x, z) || cells[b] !== 0 || cands[b] !== m(y, z) || new Set([x, y, z]).size !== 3) errs.push('the three cells do not hold {x,y}, {x,z}, {y,z}');
      if (!see(p, a) || !see(p, b)) errs.push('the pivot does not see both pincers');
      if (!elim.every((e) => e.digit === z && see(at(e), a) && see(at(e), b))) errs.push('an elimination does not see both pincers or is not z');
      break;
    }
    default:
      errs.push(`unknown technique ${step.technique}`);
  }
  if (step.placed === null && elim.length === 0) errs.push('the step changes nothing');
  return errs;
}
