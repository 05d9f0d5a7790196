// Hints that teach: the next cell that follows from what the participant already has right, and why.
//
// Order of business. (1) A mistake on the board (a filled cell that should be empty, a crossed cell
// that should be filled) is pointed at first, in reading order: reasoning from a wrong board teaches
// nothing. (2) Otherwise the board is a correct partial solution, and we look for the simplest
// reasoning that yields a new cell, in the order people learn them (STUDY.md's strategies):
//   foothold         a line whose clue alone fixes all of it (an empty clue, or runs that fill it exactly);
//   overlap          a cell forced by a line's clue alone (every placement covers it, or none does);
//   edge             a cell forced by the line's clue and the marks near its ends only (a filled cell
//                    within the first run's reach of the edge anchors that run);
//   cross-reference  a cell forced by the line's clue and all its marks (often placed from the crossing lines);
//   probing          assuming the opposite value leads, by line reasoning, to a contradiction;
//   reveal           none of the above applies (the puzzle needs search from here): the cell is revealed.
// Within a kind, the line giving the most new cells wins (ties: rows before columns, lower index),
// and the hint names that line's first new cell. Every deduction is sound, so it agrees with the
// solution whenever the board is correct.
//
// Why a mistake is a mistake. The cell is explained on the participant's trustworthy marks (their
// other mistakes set aside), in its row's or column's clue. First the plainest line contradictions of
// a wrong fill: the line would hold more filled cells than its clue has, or a run longer than any of
// its numbers. Then the same ladder as above: the first line through the cell (row, then column) whose
// foothold, overlap, edge or cross-reference deduction gives the cell's true value says why the mark
// cannot stand. Failing that, probing: the marked value, propagated by line reasoning, leaves some line
// whose clue no longer fits, and that line is named. Failing that too (only search shows it), the hint
// says the puzzle's one solution has the other value. Each reason is sound: the named line, with the
// trusted marks and the wrong one, admits no arrangement of its clue (or propagation reaches one that
// does not). The fix comes after the reason; the client offers it as a button.
//
// What each sentence claims. Every hint carries its claim as data (`Hint.claim`: the wording, the line it reasons in,
// the cells it says are forced, their value, and what it takes as known). hint.property.test.ts checks each claim on
// random generated boards against the line solver and reaches every wording. Two sentences have a plainer variant for
// when their specific claim would not be true: 'edge' names the run next to the edge only when that run covers the
// cell (or stops short of it); otherwise the marks near the ends "limit where its runs can go". 'cross-reference'
// with a single mark in the line names that cell instead of "several from the crossing lines".
//
// The words. Each sentence is a message of the hints' catalogue ('hint.nonogram.<wording>' in shared/i18n/hints/en.ts,
// de.ts, ar.ts) with its arguments (the line, its clue, the cell, the value); `Hint.text` carries them as data, so the
// server renders a hint in the session's language, and `explanation` is the English (byte for byte the engine's
// sentences before they had a catalogue: hint.property.test.ts and the golden outputs pin it).
//
// What it cannot do: read the participant's mind. A hint names one cell and one reason; a person may
// have had another deduction in mind. The 'edge' test is a heuristic label (knowledge restricted to
// the ends of the line), not a separate inference rule.
import type { HintPolicy } from '../schema/config.ts';
import { EMPTY, FILLED, UNKNOWN, cloneGrid } from './grid.ts';
import type { Clue, Clues, Grid } from './grid.ts';
import { clueSpan, lineSolve } from './lineSolver.ts';
import { propagateInPlace } from './solver.ts';
import { ENGLISH_HINT_WORDS, phrase, renderPhrase, renderSentences } from '../i18n/hints/phrase.ts';
import type { HintWords, Phrase, PhraseArg } from '../i18n/hints/phrase.ts';

export type HintReasoning = 'foothold' | 'overlap' | 'edge' | 'cross-reference' | 'probing' | 'reveal' | 'error';

/** Which sentence the engine wrote: one value per branch of its text (hint.property.test.ts reaches every one). */
export type HintWording =
  | 'foothold-empty'
  | 'foothold-exact'
  | 'overlap'
  | 'edge'
  | 'edge-runs'
  | 'cross-reference'
  | 'cross-reference-one'
  | 'probing'
  | 'reveal'
  | 'reveal-only'
  | 'mistake-count'
  | 'mistake-run'
  | 'mistake-foothold-empty'
  | 'mistake-foothold-full'
  | 'mistake-foothold-exact'
  | 'mistake-overlap-covered'
  | 'mistake-edge-covers'
  | 'mistake-edge-short'
  | 'mistake-edge-runs'
  | 'mistake-cross-reference'
  | 'mistake-cross-reference-one'
  | 'mistake-probing'
  | 'mistake-solution'
  | 'mistake-reveal-only';

