// Sudoku hints that teach: the next deduction from what the participant has right, and why (pure: no I/O, no clocks).
//
// Order of business, as for Nonograms (shared/nonogram/hint.ts). (1) A wrong digit on the board is pointed at first,
// in reading order: reasoning from a wrong board teaches nothing. With the solution known, a digit is wrong when it
// differs from the solution's; without it, only a rule broken on the board shows a mistake. (2) Otherwise the
// board is a correct partial solution, and the hint is the easiest technique of the human ladder (techniques.ts)
// that applies to its candidates: a single names the cell and digit it yields; the other techniques only remove
// candidates, and the hint names the removals (pencil marks the participant can make; pass them back as
// `eliminated` so the next hint builds on them). (3) When nothing on the ladder applies, the cell with the fewest
// candidates is revealed (with the solution), or the hint says the board needs trial and error (without).
//
// Why a wrong digit cannot stand, said only as far as it is true. First a direct conflict: the same digit already in
// its row, column or box (preferring a digit that is right, so the conflict shows it is this one that must change).
// Failing that, a contradiction: with the participant's other right digits, the wrong digit forces further digits by
// singles until some cell has no digit left or some digit has no place left in a unit; the hint names that cell or
// unit (pencil marks play no part in it). Failing that too, the hint says that singles from it reach no
// contradiction yet and that the solution has another digit there.
//
// Rows, columns and boxes are counted from 1 in the words (boxes in reading order) and from 0 in the data.
import type { HintPolicy } from '../schema/config.ts';
import { bit, conflicts, digitsOf, geometry, peerDigits, popcount } from './candidates.ts';
import type { UnitRef } from './candidates.ts';
import { digitSymbol } from './grid.ts';
import type { Grid, Shape } from './grid.ts';
import { applyStep, contradiction, easiestStep, findStep, stateOf } from './techniques.ts';
import type { CellDigit, CellRef, Contradiction, HumanState, Step, TechniqueId } from './techniques.ts';

export type SudokuHintReasoning = TechniqueId | 'conflict' | 'contradiction' | 'solution' | 'reveal' | 'stuck';

export interface SudokuHint {
  /** error: a wrong digit (or a broken rule); cell: a digit to place; eliminate: candidates to remove; stuck: nothing applies. */
  kind: 'error' | 'cell' | 'eliminate' | 'stuck';
  reasoning: SudokuHintReasoning;
  /** The technique of a cell or eliminate hint; null otherwise. */
  technique: TechniqueId | null;
  /** The cell the hint is about: the wrong digit's, the placed digit's, the first removal's, or the first empty cell. */
  row: number;
  col: number;
  /** cell: the digit to place; error: the right digit there when the solution is known; else null. */
  digit: number | null;
  placed: CellDigit | null;
  eliminated: CellDigit[];
  /** error: the wrong digit on the board (null when, without a solution, only a broken rule is known). */
  wrong: CellDigit | null;
  /** error by conflict: the other cell holding the same digit in `unit`. */
  conflictWith: CellRef | null;
  /** error by contradiction: what the wrong digit leads to (or what is already broken on the board). */
  contradiction: Contradiction | null;
  /** The unit the reasoning names first (null for reasoning about one cell). */
  unit: UnitRef | null;
  /** Every unit the reasoning uses (technique steps: see Step.units). */
  units: UnitRef[];
  /** Cells to highlight: the pattern's cells, or the wrong cell and its partner. */
  cells: CellRef[];
  /** The pattern's digits. */
  digits: number[];
  heading: string;
  explanation: string;
}

export interface SudokuHintOptions {
  /** Candidates the participant has already ruled out (pencil marks). With a solution, marks removing the right digit are ignored. */
  eliminated?: readonly CellDigit[];
  policy?: HintPolicy;
}

// ---- words -------------------------------------------------------------------------------------------------------

