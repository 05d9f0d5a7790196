// The human technique ladder for Sudoku, on pencil-mark candidates (pure: no I/O, no clocks, no Math.random).
//
// The techniques, easiest first, as solvers' guides teach them:
//   naked-single    a cell with one candidate left takes it;
//   hidden-single   a digit with one place left in a row, column or box goes there;
//   pointing        a digit's places in a box all lie in one row (column): that row (column) has its digit in the
//                   box, so the digit leaves the rest of the row (column)      } together: locked candidates
//   claiming        a digit's places in a row (column) all lie in one box: the digit leaves the rest of the box   }
//   naked-pair      two cells of a unit whose candidates are the same two digits take them: the digits leave the
//                   unit's other cells (naked-triple: three cells, three digits between them);
//   hidden-pair     two digits whose places in a unit are the same two cells fill them: those cells lose their
//                   other candidates (hidden-triple: three digits, three cells);
//   x-wing          a digit's places in two rows lie in the same two columns: those columns have their digit in the
//                   two rows, so it leaves the columns' other cells (and with rows and columns swapped);
//   swordfish       the same with three rows and three columns;
//   xy-wing         a cell with candidates {x, y} sees a cell {x, z} and a cell {y, z}: whichever the first is, one of
//                   the other two is z, so z leaves every cell that sees both of them;
//   search          none applies: trial and error (or a technique beyond this ladder) is needed.
// Placing a digit removes it from its peers' candidates as bookkeeping, not as a step. Units are searched rows,
// then columns, then boxes, each from the first; cells in reading order; digits ascending. Every technique is sound:
// it removes a candidate only when no solution consistent with the current candidates has that digit there.
import { bit, digitsOf, geometry, lowestDigit, popcount, sees } from './candidates.ts';
import type { Geometry, Unit, UnitRef } from './candidates.ts';
import type { Grid } from './grid.ts';

export const TECHNIQUES = ['naked-single', 'hidden-single', 'pointing', 'claiming', 'naked-pair', 'hidden-pair', 'naked-triple', 'hidden-triple', 'x-wing', 'swordfish', 'xy-wing'] as const;
export type TechniqueId = (typeof TECHNIQUES)[number];

/** What people call each technique (for tables, dashboards and hint panels). */
export const TECHNIQUE_LABELS: Record<TechniqueId, string> = {
  'naked-single': 'Naked single',
  'hidden-single': 'Hidden single',
  pointing: 'Locked candidates (pointing)',
  claiming: 'Locked candidates (claiming)',
  'naked-pair': 'Naked pair',
  'hidden-pair': 'Hidden pair',
  'naked-triple': 'Naked triple',
  'hidden-triple': 'Hidden triple',
  'x-wing': 'X-wing',
  swordfish: 'Swordfish',
  'xy-wing': 'XY-wing',
};

export interface CellDigit {
  r: number;
  c: number;
  digit: number;
}

export interface CellRef {
  r: number;
  c: number;
}

/** One application of a technique: what it places or removes, and the pattern that justifies it. */
export interface Step {
  technique: TechniqueId;
  /** Singles: the digit placed. */
  placed: CellDigit | null;
  /** Everything else: the candidates removed (never empty for an elimination step). */
  eliminated: CellDigit[];
  /**
   * The units the reasoning is about. hidden-single, naked/hidden subsets: [the unit]; pointing: [box, row or column];
   * claiming: [row or column, box]; x-wing, swordfish: the base lines, then the cover lines; singles in a cell and
   * xy-wing: [].
   */
  units: UnitRef[];
  /** The pattern's cells: naked-single the cell; hidden-single the cell; pointing/claiming/fish the digit's places;
   * subsets the subset's cells; xy-wing pivot, then the two pincers. */
  cells: CellRef[];
  /** The pattern's digits: singles and line techniques [digit]; subsets the subset's digits; xy-wing [x, y, z]. */
  digits: number[];
}

