// A Nonogram CNF on which unit propagation does complete line solving: each line is a layered automaton graph (Bacchus's regular-constraint encoding, state-labelled).
/*
 * Why. On the block-start and DFA encodings, unit propagation is much weaker than the line
 * solver (it cannot even see that the overlap of a block's leftmost and rightmost placements is
 * filled), so a CDCL solver has to learn, conflict by conflict, what one line solve would say.
 * Here unit propagation on one line's clauses derives exactly what the complete line solver
 * (lineSolver.ts) derives: every cell value that no valid placement of the line supports is
 * refuted. CDCL on this CNF is then "line solving with clause learning": line logic at every
 * node, and conflicts explained by the cells and states that caused them.
 *
 * The automaton. For a clue l1..lk (k >= 1) write the pattern P = 1^l1 0 1^l2 0 ... 0 1^lk
 * (length m). States 0..m+1, each entered by one symbol only (its label): state 0 = leading
 * zeros (label 0); state s in 1..m = "the first s symbols of P are read" (label P[s-1]); state
 * m+1 = trailing zeros (label 0). Moves: 0 -> 0, 0 -> 1; s -> s+1 (s < m); a gap state (label 0,
 * 1 <= s < m) also -> s (a longer gap); m -> m+1, m+1 -> m+1. Accepting: m and m+1. A line of N
 * cells is valid iff some walk of N moves from state 0 ends in an accepting state, and then the
 * labels of the states entered are the cells.
 *
 * Variables: the cells first (cell (r, c) is r*C + c + 1, as in the other encodings), then line
 * by line (rows top to bottom, then columns left to right), layer j = 1..N, state ascending:
 * q(j, s) = "after j cells the walk is in state s", only for (j, s) both reachable from (0, 0)
 * and able to reach an accepting state at layer N ("live"). Layer 0 is the start, a constant.
 * Clauses per line, with x(j) the line's j-th cell (0-based):
 *   label:      ¬q(j,s) ∨ [x(j-1) = label(s)]                               (binary)
 *   successor:  ¬q(j,s) ∨ OR live successors at layer j+1     (j < N; at j = 0: the start's, as a clause)
 *   predecessor: ¬q(j,s) ∨ OR live predecessors at layer j-1  (j >= 2)
 *   value:      ¬x(j) ∨ OR live label-1 states at layer j+1;  x(j) ∨ OR live label-0 states there
 * A line without blocks: the units ¬x(j).
 *
 * Why it is exact. In a model the start's clause makes some layer-1 state true, and each true
 * state's successor clause a true state in the next layer: a walk to layer N, accepting (only
 * accepting states are live there), whose labels are the cells (label clauses). So every model's
 * cells are a valid board. Conversely a valid board's walk, with exactly its states true, satisfies
 * every clause. So the models projected on the cells are exactly the solutions (brute force in
 * the tests); no at-most-one clauses are needed.
 *
 * Why unit propagation is the complete line solver. At a fixpoint without conflict, every state
 * not false has a non-false successor (or is in layer N) and a non-false predecessor (or is in
 * layer 1): otherwise its successor or predecessor clause would have made it false. So every such
 * state lies on a start-to-accept walk of non-false states, all agreeing with the assigned cells
 * (the label clauses falsify the others): each cell value carried by a non-false state is
 * supported by a valid line, and a value carried by none is refuted by the value clauses.
 * What it cannot do: it is still one line at a time (no reasoning across lines beyond what
 * propagation and learning give); O(N·(slack+1)·k) variables per line.
 */
import type { Clue, Clues } from '../nonogram/grid.ts';
import { boardLines, type NonogramCnf } from './blockStart.ts';

/** The state-labelled line automaton of a non-empty clue: labels, successors, accepting states. */
export function labelledAutomaton(clue: Clue): { states: number; label: Uint8Array; succ: number[][]; accepting: (s: number) => boolean } {
  const pattern: number[] = [];
  clue.forEach((len, i) => {
    if (i > 0) pattern.push(0);
    for (let k = 0; k < len; k++) pattern.push(1);
  });
  const m = pattern.length;
  const states = m + 2;
  const label = new Uint8Array(states);
  const succ: number[][] = [];
  for (let s = 0; s < states; s++) {
    label[s] = s >= 1 && s <= m ? pattern[s - 1] : 0;
    const next: number[] = [];
    if (s === 0) next.push(0, 1);
    else if (s < m) {
      if (label[s] === 0) next.push(s);
      next.push(s + 1);
    } else next.push(m + 1);
    succ.push(next);
  }
  return { states, label, succ, accepting: (s) => s === m || s === m + 1 };
}

/** Receives one clause: `lits[0..len)`, DIMACS literals (the array is reused after the call). */
export type ClauseSink = (lits: Int32Array, len: number) => void;

let live = new Uint8Array(0);
let fwd = new Uint8Array(0);
let ids = new Int32Array(0);
let buf = new Int32Array(0);

/**
 * Emits the encoding's clauses to `sink` and returns the number of variables. `known` (optional,
 * row-major, 0 unknown / 1 filled / 2 empty, the grid.ts states) restricts each line's graph to
 * the states agreeing with the known cells and adds those cells as units first: the same models,
 * a smaller CNF. The states' variables follow the cells' in the order described above.
 */
