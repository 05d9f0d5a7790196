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
// What it cannot do: read the participant's mind. A hint names one cell and one reason; a person may
// have had another deduction in mind. The 'edge' test is a heuristic label (knowledge restricted to
// the ends of the line), not a separate inference rule.
import type { HintPolicy } from '../schema/config.ts';
import { EMPTY, FILLED, UNKNOWN, cloneGrid } from './grid.ts';
import type { Clue, Clues, Grid } from './grid.ts';
import { clueSpan, lineSolve } from './lineSolver.ts';
import { propagateInPlace } from './solver.ts';

export type HintReasoning = 'foothold' | 'overlap' | 'edge' | 'cross-reference' | 'probing' | 'reveal' | 'error';

export interface Hint {
  kind: 'error' | 'cell';
  row: number;
  col: number;
  /** The cell's correct value. */
  value: 'filled' | 'empty';
  line: { axis: 'row' | 'col'; index: number };
  reasoning: HintReasoning;
  explanation: string;
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

const ordinal = (axis: 'row' | 'col', index: number) => `${axis === 'row' ? 'Row' : 'Column'} ${index + 1}`;
const clueText = (clue: Clue) => (clue.length === 0 ? '0' : clue.join(' '));
const where = (row: number, col: number) => `row ${row + 1}, column ${col + 1}`;

function explain(reasoning: HintReasoning, l: LineRef, value: 'filled' | 'empty', row: number, col: number): string {
  const name = ordinal(l.axis, l.index);
  const clue = clueText(l.clue);
  const v = value === 'filled' ? 'filled' : 'empty (cross it)';
  switch (reasoning) {
    case 'foothold':
      return l.clue.length === 0
        ? `${name} has clue 0: every cell in it is empty, so the cell at ${where(row, col)} is ${v}.`
        : `${name}'s clue ${clue} needs exactly ${clueSpan(l.clue)} cells, the whole line, so it has only one arrangement: the cell at ${where(row, col)} is ${v}.`;
    case 'overlap':
      return `${name}'s clue ${clue}: however the runs are slid along the line, the cell at ${where(row, col)} is ${v} in every arrangement (overlap).`;
    case 'edge':
      return `${name}'s clue ${clue}: the marks near the end of the line anchor the run next to that edge, so the cell at ${where(row, col)} is ${v}.`;
    case 'cross-reference':
      return `${name}'s clue ${clue}, together with the cells already marked in it (several come from the crossing lines), leaves only arrangements in which the cell at ${where(row, col)} is ${v}.`;
    case 'probing':
      return `Suppose the cell at ${where(row, col)} were ${value === 'filled' ? 'empty' : 'filled'}: following the row and column clues from there leads to a contradiction, so it is ${v}.`;
    case 'reveal':
      return `No single-line deduction or one-step test is left on this board; the cell at ${where(row, col)} is revealed: it is ${v}.`;
    case 'error':
      return `The cell at ${where(row, col)} is marked ${value === 'filled' ? 'empty' : 'filled'}, but it should be ${v}.`;
  }
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
  const make = (kind: 'error' | 'cell', reasoning: HintReasoning, l: LineRef, row: number, col: number): Hint => {
    const value = sol[row * width + col] === FILLED ? 'filled' : 'empty';
    const explanation =
      policy === 'reveal-only' && kind === 'cell' ? `The cell at ${where(row, col)} is ${value === 'filled' ? 'filled' : 'empty (cross it)'}.` : explain(reasoning, l, value, row, col);
    return { kind, row, col, value, line: { axis: l.axis, index: l.index }, reasoning, explanation };
  };
  const cellOf = (f: Found) => {
    const p = f.line.start + f.pos * f.line.step;
    return [Math.floor(p / width), p % width] as const;
  };

  for (let i = 0; i < cells.length; i++) {
    if (cells[i] !== UNKNOWN && cells[i] !== sol[i]) {
      const row = Math.floor(i / width);
      return make('error', 'error', rows[row], row, i % width);
    }
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