/** A participant's or solver's position: digits placed and, for empty cells, the candidates still open. */
export interface HumanState {
  geo: Geometry;
  cells: Uint8Array;
  /** Candidates of empty cells (0 for filled cells). */
  cands: Uint32Array;
}

/** The state of a board: candidates from the digits alone, less any `eliminated` pencil marks. */
export function stateOf(grid: Grid, eliminated: readonly CellDigit[] = []): HumanState {
  const geo = geometry(grid);
  const cells = grid.cells.slice();
  const cands = new Uint32Array(geo.cellCount);
  for (let i = 0; i < geo.cellCount; i++) {
    if (cells[i] !== 0) continue;
    let used = 0;
    for (const j of geo.peers[i]) if (cells[j] !== 0) used |= bit(cells[j]);
    cands[i] = (geo.full & ~used) >>> 0;
  }
  for (const e of eliminated) {
    const i = e.r * geo.size + e.c;
    if (cells[i] === 0) cands[i] = (cands[i] & ~bit(e.digit)) >>> 0;
  }
  return { geo, cells, cands };
}

export function cloneState(s: HumanState): HumanState {
  return { geo: s.geo, cells: s.cells.slice(), cands: s.cands.slice() };
}

const ref = (g: Geometry, i: number): CellRef => ({ r: Math.floor(i / g.size), c: i % g.size });
const cd = (g: Geometry, i: number, digit: number): CellDigit => ({ r: Math.floor(i / g.size), c: i % g.size, digit });
const uref = (u: Unit): UnitRef => ({ kind: u.kind, index: u.index });

/** Digits placed in a unit. */
function placedIn(s: HumanState, u: Unit): number {
  let m = 0;
  for (const i of u.cells) if (s.cells[i] !== 0) m |= bit(s.cells[i]);
  return m >>> 0;
}

/** The empty cells of a unit holding `digit` as a candidate. */
function placesOf(s: HumanState, u: Unit, digit: number): number[] {
  const b = bit(digit);
  return u.cells.filter((i) => s.cells[i] === 0 && (s.cands[i] & b) !== 0);
}

/**
 * What makes the state impossible, if anything: a digit twice in a unit, an empty cell with no candidate, or a
 * digit not yet placed in a unit with no place left there.
 */
export type Contradiction =
  | { kind: 'duplicate'; unit: UnitRef; digit: number; cells: [CellRef, CellRef] }
  | { kind: 'no-candidate'; cell: CellRef }
  | { kind: 'no-place'; unit: UnitRef; digit: number };

export function contradiction(s: HumanState): Contradiction | null {
  const g = s.geo;
  // Duplicates first (any unit), then an empty cell without candidates, then a digit without a place.
  for (const u of g.units) {
    let placed = 0;
    for (const i of u.cells) {
      const v = s.cells[i];
      if (v === 0) continue;
      if (placed & bit(v)) {
        const j = u.cells.find((x) => s.cells[x] === v)!;
        return { kind: 'duplicate', unit: uref(u), digit: v, cells: [ref(g, j), ref(g, i)] };
      }
      placed |= bit(v);
    }
  }
  for (let i = 0; i < g.cellCount; i++) if (s.cells[i] === 0 && s.cands[i] === 0) return { kind: 'no-candidate', cell: ref(g, i) };
  for (const u of g.units) {
    let placed = 0, open = 0;
    for (const i of u.cells) {
      if (s.cells[i] !== 0) placed |= bit(s.cells[i]);
      else open |= s.cands[i];
    }
    const missing = (g.full & ~placed & ~open) >>> 0;
    if (missing) return { kind: 'no-place', unit: uref(u), digit: lowestDigit(missing) };
  }
  return null;
}

export function isSolved(s: HumanState): boolean {
  return s.cells.every((v) => v !== 0) && contradiction(s) === null;
}