export const HINT_WORDINGS: readonly HintWording[] = [
  'foothold-empty',
  'foothold-exact',
  'overlap',
  'edge',
  'edge-runs',
  'cross-reference',
  'cross-reference-one',
  'probing',
  'reveal',
  'reveal-only',
  'mistake-count',
  'mistake-run',
  'mistake-foothold-empty',
  'mistake-foothold-full',
  'mistake-foothold-exact',
  'mistake-overlap-covered',
  'mistake-edge-covers',
  'mistake-edge-short',
  'mistake-edge-runs',
  'mistake-cross-reference',
  'mistake-cross-reference-one',
  'mistake-probing',
  'mistake-solution',
  'mistake-reveal-only',
];

/**
 * What an explanation asserts, in a form a program can check against the line solver: the cells it says are forced,
 * the value it says they are forced to, the line whose clue forces them and what of the board the reason takes as known.
 */
export interface HintClaim {
  wording: HintWording;
  /** The line the text reasons in (for a mistake's probing: the line whose clue stops fitting); null when it names none. */
  line: { axis: 'row' | 'col'; index: number } | null;
  /** The cells the text says are forced, each to `value` (for a mistake: the wrong cell, to its true value). */
  cells: { row: number; col: number }[];
  value: 'filled' | 'empty';
  /**
   * What the reason uses besides the line's clue: nothing ('clue'), the marks near the line's ends ('edge'), the
   * line's trustworthy marks ('line'), line reasoning over the whole board ('board'), the solution alone ('solution').
   */
  basis: 'clue' | 'edge' | 'line' | 'board' | 'solution';
}

export interface Hint {
  kind: 'error' | 'cell';
  row: number;
  col: number;
  /** The cell's correct value. */
  value: 'filled' | 'empty';
  line: { axis: 'row' | 'col'; index: number };
  reasoning: HintReasoning;
  /** The explanation in English (`text` rendered with shared/i18n/hints/en.ts). */
  explanation: string;
  /** The explanation as data: its sentences, each a message of the hint catalogue with its arguments (any language renders it). */
  text: Phrase[];
  /** Where to look ("Hint · Row 3", "Hint · Mistake at row 2, column 5 · reason in Column 4"), as a phrase. */
  headingPhrase: Phrase;
  /** What `explanation` asserts (see HintClaim). */
  claim: HintClaim;
}

/** A hint's explanation in the words of a language (English: exactly `hint.explanation`). */
export const hintExplanation = (h: Pick<Hint, 'text'>, words: HintWords = ENGLISH_HINT_WORDS): string => renderSentences(h.text, words);
/** A hint's heading in the words of a language. */
export const hintHeading = (h: Pick<Hint, 'headingPhrase'>, words: HintWords = ENGLISH_HINT_WORDS): string => renderPhrase(h.headingPhrase, words);

/** The heading of a hint: the line to look at, or the wrong cell first and then the line its reason uses (if any). */
function headingOf(kind: 'error' | 'cell', row: number, col: number, line: { axis: 'row' | 'col'; index: number }, reasonInLine: boolean): Phrase {
  const name = ordinal(line.axis, line.index);
  if (kind !== 'error') return phrase('hint.heading', { where: name });
  if (!reasonInLine) return phrase('hint.headingMistake', { cell: where(row, col) });
  return phrase('hint.headingMistakeReason', { cell: where(row, col), reason: name });
}

interface LineRef {
  axis: 'row' | 'col';
  index: number;
  clue: Clue;
  start: number;
  length: number;
  step: number;
}

function linesOf(clues: Clues, width: number, height: number): LineRef[] {
  const out: LineRef[] = [];
  clues.rows.forEach((clue, r) => out.push({ axis: 'row', index: r, clue, start: r * width, length: width, step: 1 }));
  clues.cols.forEach((clue, c) => out.push({ axis: 'col', index: c, clue, start: c, length: height, step: width }));
  return out;
}

function readLine(cells: Uint8Array, l: LineRef): number[] {
  const out: number[] = [];
  for (let i = 0; i < l.length; i++) out.push(cells[l.start + i * l.step]);
  return out;
}

