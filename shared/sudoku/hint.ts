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
import { ENGLISH_HINT_WORDS, listOf, phrase, renderPhrase, renderSentences } from '../i18n/hints/phrase.ts';
import type { HintWords, Phrase, PhraseArg } from '../i18n/hints/phrase.ts';

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
  /** Where to look, in English ("Hint · Row 3"); `headingPhrase` renders it in any language. */
  heading: string;
  /** The explanation in English; `text` renders it in any language. */
  explanation: string;
  headingPhrase: Phrase;
  /** The explanation as data: its sentences, each a message of the hint catalogue (shared/i18n/hints/en.ts) with its arguments. */
  text: Phrase[];
}

/** A Sudoku hint's explanation in the words of a language (English: exactly `hint.explanation`). */
export const sudokuHintExplanation = (h: Pick<SudokuHint, 'text'>, words: HintWords = ENGLISH_HINT_WORDS): string => renderSentences(h.text, words);
/** A Sudoku hint's heading in the words of a language. */
export const sudokuHintHeading = (h: Pick<SudokuHint, 'headingPhrase'>, words: HintWords = ENGLISH_HINT_WORDS): string => renderPhrase(h.headingPhrase, words);

export interface SudokuHintOptions {
  /** Candidates the participant has already ruled out (pencil marks). With a solution, marks removing the right digit are ignored. */
  eliminated?: readonly CellDigit[];
  policy?: HintPolicy;
}

// ---- words -------------------------------------------------------------------------------------------------------
// Each sentence is a message of the hint catalogue (shared/i18n/hints/en.ts, 'hint.sudoku.*'), its arguments phrases
// and lists of it, so the server renders a hint in the session's language; `explanation` and `heading` are English.

const sym = digitSymbol;
const cellP = (r: number, c: number): Phrase => phrase('hint.cell', { row: r + 1, col: c + 1 });
const cellOf = (p: CellRef) => cellP(p.r, p.c);
/** "row 3, column 5" (English). */
export const cellName = (r: number, c: number) => renderPhrase(cellP(r, c));

const digitList = (ds: number[]) => listOf(ds.map(sym));

/** "row 3", "column 5", "box 4 (rows 4–6, columns 1–3)" ("box 4" when `short`), as a phrase. */
function unitPhrase(shape: Shape, u: UnitRef, short = false, cap = false): Phrase {
  if (u.kind !== 'box') return phrase('hint.sudoku.unit', { kind: u.kind, n: u.index + 1 }, cap);
  if (short) return phrase('hint.sudoku.unitShort', { kind: u.kind, n: u.index + 1 }, cap);
  const across = shape.size / shape.boxCols;
  const r0 = Math.floor(u.index / across) * shape.boxRows, c0 = (u.index % across) * shape.boxCols;
  return phrase('hint.sudoku.unit', { kind: 'box', n: u.index + 1, r0: r0 + 1, r1: r0 + shape.boxRows, c0: c0 + 1, c1: c0 + shape.boxCols }, cap);
}

/** "row 3", "column 5", "box 4 (rows 4–6, columns 1–3)" ("box 4" when `short`), in English. */
export function unitName(shape: Shape, u: UnitRef, short = false): string {
  return renderPhrase(unitPhrase(shape, u, short));
}

/** Cells of one unit said briefly: "columns 2 and 5" in a row, "rows 1 and 4" in a column, full names in a box. */
function cellsIn(u: UnitRef | null, cells: CellRef[]): PhraseArg {
  if (u?.kind === 'row') return phrase('hint.sudoku.cellsInRow', { count: cells.length, list: listOf(cells.map((p) => String(p.c + 1))) });
  if (u?.kind === 'col') return phrase('hint.sudoku.cellsInCol', { count: cells.length, list: listOf(cells.map((p) => String(p.r + 1))) });
  return listOf(cells.map(cellOf));
}

/** Removals grouped by cell: "3 and 8 from row 5, column 1; 8 from row 5, column 4". */
function removals(es: CellDigit[]): PhraseArg {
  const by = new Map<string, { p: CellRef; ds: number[] }>();
  for (const e of es) {
    const k = `${e.r},${e.c}`;
    if (!by.has(k)) by.set(k, { p: e, ds: [] });
    by.get(k)!.ds.push(e.digit);
  }
  const groups = [...by.values()];
  // One digit from every cell: "5 from A, B and C".
  const digits = new Set(es.map((e) => e.digit));
  if (digits.size === 1) return phrase('hint.sudoku.removal', { digits: sym(es[0].digit), cells: listOf(groups.map((g) => cellOf(g.p))) });
  return listOf(
    groups.map((g) => phrase('hint.sudoku.removal', { digits: digitList(g.ds), cells: cellOf(g.p) })),
    'semicolon',
  );
}