const sym = digitSymbol;
export const cellName = (r: number, c: number) => `row ${r + 1}, column ${c + 1}`;
const cellOf = (p: CellRef) => cellName(p.r, p.c);

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const digitList = (ds: number[]) => list(ds.map(sym));

/** "row 3", "column 5", "box 4 (rows 4–6, columns 1–3)" ("box 4" when `short`). */
export function unitName(shape: Shape, u: UnitRef, short = false): string {
  if (u.kind === 'row') return `row ${u.index + 1}`;
  if (u.kind === 'col') return `column ${u.index + 1}`;
  if (short) return `box ${u.index + 1}`;
  const across = shape.size / shape.boxCols;
  const r0 = Math.floor(u.index / across) * shape.boxRows, c0 = (u.index % across) * shape.boxCols;
  return `box ${u.index + 1} (rows ${r0 + 1}–${r0 + shape.boxRows}, columns ${c0 + 1}–${c0 + shape.boxCols})`;
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Cells of one unit said briefly: "columns 2 and 5" in a row, "rows 1 and 4" in a column, full names in a box. */
function cellsIn(u: UnitRef | null, cells: CellRef[]): string {
  if (u?.kind === 'row') return `${cells.length === 1 ? 'column' : 'columns'} ${list(cells.map((p) => String(p.c + 1)))}`;
  if (u?.kind === 'col') return `${cells.length === 1 ? 'row' : 'rows'} ${list(cells.map((p) => String(p.r + 1)))}`;
  return list(cells.map(cellOf));
}

/** Removals grouped by cell: "3 and 8 from row 5, column 1; 8 from row 5, column 4". */
function removals(es: CellDigit[]): string {
  const by = new Map<string, { p: CellRef; ds: number[] }>();
  for (const e of es) {
    const k = `${e.r},${e.c}`;
    if (!by.has(k)) by.set(k, { p: e, ds: [] });
    by.get(k)!.ds.push(e.digit);
  }
  const groups = [...by.values()];
  // One digit from every cell: "5 from A, B and C".
  const digits = new Set(es.map((e) => e.digit));
  if (digits.size === 1) return `${sym(es[0].digit)} from ${list(groups.map((g) => cellOf(g.p)))}`;
  return groups.map((g) => `${digitList(g.ds)} from ${cellOf(g.p)}`).join('; ');
}

const lineWord = (kind: 'row' | 'col' | 'box', many: boolean) => (kind === 'row' ? (many ? 'rows' : 'row') : kind === 'col' ? (many ? 'columns' : 'column') : many ? 'boxes' : 'box');
const linesName = (us: UnitRef[]) => `${lineWord(us[0].kind, us.length > 1)} ${list(us.map((u) => String(u.index + 1)))}`;

/** The explanation of a technique step on the state it was found on. */
export function explainStep(s: HumanState, step: Step): string {
  const shape = s.geo.shape;
  const n = s.geo.size;
  const U = (k: number, short = false) => unitName(shape, step.units[k], short);
  const d = step.digits[0];
  switch (step.technique) {
    case 'naked-single': {
      const p = step.placed!;
      const i = p.r * n + p.c;
      const used = peerDigits({ ...shape, cells: s.cells }, i);
      const others = (s.geo.full & ~bit(p.digit)) >>> 0;
      const ruled = (others & ~used) >>> 0;
      if (ruled === 0) return `The cell at ${cellName(p.r, p.c)} can only be ${sym(p.digit)}: its row, column and box already hold ${digitList(digitsOf(others))}.`;
      const held = digitsOf(used & others);
      return `The cell at ${cellName(p.r, p.c)} can only be ${sym(p.digit)}: ${held.length ? `its row, column and box already hold ${digitList(held)}, and ` : ''}${digitList(digitsOf(ruled))} ${popcount(ruled) === 1 ? 'has' : 'have'} been ruled out there, so ${sym(p.digit)} is the only digit left.`;
    }
    case 'hidden-single': {
      const p = step.placed!;
      const u = s.geo.units.find((x) => x.kind === step.units[0].kind && x.index === step.units[0].index)!;
      const target = p.r * n + p.c;
      const others = u.cells.filter((i) => i !== target && s.cells[i] === 0);
      const blockers: number[] = [];
      const ruled: number[] = [];
      for (const o of others) {
        if (blockers.some((b) => s.geo.peers[o].includes(b))) continue;
        const b = s.geo.peers[o].find((j) => s.cells[j] === p.digit);
        if (b === undefined) ruled.push(o);
        else blockers.push(b);
      }
      const at = (i: number) => cellName(Math.floor(i / n), i % n);
      const tail = `so the cell at ${cellName(p.r, p.c)} is ${sym(p.digit)}.`;
      if (others.length === 0) return `${sym(p.digit)} is the only digit missing from ${U(0)}, and the cell at ${cellName(p.r, p.c)} is its only empty cell, so it is ${sym(p.digit)}.`;
      const parts: string[] = [];
      const many = blockers.length > 1;
      if (blockers.length)
        parts.push(
          ruled.length
            ? `the ${sym(p.digit)}${many ? 's' : ''} at ${list(blockers.map(at))} rule${many ? '' : 's'} it out of the empty cells there in ${many ? 'their' : 'its'} row, column or box`
            : `the ${sym(p.digit)}${many ? 's' : ''} at ${list(blockers.map(at))} rule${many ? '' : 's'} it out of the other empty cells there`,
        );
      if (ruled.length) parts.push(`${sym(p.digit)} has been ruled out at ${list(ruled.map(at))}`);
      return `${sym(p.digit)} can go nowhere else in ${U(0)}: ${parts.join(', and ')}, ${tail}`;
    }
    case 'pointing':
    case 'claiming':
      return `In ${U(0)}, ${sym(d)} can only go in ${U(1)} (at ${cellsIn(step.units[0], step.cells)}). So the ${sym(d)} of ${U(1, true)} is one of those cells, and ${sym(d)} can go nowhere else in ${U(1, true)}: remove ${removals(step.eliminated)}.`;
    case 'naked-pair':
    case 'naked-triple': {
      const k = step.cells.length;
      return `In ${U(0)}, the ${k === 2 ? 'two' : 'three'} cells at ${cellsIn(step.units[0], step.cells)} can only hold ${digitList(step.digits)} between them, so they take those ${k === 2 ? 'two' : 'three'} digits and no other cell of ${U(0)} can: remove ${removals(step.eliminated)}.`;
    }
    case 'hidden-pair':
    case 'hidden-triple': {
      const k = step.cells.length;
      return `In ${U(0)}, ${digitList(step.digits)} can only go in the ${k === 2 ? 'two' : 'three'} cells at ${cellsIn(step.units[0], step.cells)}, so those cells hold ${digitList(step.digits)} and nothing else: remove ${removals(step.eliminated)}.`;
    }
    case 'x-wing':
    case 'swordfish': {
      const k = step.technique === 'x-wing' ? 2 : 3;
      const bases = step.units.slice(0, k), covers = step.units.slice(k);
      return `In ${linesName(bases)}, ${sym(d)} can only go in ${linesName(covers)}. Each of those ${lineWord(bases[0].kind, true)} needs a ${sym(d)}, each in a different one of these ${lineWord(covers[0].kind, true)}, so they take the ${sym(d)} of ${k === 2 ? 'both' : 'all three'} ${lineWord(covers[0].kind, true)}: remove ${removals(step.eliminated)}.`;
    }
    case 'xy-wing': {
      const [p, a, b] = step.cells;
      const [x, y, z] = step.digits.map(sym);
      return `The cell at ${cellOf(p)} can only be ${x} or ${y}. If it is ${x}, the cell at ${cellOf(a)} (only ${x} or ${z}) is ${z}; if it is ${y}, the cell at ${cellOf(b)} (only ${y} or ${z}) is ${z}. Either way one of those two cells is ${z}, so no cell that sees both of them can be ${z}: remove ${removals(step.eliminated)}.`;
    }
  }
}

function contradictionText(shape: Shape, c: Contradiction): string {
  switch (c.kind) {
    case 'no-candidate':
      return `the cell at ${cellOf(c.cell)} would have no digit left`;
    case 'no-place':
      return `${sym(c.digit)} would have no place left in ${unitName(shape, c.unit)}`;
    case 'duplicate':
      // Not reached by the hints: a board with a digit twice is named as a conflict first, and singles never repeat a digit.
      return `${unitName(shape, c.unit)} would hold two ${sym(c.digit)}s`;
  }
}

// ---- the hint ----------------------------------------------------------------------------------------------------

function blank(kind: SudokuHint['kind'], reasoning: SudokuHintReasoning, r: number, c: number): SudokuHint {
  return { kind, reasoning, technique: null, row: r, col: c, digit: null, placed: null, eliminated: [], wrong: null, conflictWith: null, contradiction: null, unit: null, units: [], cells: [], digits: [], heading: '', explanation: '' };
}

function headingOf(shape: Shape, h: SudokuHint): string {
  const fish = h.technique === 'x-wing' || h.technique === 'swordfish';
  const spot = h.cells[0] ?? { r: h.row, c: h.col };
  const where = fish ? capital(linesName(h.units.slice(0, h.units.length / 2))) : h.unit ? capital(unitName(shape, h.unit)) : capital(cellOf(spot));
  if (h.kind !== 'error') return `Hint · ${where}`;
  return `Hint · Mistake at ${cellName(h.row, h.col)}${h.unit ? ` · reason in ${unitName(shape, h.unit)}` : ''}`;
}

function fromStep(s: HumanState, step: Step): SudokuHint {
  const first = step.placed ?? step.eliminated[0];
  const h = blank(step.placed ? 'cell' : 'eliminate', step.technique, first.r, first.c);
  h.technique = step.technique;
  h.digit = step.placed ? step.placed.digit : null;
  h.placed = step.placed;
  h.eliminated = step.eliminated;
  h.unit = step.units[0] ?? null;
  h.units = step.units;
  h.cells = step.cells;
  h.digits = step.digits;
  h.explanation = explainStep(s, step);
  return h;
}

/** Singles from the state until a contradiction shows (and how many digits were placed first), or null when none does. */
function singlesLeadTo(s: HumanState): { found: Contradiction; placed: number } | null {
  for (let placed = 0; placed <= s.geo.cellCount; placed++) {
    const found = contradiction(s);
    if (found) return { found, placed };
    const step = findStep(s, 'naked-single') ?? findStep(s, 'hidden-single');
    if (!step) return null;
    applyStep(s, step);
  }
  return null;
}

/** Why the wrong digit at cell `i` cannot stand (see the essay at the top). */
function wrongDigitHint(grid: Grid, solution: Grid, i: number, wrongCells: Set<number>): SudokuHint {
  const g = geometry(grid);
  const n = g.size;
  const r = Math.floor(i / n), c = i % n;
  const d = grid.cells[i], t = solution.cells[i];
  const h = blank('error', 'conflict', r, c);
  h.digit = t;
  h.wrong = { r, c, digit: d };
  h.cells = [{ r, c }];
  const here = `the ${sym(d)} at ${cellName(r, c)}`;
  const fix = ` It should be ${sym(t)}.`;
  // A direct conflict: the same digit elsewhere in one of its units, a right one first.
  let partner: { j: number; u: UnitRef } | null = null;
  for (const right of [true, false]) {
    for (const u of g.unitsOf[i]) {
      const j = u.cells.find((x) => x !== i && grid.cells[x] === d && wrongCells.has(x) !== right);
      if (j !== undefined) {
        partner = { j, u: { kind: u.kind, index: u.index } };
        break;
      }
    }
    if (partner) break;
  }
  if (partner) {
    const p = { r: Math.floor(partner.j / n), c: partner.j % n };
    h.conflictWith = p;
    h.unit = partner.u;
    h.units = [partner.u];
    h.cells.push(p);
    h.digits = [d];
    const uname = unitName(g.shape, partner.u);
    h.explanation = wrongCells.has(partner.j)
      ? `${capital(here)} and the ${sym(d)} at ${cellOf(p)} are both in ${uname}, and a digit can appear only once in each row, column and box, so they cannot both stand; ${here} is the one that is wrong.${fix}`
      : `${capital(here)} cannot stand: ${uname} already has a ${sym(d)}, at ${cellOf(p)}, and a digit can appear only once in each row, column and box.${fix}`;
    return h;
  }
  // A contradiction by singles from the right digits plus this one.
  const trusted = grid.cells.map((v, x) => (wrongCells.has(x) && x !== i ? 0 : v));
  // Digits only: pencil marks are the participant's, not facts the explanation may lean on.
  const led = singlesLeadTo(stateOf({ ...grid, cells: trusted }));
  if (led) {
    const found = led.found;
    h.reasoning = 'contradiction';
    h.contradiction = found;
    if (found.kind !== 'no-candidate') {
      h.unit = found.unit;
      h.units = [found.unit];
    } else h.cells.push(found.cell);
    h.explanation =
      led.placed === 0
        ? `If ${here} stood, ${contradictionText(g.shape, found)}, so it cannot stand.${fix}`
        : `If ${here} stood, it would force ${led.placed === 1 ? 'another digit' : `${led.placed} more digits`} (each the only digit left for its cell, or the only place left for a digit in a row, column or box), and then ${contradictionText(g.shape, found)}. So it cannot stand.${fix}`;
    return h;
  }
  h.reasoning = 'solution';
  h.explanation = `Placing the digits that ${here} forces reaches no contradiction yet, but the puzzle's solution has ${sym(t)} at ${cellName(r, c)}, not ${sym(d)}.`;
  return h;
}

/**
 * The hint for a participant's board (0 = empty), or null when the board is complete and right (or the policy is
 * 'off'). With `solution` (the puzzle's unique solution) wrong digits are found and named, and a stalled board gets a
 * cell revealed; without it, hints are true of the board as it stands.
 */
export function sudokuHint(grid: Grid, solution?: Grid | null, options: SudokuHintOptions = {}): SudokuHint | null {
  const policy = options.policy ?? 'explain-and-reveal';
  if (policy === 'off') return null;
  const g = geometry(grid);
  const n = g.size;
  if (solution && (solution.size !== n || solution.boxRows !== grid.boxRows || solution.cells.some((v) => v === 0)))
    throw new Error(`sudokuHint: the solution must be a full ${n}x${n} board with ${grid.boxRows}x${grid.boxCols} boxes`);
  const finish = (h: SudokuHint) => ({ ...h, heading: headingOf(g.shape, h) });
  const eliminated = solution ? (options.eliminated ?? []).filter((e) => solution.cells[e.r * n + e.c] !== e.digit) : (options.eliminated ?? []);

  if (solution) {
    const wrongCells = new Set<number>();
    grid.cells.forEach((v, i) => v !== 0 && v !== solution.cells[i] && wrongCells.add(i));
    if (wrongCells.size) {
      const i = Math.min(...wrongCells);
      const h = wrongDigitHint(grid, solution, i, wrongCells);
      if (policy === 'reveal-only') h.explanation = `The ${sym(grid.cells[i])} at ${cellName(h.row, h.col)} is wrong: it should be ${sym(solution.cells[i])}.`;
      return finish(h);
    }
    if (grid.cells.every((v) => v !== 0)) return null;
  } else {
    const clash = conflicts(grid)[0];
    const s0 = stateOf(grid, eliminated);
    const broken = clash ? null : contradiction(s0);
    if (clash) {
      const a = { r: Math.floor(clash.a / n), c: clash.a % n }, b = { r: Math.floor(clash.b / n), c: clash.b % n };
      const h = blank('error', 'conflict', a.r, a.c);
      h.conflictWith = b;
      h.unit = clash.unit;
      h.units = [clash.unit];
      h.cells = [a, b];
      h.digits = [clash.digit];
      h.explanation = `The ${sym(clash.digit)}s at ${cellOf(a)} and ${cellOf(b)} are both in ${unitName(g.shape, clash.unit)}, and a digit can appear only once in each row, column and box, so one of them must change.`;
      return finish(h);
    }
    if (broken) {
      const first = broken.kind === 'no-place' ? g.units.find((u) => u.kind === broken.unit.kind && u.index === broken.unit.index)!.cells[0] : 0;
      const at = broken.kind === 'no-candidate' ? broken.cell : broken.kind === 'duplicate' ? broken.cells[0] : { r: Math.floor(first / n), c: first % n };
      const h = blank('error', 'contradiction', at.r, at.c);
      h.contradiction = broken;
      if (broken.kind === 'no-place') {
        h.unit = broken.unit;
        h.units = [broken.unit];
      } else h.cells = [at];
      h.explanation =
        broken.kind === 'no-candidate'
          ? `The cell at ${cellOf(broken.cell)} has no digit left: ${eliminated.length ? 'every digit is already in its row, column or box, or has been ruled out there' : 'its row, column and box already hold every digit'}, so some digit on the board is wrong.`
          : `${sym(broken.digit)} has no place left in ${unitName(g.shape, broken.unit)}: every empty cell there sees a ${sym(broken.digit)}${eliminated.length ? ' or has it ruled out' : ''}, so some digit on the board is wrong.`;
      return finish(h);
    }
    if (grid.cells.every((v) => v !== 0)) return null;
  }

  const s = stateOf(grid, eliminated);
  const step = easiestStep(s);
  if (policy === 'reveal-only') {
    const i = step?.placed ? step.placed.r * n + step.placed.c : fewestCandidates(s);
    const r = Math.floor(i / n), c = i % n;
    const v = step?.placed ? step.placed.digit : solution ? solution.cells[i] : 0;
    if (v) {
      const h = blank('cell', 'reveal', r, c);
      h.digit = v;
      h.placed = { r, c, digit: v };
      h.cells = [{ r, c }];
      h.explanation = `The cell at ${cellName(r, c)} is ${sym(v)}.`;
      return finish(h);
    }
  } else if (step) return finish(fromStep(s, step));

  const i = fewestCandidates(s);
  const r = Math.floor(i / n), c = i % n;
  if (solution) {
    const h = blank('cell', 'reveal', r, c);
    h.digit = solution.cells[i];
    h.placed = { r, c, digit: solution.cells[i] };
    h.cells = [{ r, c }];
    h.explanation = `No technique up to XY-wing applies on this board; the cell at ${cellName(r, c)} is revealed: it is ${sym(solution.cells[i])}.`;
    return finish(h);
  }
  const h = blank('stuck', 'stuck', r, c);
  h.cells = [{ r, c }];
  h.explanation = `No technique up to XY-wing applies on this board: it needs trial and error from here (the cell at ${cellName(r, c)} has the fewest candidates, ${digitList(digitsOf(s.cands[i]))}).`;
  return finish(h);
}

/** The empty cell with the fewest candidates (reading order breaks ties). */
function fewestCandidates(s: HumanState): number {
  let best = -1;
  for (let i = 0; i < s.cells.length; i++) if (s.cells[i] === 0 && (best < 0 || popcount(s.cands[i]) < popcount(s.cands[best]))) best = i;
  return best;
}