/** Keep only the marks near the ends: leading/trailing crossed cells, then the end run's reach plus one. */
function edgeKnowledge(clue: Clue, line: number[]): number[] {
  const n = line.length;
  const out = new Array<number>(n).fill(UNKNOWN);
  if (clue.length === 0) return out;
  let i = 0;
  while (i < n && line[i] === EMPTY) out[i] = line[i++];
  for (let end = Math.min(n, i + clue[0] + 1); i < end; i++) out[i] = line[i];
  let j = n - 1;
  while (j >= 0 && line[j] === EMPTY) out[j] = line[j--];
  for (let end = Math.max(-1, j - clue[clue.length - 1] - 1); j > end; j--) out[j] = line[j];
  return out;
}

/**
 * Each run's earliest and latest start over the arrangements of `clue` that agree with `known` (null: none agrees).
 * The leftmost arrangement (each run placed as early as the rest still fits) has every run at its earliest start;
 * the rightmost, mirrored, at its latest.
 */
function runBounds(clue: Clue, known: number[]): { lo: number[]; hi: number[] } | null {
  const leftmost = (c: Clue, line: number[]): number[] | null => {
    const n = line.length;
    const k = c.length;
    const memo = new Map<number, boolean>();
    const fits = (j: number, i: number): boolean => {
      if (j === k) {
        for (let p = i; p < n; p++) if (line[p] === FILLED) return false;
        return true;
      }
      const key = j * (n + 2) + i;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      let ok = false;
      for (let s = i; s + c[j] <= n && !ok; s++) {
        if (s > i && line[s - 1] === FILLED) break;
        ok = startsAt(j, s) && fits(j + 1, s + c[j] + 1);
      }
      memo.set(key, ok);
      return ok;
    };
    const startsAt = (j: number, s: number) => {
      for (let p = s; p < s + c[j]; p++) if (line[p] === EMPTY) return false;
      return s + c[j] >= n || line[s + c[j]] !== FILLED;
    };
    const starts: number[] = [];
    let i = 0;
    for (let j = 0; j < k; j++) {
      let s = i;
      while (s + c[j] <= n && !(startsAt(j, s) && fits(j + 1, s + c[j] + 1))) {
        if (line[s] === FILLED) return null;
        s++;
      }
      if (s + c[j] > n) return null;
      starts.push(s);
      i = s + c[j] + 1;
    }
    return fits(k, Math.min(i, n)) ? starts : null;
  };
  const lo = leftmost(clue, known);
  const back = leftmost(clue.slice().reverse(), known.slice().reverse());
  if (!lo || !back) return null;
  const n = known.length;
  const hi = back.reverse().map((s, j) => n - s - clue[j]);
  return { lo, hi };
}

/**
 * Is the edge wording true: with what is `known`, the run next to one edge covers `pos` in every arrangement
 * (filled), or stops short of it (empty: the cell lies on the edge's side of the next run, and the edge run, on
 * either side of it, does not reach it)? Decided on each run's earliest and latest start (sufficient conditions).
 */
function edgeRunExplains(clue: Clue, known: number[], pos: number, value: number): boolean {
  const k = clue.length;
  const b = runBounds(clue, known);
  if (!b || k === 0) return false;
  const { lo, hi } = b;
  if (value === FILLED) return (hi[0] <= pos && pos < lo[0] + clue[0]) || (hi[k - 1] <= pos && pos < lo[k - 1] + clue[k - 1]);
  // Empty: the edge run does not reach the cell (it lies wholly on one side of it), and the next run starts beyond it.
  const misses = (j: number) => hi[j] + clue[j] <= pos || pos < lo[j];
  const left = misses(0) && (k === 1 || pos < lo[1]);
  const right = misses(k - 1) && (k === 1 || hi[k - 2] + clue[k - 2] <= pos);
  return left || right;
}

// The words: each sentence is a message of the hint catalogue (shared/i18n/hints/en.ts, 'hint.nonogram.<wording>').
const ordinal = (axis: 'row' | 'col', index: number): Phrase => phrase('hint.nonogram.line', { axis, n: index + 1 });
const clueText = (clue: Clue) => (clue.length === 0 ? '0' : clue.join(' '));
const where = (row: number, col: number): Phrase => phrase('hint.cell', { row: row + 1, col: col + 1 });
const valueText = (value: 'filled' | 'empty'): Phrase => phrase('hint.nonogram.value', { value });

/** A sentence and what it asserts (the line and cells as the engine knows them; `whole`: every cell of the line). */
interface Said {
  text: Phrase;
  wording: HintWording;
  basis: HintClaim['basis'];
  line: LineRef | null;
  whole?: boolean;
}