/** "rows 2 and 7", "columns 1, 4 and 8". */
const linesName = (us: UnitRef[], cap = false): Phrase => phrase('hint.sudoku.lines', { kind: us[0].kind, count: us.length, list: listOf(us.map((u) => String(u.index + 1))) }, cap);
const linesWord = (kind: UnitRef['kind']): Phrase => phrase('hint.sudoku.linesWord', { kind });

/** The explanation of a technique step on the state it was found on, as a phrase. */
export function stepPhrase(s: HumanState, step: Step): Phrase {
  const shape = s.geo.shape;
  const n = s.geo.size;
  const U = (k: number, short = false) => unitPhrase(shape, step.units[k], short);
  const d = step.digits[0];
  switch (step.technique) {
    case 'naked-single': {
      const p = step.placed!;
      const i = p.r * n + p.c;
      const used = peerDigits({ ...shape, cells: s.cells }, i);
      const others = (s.geo.full & ~bit(p.digit)) >>> 0;
      const ruled = (others & ~used) >>> 0;
      const args = { cell: cellP(p.r, p.c), digit: sym(p.digit) };
      if (ruled === 0) return phrase('hint.sudoku.naked-single-held', { ...args, held: digitList(digitsOf(others)) });
      const held = digitsOf(used & others);
      const ruledArgs = { ...args, ruled: digitList(digitsOf(ruled)), count: popcount(ruled) };
      return held.length ? phrase('hint.sudoku.naked-single-held-ruled', { ...ruledArgs, held: digitList(held) }) : phrase('hint.sudoku.naked-single-ruled', ruledArgs);
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
      const at = (i: number) => cellP(Math.floor(i / n), i % n);
      const args = { digit: sym(p.digit), unit: U(0), cell: cellP(p.r, p.c) };
      if (others.length === 0) return phrase('hint.sudoku.hidden-single-last', args);
      const blocked = { ...args, count: blockers.length, blockers: listOf(blockers.map(at)) };
      if (!ruled.length) return phrase('hint.sudoku.hidden-single-blocked', blocked);
      if (!blockers.length) return phrase('hint.sudoku.hidden-single-ruled', { ...args, ruled: listOf(ruled.map(at)) });
      return phrase('hint.sudoku.hidden-single-blocked-ruled', { ...blocked, ruled: listOf(ruled.map(at)) });
    }
    case 'pointing':
    case 'claiming':
      return phrase('hint.sudoku.pointing', { unit: U(0), digit: sym(d), other: U(1), cells: cellsIn(step.units[0], step.cells), otherShort: U(1, true), removals: removals(step.eliminated) });
    case 'naked-pair':
    case 'naked-triple':
      return phrase('hint.sudoku.naked-set', { unit: U(0), count: step.cells.length, cells: cellsIn(step.units[0], step.cells), digits: digitList(step.digits), removals: removals(step.eliminated) });
    case 'hidden-pair':
    case 'hidden-triple':
      return phrase('hint.sudoku.hidden-set', { unit: U(0), count: step.cells.length, cells: cellsIn(step.units[0], step.cells), digits: digitList(step.digits), removals: removals(step.eliminated) });
    case 'x-wing':
    case 'swordfish': {
      const k = step.technique === 'x-wing' ? 2 : 3;
      const bases = step.units.slice(0, k), covers = step.units.slice(k);
      return phrase('hint.sudoku.fish', {
        bases: linesName(bases),
        covers: linesName(covers),
        digit: sym(d),
        basesWord: linesWord(bases[0].kind),
        coversWord: linesWord(covers[0].kind),
        count: k,
        removals: removals(step.eliminated),
      });
    }
    case 'xy-wing': {
      const [p, a, b] = step.cells;
      const [x, y, z] = step.digits.map(sym);
      return phrase('hint.sudoku.xy-wing', { pivot: cellOf(p), a: cellOf(a), b: cellOf(b), x, y, z, removals: removals(step.eliminated) });
    }
  }
}

/** The explanation of a technique step on the state it was found on (English). */
export const explainStep = (s: HumanState, step: Step): string => renderPhrase(stepPhrase(s, step));

function contradictionPhrase(shape: Shape, c: Contradiction): Phrase {
  switch (c.kind) {
    case 'no-candidate':
      return phrase('hint.sudoku.no-candidate', { cell: cellOf(c.cell) });
    case 'no-place':
      return phrase('hint.sudoku.no-place', { digit: sym(c.digit), unit: unitPhrase(shape, c.unit) });
    case 'duplicate':
      // Not reached by the hints: a board with a digit twice is named as a conflict first, and singles never repeat a digit.
      return phrase('hint.sudoku.duplicate', { digit: sym(c.digit), unit: unitPhrase(shape, c.unit) });
  }
}