/** Place or eliminate as the step says (placing also clears the digit from the peers' candidates). */
export function applyStep(s: HumanState, step: Step): void {
  const g = s.geo;
  if (step.placed) {
    const i = step.placed.r * g.size + step.placed.c;
    const b = bit(step.placed.digit);
    s.cells[i] = step.placed.digit;
    s.cands[i] = 0;
    for (const j of g.peers[i]) s.cands[j] = (s.cands[j] & ~b) >>> 0;
  }
  for (const e of step.eliminated) {
    const i = e.r * g.size + e.c;
    s.cands[i] = (s.cands[i] & ~bit(e.digit)) >>> 0;
  }
}

function* combinations<T>(items: T[], k: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let i = start; i <= items.length - (k - prefix.length); i++) yield* combinations(items, k, i + 1, [...prefix, items[i]]);
}

function nakedSingle(s: HumanState): Step | null {
  const g = s.geo;
  for (let i = 0; i < g.cellCount; i++) {
    const m = s.cands[i];
    if (s.cells[i] === 0 && m !== 0 && (m & (m - 1)) === 0) {
      const v = lowestDigit(m);
      return { technique: 'naked-single', placed: cd(g, i, v), eliminated: [], units: [], cells: [ref(g, i)], digits: [v] };
    }
  }
  return null;
}

function hiddenSingle(s: HumanState): Step | null {
  const g = s.geo;
  for (const u of g.units) {
    // Digits seen once and more than once among the unit's open cells.
    let once = 0, twice = 0, placed = 0;
    for (const i of u.cells) {
      if (s.cells[i] !== 0) {
        placed |= bit(s.cells[i]);
        continue;
      }
      const m = s.cands[i];
      twice |= once & m;
      once |= m;
    }
    const lone = (once & ~twice & ~placed) >>> 0;
    if (!lone) continue;
    const v = lowestDigit(lone);
    const at = u.cells.find((i) => s.cells[i] === 0 && (s.cands[i] & bit(v)) !== 0)!;
    return { technique: 'hidden-single', placed: cd(g, at, v), eliminated: [], units: [uref(u)], cells: [ref(g, at)], digits: [v] };
  }
  return null;
}

/** Locked candidates: a digit confined to `inner`'s intersection with one unit of `others` leaves the rest of that unit. */
function locked(s: HumanState, technique: 'pointing' | 'claiming'): Step | null {
  const g = s.geo;
  const inners = technique === 'pointing' ? g.boxes : [...g.rows, ...g.cols];
  for (const inner of inners) {
    const placed = placedIn(s, inner);
    for (let v = 1; v <= g.size; v++) {
      if (placed & bit(v)) continue;
      const at = placesOf(s, inner, v);
      if (at.length < 2) continue;
      const outers: Unit[] =
        technique === 'pointing' ? [g.unitsOf[at[0]][0], g.unitsOf[at[0]][1]] : [g.unitsOf[at[0]][2]];
      for (const outer of outers) {
        if (!at.every((i) => outer.cells.includes(i))) continue;
        const gone = outer.cells.filter((i) => !inner.cells.includes(i) && s.cells[i] === 0 && (s.cands[i] & bit(v)) !== 0);
        if (gone.length)
          return { technique, placed: null, eliminated: gone.map((i) => cd(g, i, v)), units: [uref(inner), uref(outer)], cells: at.map((i) => ref(g, i)), digits: [v] };
      }
    }
  }
  return null;
}

function nakedSubset(s: HumanState, k: number): Step | null {
  const g = s.geo;
  const technique: TechniqueId = k === 2 ? 'naked-pair' : 'naked-triple';
  for (const u of g.units) {
    const open = u.cells.filter((i) => s.cells[i] === 0 && popcount(s.cands[i]) >= 2 && popcount(s.cands[i]) <= k);
    for (const set of combinations(open, k)) {
      let union = 0;
      for (const i of set) union |= s.cands[i];
      if (popcount(union) !== k) continue;
      const eliminated: CellDigit[] = [];
      for (const i of u.cells) {
        if (s.cells[i] !== 0 || set.includes(i)) continue;
        for (const v of digitsOf(s.cands[i] & union)) eliminated.push(cd(g, i, v));
      }
      if (eliminated.length) return { technique, placed: null, eliminated, units: [uref(u)], cells: set.map((i) => ref(g, i)), digits: digitsOf(union) };
    }
  }
  return null;
}