function explain(reasoning: HintReasoning, l: LineRef, line: number[], value: 'filled' | 'empty', row: number, col: number): Said {
  const args = { line: ordinal(l.axis, l.index), clue: clueText(l.clue), cell: where(row, col), value, valueText: valueText(value) };
  const said = (wording: HintWording, basis: HintClaim['basis'], line: LineRef | null = l, whole = false, more = {}): Said => ({
    text: phrase(`hint.nonogram.${wording}`, { ...args, ...more }),
    wording,
    basis,
    line,
    whole,
  });
  switch (reasoning) {
    case 'foothold':
      return l.clue.length === 0 ? said('foothold-empty', 'clue', l, true) : said('foothold-exact', 'clue', l, false, { span: clueSpan(l.clue) });
    case 'overlap':
      return said('overlap', 'clue');
    case 'edge':
      return edgeRunExplains(l.clue, edgeKnowledge(l.clue, line), l.axis === 'row' ? col : row, value === 'filled' ? FILLED : EMPTY) ? said('edge', 'edge') : said('edge-runs', 'edge');
    case 'cross-reference': {
      const marked = line.flatMap((m, i) => (m === UNKNOWN ? [] : [i]));
      return marked.length === 1 ? said('cross-reference-one', 'line', l, false, { markedCell: where(...cellAt(l, marked[0])) }) : said('cross-reference', 'line');
    }
    case 'probing':
      return said('probing', 'board', null);
    case 'reveal':
      return said('reveal', 'solution', null);
    case 'error':
      return said('mistake-reveal-only', 'solution', null);
  }
}

/** The (row, col) of position `i` of a line. */
function cellAt(l: LineRef, i: number): [number, number] {
  return l.axis === 'row' ? [l.index, i] : [i, l.index];
}

/** The cells of a line, as (row, col). */
function cellsOfLine(l: LineRef, width: number): { row: number; col: number }[] {
  const out: { row: number; col: number }[] = [];
  for (let i = 0; i < l.length; i++) {
    const p = l.start + i * l.step;
    out.push({ row: Math.floor(p / width), col: p % width });
  }
  return out;
}

const markName = (v: number): 'filled' | 'crossed' => (v === FILLED ? 'filled' : 'crossed');

/** What the line reasoning of one kind says about position `pos` of a line, from `known` (UNKNOWN if nothing). */
function deduced(clue: Clue, known: number[] | null, pos: number): number {
  if (!known) return UNKNOWN;
  const solved = lineSolve(clue, known);
  return solved === 'contradiction' ? UNKNOWN : solved[pos];
}

/**
 * Line propagation from `cells` (changed in place) until nothing moves; the first line whose clue no longer fits, or
 * null when none does. The same rule as the solver's propagation, kept here to name the line for a person.
 */
function contradictingLine(lines: LineRef[], cells: Uint8Array): LineRef | null {
  for (let changed = true; changed; ) {
    changed = false;
    for (const l of lines) {
      const line = readLine(cells, l);
      if (!line.includes(UNKNOWN)) {
        if (lineSolve(l.clue, line) === 'contradiction') return l;
        continue;
      }
      const solved = lineSolve(l.clue, line);
      if (solved === 'contradiction') return l;
      for (let i = 0; i < line.length; i++) {
        if (line[i] === UNKNOWN && solved[i] !== UNKNOWN) {
          cells[l.start + i * l.step] = solved[i];
          changed = true;
        }
      }
    }
  }
  return null;
}

/**
 * Why the participant's mark on (row, col) is wrong, in terms of a line's clue (see the essay at the top): the line
 * the reason is about, and the sentence. `trusted` is the board with every wrong mark set back to UNKNOWN.
 */