// ---- the hint ----------------------------------------------------------------------------------------------------

function blank(kind: SudokuHint['kind'], reasoning: SudokuHintReasoning, r: number, c: number): SudokuHint {
  return { kind, reasoning, technique: null, row: r, col: c, digit: null, placed: null, eliminated: [], wrong: null, conflictWith: null, contradiction: null, unit: null, units: [], cells: [], digits: [], heading: '', explanation: '', headingPhrase: phrase('hint.heading'), text: [] };
}

function headingOf(shape: Shape, h: SudokuHint): Phrase {
  const fish = h.technique === 'x-wing' || h.technique === 'swordfish';
  const spot = h.cells[0] ?? { r: h.row, c: h.col };
  const where = fish ? linesName(h.units.slice(0, h.units.length / 2), true) : h.unit ? unitPhrase(shape, h.unit, false, true) : phrase('hint.cell', { row: spot.r + 1, col: spot.c + 1 }, true);
  if (h.kind !== 'error') return phrase('hint.heading', { where });
  const cell = cellP(h.row, h.col);
  return h.unit ? phrase('hint.headingMistakeReason', { cell, reason: unitPhrase(shape, h.unit) }) : phrase('hint.headingMistake', { cell });
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
  h.text = [stepPhrase(s, step)];
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
  const hereArgs = { digit: sym(d), cell: cellP(r, c) };
  const here = phrase('hint.sudoku.the-digit-at', hereArgs);
  const Here = phrase('hint.sudoku.the-digit-at', hereArgs, true);
  const fix = phrase('hint.sudoku.fix', { digit: sym(t) });
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
    const args = { here, Here, digit: sym(d), other: cellOf(p), unit: unitPhrase(g.shape, partner.u) };
    h.text = [phrase(wrongCells.has(partner.j) ? 'hint.sudoku.conflict-both-wrong' : 'hint.sudoku.conflict', args), fix];
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
    const contradiction = contradictionPhrase(g.shape, found);
    h.text = [led.placed === 0 ? phrase('hint.sudoku.contradiction-now', { here, contradiction }) : phrase('hint.sudoku.contradiction-forced', { here, contradiction, count: led.placed }), fix];
    return h;
  }
  h.reasoning = 'solution';
  h.text = [phrase('hint.sudoku.solution', { here, right: sym(t), cell: cellP(r, c), digit: sym(d) })];
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
  const finish = (h: SudokuHint): SudokuHint => {
    const headingPhrase = headingOf(g.shape, h);
    return { ...h, headingPhrase, heading: renderPhrase(headingPhrase), explanation: renderSentences(h.text) };
  };
  const eliminated = solution ? (options.eliminated ?? []).filter((e) => solution.cells[e.r * n + e.c] !== e.digit) : (options.eliminated ?? []);

  if (solution) {
    const wrongCells = new Set<number>();
    grid.cells.forEach((v, i) => v !== 0 && v !== solution.cells[i] && wrongCells.add(i));
    if (wrongCells.size) {
      const i = Math.min(...wrongCells);
      const h = wrongDigitHint(grid, solution, i, wrongCells);
      if (policy === 'reveal-only') h.text = [phrase('hint.sudoku.wrong-reveal-only', { digit: sym(grid.cells[i]), cell: cellP(h.row, h.col), right: sym(solution.cells[i]) })];
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
      h.text = [phrase('hint.sudoku.clash', { digit: sym(clash.digit), a: cellOf(a), b: cellOf(b), unit: unitPhrase(g.shape, clash.unit) })];
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
      const marks = eliminated.length ? 'yes' : 'no';
      h.text = [
        broken.kind === 'no-candidate'
          ? phrase('hint.sudoku.broken-no-candidate', { cell: cellOf(broken.cell), marks })
          : phrase('hint.sudoku.broken-no-place', { digit: sym(broken.digit), unit: unitPhrase(g.shape, broken.unit), marks }),
      ];
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
      h.text = [phrase('hint.sudoku.reveal-only', { cell: cellP(r, c), digit: sym(v) })];
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
    h.text = [phrase('hint.sudoku.reveal', { cell: cellP(r, c), digit: sym(solution.cells[i]) })];
    return finish(h);
  }
  const h = blank('stuck', 'stuck', r, c);
  h.cells = [{ r, c }];
  h.text = [phrase('hint.sudoku.stuck', { cell: cellP(r, c), digits: digitList(digitsOf(s.cands[i])) })];
  return finish(h);
}

/** The empty cell with the fewest candidates (reading order breaks ties). */
function fewestCandidates(s: HumanState): number {
  let best = -1;
  for (let i = 0; i < s.cells.length; i++) if (s.cells[i] === 0 && (best < 0 || popcount(s.cands[i]) < popcount(s.cands[best]))) best = i;
  return best;
}