function hiddenSubset(s: HumanState, k: number): Step | null {
  const g = s.geo;
  const technique: TechniqueId = k === 2 ? 'hidden-pair' : 'hidden-triple';
  for (const u of g.units) {
    const placed = placedIn(s, u);
    const digits: number[] = [];
    const where = new Map<number, number[]>();
    for (let v = 1; v <= g.size; v++) {
      if (placed & bit(v)) continue;
      const at = placesOf(s, u, v);
      if (at.length >= 2 && at.length <= k) {
        digits.push(v);
        where.set(v, at);
      }
    }
    for (const set of combinations(digits, k)) {
      const cells = [...new Set(set.flatMap((v) => where.get(v)!))].sort((a, b) => a - b);
      if (cells.length !== k) continue;
      const keep = set.reduce((m, v) => m | bit(v), 0);
      const eliminated: CellDigit[] = [];
      for (const i of cells) for (const v of digitsOf(s.cands[i] & ~keep)) eliminated.push(cd(g, i, v));
      if (eliminated.length) return { technique, placed: null, eliminated, units: [uref(u)], cells: cells.map((i) => ref(g, i)), digits: set };
    }
  }
  return null;
}

function fish(s: HumanState, k: number): Step | null {
  const g = s.geo;
  const technique: TechniqueId = k === 2 ? 'x-wing' : 'swordfish';
  for (let v = 1; v <= g.size; v++) {
    for (const [bases, covers] of [[g.rows, g.cols], [g.cols, g.rows]] as const) {
      const lines: { unit: Unit; at: number[]; mask: number }[] = [];
      for (const u of bases) {
        if (placedIn(s, u) & bit(v)) continue;
        const at = placesOf(s, u, v);
        if (at.length < 2 || at.length > k) continue;
        // The cross position of each place: its column for a row, its row for a column.
        let mask = 0;
        for (const i of at) mask |= 1 << (u.kind === 'row' ? i % g.size : Math.floor(i / g.size));
        lines.push({ unit: u, at, mask });
      }
      for (const set of combinations(lines, k)) {
        let union = 0;
        for (const l of set) union |= l.mask;
        if (popcount(union >>> 0) !== k) continue;
        const coverUnits = covers.filter((c) => union & (1 << c.index));
        const baseCells = new Set(set.flatMap((l) => l.unit.cells));
        const eliminated: CellDigit[] = [];
        const gone = new Set<number>();
        for (const c of coverUnits) for (const i of c.cells) if (!baseCells.has(i) && s.cells[i] === 0 && (s.cands[i] & bit(v)) !== 0) gone.add(i);
        for (const i of [...gone].sort((a, b) => a - b)) eliminated.push(cd(g, i, v));
        if (eliminated.length) {
          const places = set.flatMap((l) => l.at).sort((a, b) => a - b);
          return { technique, placed: null, eliminated, units: [...set.map((l) => uref(l.unit)), ...coverUnits.map(uref)], cells: places.map((i) => ref(g, i)), digits: [v] };
        }
      }
    }
  }
  return null;
}