function explainError(lines: LineRef[], trusted: Uint8Array, width: number, row: number, col: number, marked: number, truth: number): Said & { heading: LineRef } {
  const at = where(row, col);
  const wrong = markName(marked);
  const right = truth === FILLED ? 'filled' : 'empty';
  const through = lines.filter((l) => (l.axis === 'row' && l.index === row) || (l.axis === 'col' && l.index === col));
  // Every sentence's arguments: the line it reasons in, its clue, the cell, its true value and the participant's mark.
  const said = (line: LineRef, wording: HintWording, basis: HintClaim['basis'], more: Record<string, PhraseArg> = {}, whole = false) => ({
    line,
    heading: line,
    wording,
    basis,
    text: phrase(`hint.nonogram.${wording}`, { line: ordinal(line.axis, line.index), clue: clueText(line.clue), cell: at, value: right, marked: wrong, ...more }),
    whole,
  });
  // A filled mark the line's clue cannot hold: more filled cells than the clue has, or a run longer than its numbers.
  if (marked === FILLED) {
    for (const l of through) {
      const pos = l.axis === 'row' ? col : row;
      const withMark = readLine(trusted, l);
      withMark[pos] = FILLED;
      const filled = withMark.filter((v) => v === FILLED).length;
      const total = l.clue.reduce((a, b) => a + b, 0);
      if (l.clue.length > 0 && filled > total) return said(l, 'mistake-count', 'line', { total, others: filled - 1 });
      let a = pos;
      let b = pos;
      while (a > 0 && withMark[a - 1] === FILLED) a--;
      while (b < withMark.length - 1 && withMark[b + 1] === FILLED) b++;
      if (l.clue.length > 0 && b - a + 1 > Math.max(...l.clue)) return said(l, 'mistake-run', 'line', { run: b - a + 1 });
    }
  }
  for (const reasoning of ['foothold', 'overlap', 'edge', 'cross-reference'] as const) {
    for (const l of through) {
      const pos = l.axis === 'row' ? col : row;
      const line = readLine(trusted, l);
      const blank = new Array<number>(l.length).fill(UNKNOWN);
      const known =
        reasoning === 'foothold' ? (l.clue.length === 0 || clueSpan(l.clue) === l.length ? blank : null) : reasoning === 'overlap' ? blank : reasoning === 'edge' ? edgeKnowledge(l.clue, line) : line;
      if (deduced(l.clue, known, pos) !== truth) continue;
      switch (reasoning) {
        case 'foothold':
          return l.clue.length === 0
            ? said(l, 'mistake-foothold-empty', 'clue', {}, true)
            : l.clue.length === 1
              ? said(l, 'mistake-foothold-full', 'clue', { span: clueSpan(l.clue) }, true)
              : said(l, 'mistake-foothold-exact', 'clue', { span: clueSpan(l.clue) });
        case 'overlap':
          // A clue alone forces a cell empty only in a line its foothold fixes (with any slack, the runs' reaches
          // cover the line), so by here the cell is one the runs cover.
          if (truth !== FILLED) continue;
          return said(l, 'mistake-overlap-covered', 'clue');
        case 'edge':
          if (!edgeRunExplains(l.clue, known!, pos, truth)) return said(l, 'mistake-edge-runs', 'edge');
          return said(l, truth === FILLED ? 'mistake-edge-covers' : 'mistake-edge-short', 'edge');
        case 'cross-reference': {
          const marked = line.flatMap((m, i) => (m === UNKNOWN ? [] : [i]));
          if (marked.length === 1) return said(l, 'mistake-cross-reference-one', 'line', { markedCell: where(...cellAt(l, marked[0])) });
          return said(l, 'mistake-cross-reference', 'line');
        }
      }
    }
  }
  const test = trusted.slice();
  test[row * width + col] = marked;
  const broken = contradictingLine(lines, test);
  if (broken) return said(broken, 'mistake-probing', 'board');
  // The heading still shows where to look (the cell's row); the reason is in no line.
  return { ...said(through[0], 'mistake-solution', 'solution'), line: null };
}

/** One candidate deduction: the line, the kind, the first new cell and how many new cells the line gives. */
interface Found {
  line: LineRef;
  pos: number;
  value: number;
  gain: number;
}

/** The best line deduction of one kind: solve each line's chosen knowledge, keep the one with most new cells. */
function bestLine(lines: LineRef[], board: Uint8Array, knowledge: (l: LineRef, line: number[]) => number[] | null): Found | null {
  let best: Found | null = null;
  for (const l of lines) {
    const line = readLine(board, l);
    if (!line.includes(UNKNOWN)) continue;
    const known = knowledge(l, line);
    if (!known) continue;
    const solved = lineSolve(l.clue, known);
    if (solved === 'contradiction') continue;
    let gain = 0;
    let pos = -1;
    for (let i = 0; i < line.length; i++) {
      if (line[i] === UNKNOWN && solved[i] !== UNKNOWN) {
        if (pos < 0) pos = i;
        gain++;
      }
    }
    if (gain > 0 && (!best || gain > best.gain)) best = { line: l, pos, value: solved[pos], gain };
  }
  return best;
}