export function emitLineGac(clues: Clues, sink: ClauseSink, known?: ArrayLike<number>): number {
  const cols = clues.cols.length;
  const cellCount = clues.rows.length * cols;
  if (buf.length < 8) buf = new Int32Array(64);
  if (known)
    for (let i = 0; i < cellCount; i++) {
      if (known[i] === 0) continue;
      buf[0] = known[i] === 1 ? i + 1 : -(i + 1);
      sink(buf, 1);
    }
  let next = cellCount + 1;
  for (const { clue, cells } of boardLines(clues)) next = emitLine(clue, cells, sink, next, known);
  return next - 1;
}

/**
 * One line's clauses: `cells` are the line's DIMACS cell variables in order, its state variables
 * are numbered from `next`; returns the next free variable. `known` (indexed by cell variable - 1)
 * as in `emitLineGac`; the known cells' units are the caller's.
 */
export function emitLine(clue: Clue, cells: ArrayLike<number>, sink: ClauseSink, next: number, known?: ArrayLike<number>): number {
  const n = cells.length;
  if (buf.length < 8) buf = new Int32Array(64);
  if (clue.length === 0) {
    for (let j = 0; j < n; j++) {
      if (known && known[cells[j] - 1] !== 0) {
        if (known[cells[j] - 1] === 1) sink(buf, 0); // a known filled cell in an empty line
        continue;
      }
      buf[0] = -cells[j];
      sink(buf, 1);
    }
    return next;
  }
  let m = clue.length - 1;
  for (const len of clue) m += len;
  const w = m + 2;
  // label(s): state 0 and m+1 are 0; state s in 1..m reads pattern symbol s-1.
  const label = new Uint8Array(w);
  for (let s = 1, i = 0; i < clue.length; i++) {
    if (i > 0) label[s++] = 0;
    for (let k = 0; k < clue[i]; k++) label[s++] = 1;
  }
  // Successors: s+1 for s < m+1 (0 -> 1, m -> m+1), and a self-loop for label-0 states (0, gaps, m+1).
  const size = (n + 1) * w;
  if (fwd.length < size) {
    fwd = new Uint8Array(size * 2);
    live = new Uint8Array(size * 2);
    ids = new Int32Array(size * 2);
  }
  fwd.fill(0, 0, size);
  live.fill(0, 0, size);
  fwd[0] = 1;
  const allowed = (j: number, s: number) => {
    // State s entered at layer j (j >= 1) fixes cell j-1 to label(s).
    if (!known) return true;
    const k = known[cells[j - 1] - 1];
    return k === 0 || (k === 1) === (label[s] === 1);
  };
  for (let j = 0; j < n; j++) {
    const base = j * w;
    for (let s = 0; s < w; s++) {
      if (!fwd[base + s]) continue;
      if (s <= m && allowed(j + 1, s + 1)) fwd[base + w + s + 1] = 1;
      if (label[s] === 0 && allowed(j + 1, s)) fwd[base + w + s] = 1;
    }
  }
  live[n * w + m] = fwd[n * w + m];
  live[n * w + m + 1] = fwd[n * w + m + 1];
  for (let j = n - 1; j >= 0; j--) {
    const base = j * w;
    for (let s = 0; s < w; s++) {
      if (!fwd[base + s]) continue;
      if ((s <= m && live[base + w + s + 1]) || (label[s] === 0 && live[base + w + s])) live[base + s] = 1;
    }
  }
  if (!live[0]) {
    sink(buf, 0); // no placement fits the known cells: the empty clause
    return next;
  }
  for (let j = 1; j <= n; j++) for (let s = 0; s < w; s++) ids[j * w + s] = live[j * w + s] ? next++ : 0;
  if (buf.length < 2 * w + 2) buf = new Int32Array(4 * w + 4);
  // The start's successor clause.
  {
    let len = 0;
    if (live[w]) buf[len++] = ids[w];
    if (live[w + 1]) buf[len++] = ids[w + 1];
    sink(buf, len);
  }
  for (let j = 1; j <= n; j++) {
    const x = cells[j - 1];
    const base = j * w;
    const cellKnown = known !== undefined && known[x - 1] !== 0;
    for (let s = 0; s < w; s++) {
      const q = ids[base + s];
      if (!q) continue;
      if (!cellKnown) {
        buf[0] = -q;
        buf[1] = label[s] ? x : -x;
        sink(buf, 2);
      }
      if (j < n) {
        let len = 0;
        buf[len++] = -q;
        if (label[s] === 0 && live[base + w + s]) buf[len++] = ids[base + w + s];
        if (s <= m && live[base + w + s + 1]) buf[len++] = ids[base + w + s + 1];
        sink(buf, len);
      }
      if (j >= 2) {
        let len = 0;
        buf[len++] = -q;
        if (s >= 1 && live[base - w + s - 1]) buf[len++] = ids[base - w + s - 1];
        if (label[s] === 0 && live[base - w + s]) buf[len++] = ids[base - w + s];
        sink(buf, len);
      }
    }
    if (cellKnown) continue;
    let len = 0;
    buf[len++] = -x;
    for (let s = 0; s < w; s++) if (ids[base + s] && label[s]) buf[len++] = ids[base + s];
    sink(buf, len);
    len = 0;
    buf[len++] = x;
    for (let s = 0; s < w; s++) if (ids[base + s] && !label[s]) buf[len++] = ids[base + s];
    sink(buf, len);
  }
  return next;
}

/** The encoding as a DIMACS-style CNF (every clause as an array), from a blank board. */
export function encodeLineGac(clues: Clues): NonogramCnf {
  const cols = clues.cols.length;
  const clauses: number[][] = [];
  const numVars = emitLineGac(clues, (lits, len) => clauses.push(Array.from(lits.subarray(0, len))));
  return { numVars, clauses, cellVar: (r, c) => r * cols + c + 1 };
}