function xyWing(s: HumanState): Step | null {
  const g = s.geo;
  const pairs: number[] = [];
  for (let i = 0; i < g.cellCount; i++) if (s.cells[i] === 0 && popcount(s.cands[i]) === 2) pairs.push(i);
  for (const p of pairs) {
    const [x, y] = digitsOf(s.cands[p]);
    const wings = pairs.filter((q) => q !== p && sees(g, p, q));
    for (const a of wings) {
      const ma = s.cands[a];
      // Pincer a holds x and some z other than y.
      if (!(ma & bit(x)) || ma & bit(y)) continue;
      const z = lowestDigit((ma & ~bit(x)) >>> 0);
      for (const b of wings) {
        if (b === a || s.cands[b] !== ((bit(y) | bit(z)) >>> 0)) continue;
        const gone: number[] = [];
        for (let i = 0; i < g.cellCount; i++) {
          if (i === a || i === b || i === p || s.cells[i] !== 0 || !(s.cands[i] & bit(z))) continue;
          if (sees(g, i, a) && sees(g, i, b)) gone.push(i);
        }
        if (gone.length) return { technique: 'xy-wing', placed: null, eliminated: gone.map((i) => cd(g, i, z)), units: [], cells: [ref(g, p), ref(g, a), ref(g, b)], digits: [x, y, z] };
      }
    }
  }
  return null;
}

/** The first application of one technique on the state, or null when it does not apply (or would change nothing). */
export function findStep(s: HumanState, technique: TechniqueId): Step | null {
  switch (technique) {
    case 'naked-single':
      return nakedSingle(s);
    case 'hidden-single':
      return hiddenSingle(s);
    case 'pointing':
    case 'claiming':
      return locked(s, technique);
    case 'naked-pair':
      return nakedSubset(s, 2);
    case 'naked-triple':
      return nakedSubset(s, 3);
    case 'hidden-pair':
      return hiddenSubset(s, 2);
    case 'hidden-triple':
      return hiddenSubset(s, 3);
    case 'x-wing':
      return fish(s, 2);
    case 'swordfish':
      return fish(s, 3);
    case 'xy-wing':
      return xyWing(s);
  }
}

/** The easiest technique that applies, or null (solved, stuck, or contradictory: the caller tells which). */
export function easiestStep(s: HumanState): Step | null {
  for (const t of TECHNIQUES) {
    const step = findStep(s, t);
    if (step) return step;
  }
  return null;
}

export interface HumanGrade {
  /** The board was completed by the ladder. */
  solved: boolean;
  /** The board (as given, or as the ladder left it) breaks the rules or has a cell or digit with no option left. */
  contradiction: boolean;
  /** How many steps each technique took. */
  counts: Record<TechniqueId, number>;
  /** The hardest technique needed (ladder order), 'search' when the ladder stalls, null when nothing was needed. */
  hardest: TechniqueId | 'search' | null;
  /** Technique applications in all. */
  steps: number;
  /** The board as the ladder left it (the solution when solved). */
  cells: Uint8Array;
}

/**
 * Solve like a person: apply the easiest applicable technique, then start again from the easiest, until the board is
 * full or nothing applies. `maxSteps` bounds the work (every step removes at least one candidate, so it always ends).
 */
export function gradeHuman(grid: Grid, maxSteps = Infinity): HumanGrade {
  const s = stateOf(grid);
  const counts = Object.fromEntries(TECHNIQUES.map((t) => [t, 0])) as Record<TechniqueId, number>;
  let hardest = -1;
  let steps = 0;
  const done = (solved: boolean, contra: boolean): HumanGrade => ({
    solved,
    contradiction: contra,
    counts,
    hardest: solved ? (hardest < 0 ? null : TECHNIQUES[hardest]) : 'search',
    steps,
    cells: s.cells.slice(),
  });
  for (;;) {
    if (contradiction(s)) return done(false, true);
    if (s.cells.every((v) => v !== 0)) return done(true, false);
    if (steps >= maxSteps) return done(false, false);
    const step = easiestStep(s);
    if (!step) return done(false, false);
    applyStep(s, step);
    counts[step.technique]++;
    hardest = Math.max(hardest, TECHNIQUES.indexOf(step.technique));
    steps++;
  }
}