/**
 * The hint for a participant's board (UNKNOWN, FILLED, EMPTY = crossed) given the solution; null when
 * the board is already complete and correct, or the policy is 'off'. `solution` must solve `clues`.
 */
export function hint(clues: Clues, board: Grid, solution: Grid, policy: HintPolicy = 'explain-and-reveal'): Hint | null {
  if (policy === 'off') return null;
  const { width, height } = board;
  if (solution.width !== width || solution.height !== height || clues.rows.length !== height || clues.cols.length !== width)
    throw new Error(`hint: board ${width}x${height}, solution ${solution.width}x${solution.height} and clues ${clues.cols.length}x${clues.rows.length} disagree`);
  const cells = board.cells;
  const sol = solution.cells;
  const rows = linesOf(clues, width, height).filter((l) => l.axis === 'row');
  const lines = linesOf(clues, width, height);
  const claimOf = (said: Said, row: number, col: number, value: 'filled' | 'empty'): HintClaim => ({
    wording: said.wording,
    line: said.line && { axis: said.line.axis, index: said.line.index },
    cells: said.whole && said.line ? cellsOfLine(said.line, width) : [{ row, col }],
    value,
    basis: said.basis,
  });
  const make = (kind: 'error' | 'cell', reasoning: HintReasoning, l: LineRef, row: number, col: number): Hint => {
    const value = sol[row * width + col] === FILLED ? 'filled' : 'empty';
    const said: Said =
      policy === 'reveal-only' && kind === 'cell'
        ? { text: phrase('hint.nonogram.reveal-only', { cell: where(row, col), value, valueText: valueText(value) }), wording: 'reveal-only', basis: 'solution', line: null }
        : explain(reasoning, l, readLine(cells, l), value, row, col);
    const claim = claimOf(said, row, col, value);
    const line = { axis: l.axis, index: l.index };
    return { kind, row, col, value, line, reasoning, explanation: renderPhrase(said.text), text: [said.text], headingPhrase: headingOf(kind, row, col, line, claim.line !== null), claim };
  };
  const cellOf = (f: Found) => {
    const p = f.line.start + f.pos * f.line.step;
    return [Math.floor(p / width), p % width] as const;
  };

  const firstWrong = cells.findIndex((v, i) => v !== UNKNOWN && v !== sol[i]);
  if (firstWrong >= 0) {
    const row = Math.floor(firstWrong / width);
    const col = firstWrong % width;
    if (policy === 'reveal-only') return make('error', 'error', rows[row], row, col);
    const trusted = cells.map((v, i) => (v !== UNKNOWN && v !== sol[i] ? UNKNOWN : v));
    const why = explainError(lines, trusted, width, row, col, cells[firstWrong], sol[firstWrong]);
    const value = sol[firstWrong] === FILLED ? 'filled' : 'empty';
    const text = [why.text, phrase('hint.nonogram.fix', { value })];
    const claim = claimOf(why, row, col, value);
    const line = { axis: why.heading.axis, index: why.heading.index };
    return { kind: 'error', row, col, value, line, reasoning: 'error', explanation: renderSentences(text), text, headingPhrase: headingOf('error', row, col, line, claim.line !== null), claim };
  }
  if (!cells.includes(UNKNOWN)) return null;

  const blank = (l: LineRef) => new Array<number>(l.length).fill(UNKNOWN);
  const kinds: [HintReasoning, (l: LineRef, line: number[]) => number[] | null][] = [
    ['foothold', (l) => (l.clue.length === 0 || clueSpan(l.clue) === l.length ? blank(l) : null)],
    ['overlap', (l) => blank(l)],
    ['edge', (l, line) => edgeKnowledge(l.clue, line)],
    ['cross-reference', (_l, line) => line],
  ];
  for (const [reasoning, knowledge] of kinds) {
    const found = bestLine(lines, cells, knowledge);
    if (found) {
      const [row, col] = cellOf(found);
      return make('cell', reasoning, found.line, row, col);
    }
  }

  // Probing: the first unknown cell (reading order) whose wrong value propagates to a contradiction.
  const test = cloneGrid(board);
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] !== UNKNOWN) continue;
    test.cells.set(cells);
    test.cells[i] = sol[i] === FILLED ? EMPTY : FILLED;
    if (!propagateInPlace(clues, test, 'complete')) {
      const row = Math.floor(i / width);
      return make('cell', 'probing', rows[row], row, i % width);
    }
  }
  const first = cells.indexOf(UNKNOWN);
  const row = Math.floor(first / width);
  return make('cell', 'reveal', rows[row], row, first % width);
}
