// The weakest reasoning that forces one cell to one value on a participant's board: overlap, line, two-lines, probing or guess.
/*
 * A participant sets cell i to value v (filled or crossed) on a board B, their own board just before the change, wrong
 * marks included. The label is the first rung of this ladder that proves "i is v" from the clues and B:
 *   overlap    the cell's row or column clue alone, on an empty line, forces i to v (the overlap rule of
 *              lineSolver.ts, overlapSolveLineInPlace, on a blank line: every placement of the clue covers the cell,
 *              or none does). It needs no mark, so it holds on any board.
 *   line       complete line solving (solveLineInPlace) of the cell's row or column, given that line's marks on B,
 *              forces i to v (the line has a placement and in every one the cell is v).
 *   two-lines  line propagation over the whole board (solver.ts's propagateInPlace: rows and columns solved in turn to
 *              the fixpoint, so the lines work together, a crossing line's new cells feeding the next) from B forces
 *              i to v, and reaches no contradiction; no single line did.
 *   probing    one cell's contradiction: propagation from B is consistent and leaves i unknown, and the opposite value
 *              at i, propagated the same way, reaches a contradiction (the probe of solver.ts's probeUntil, on the
 *              cell itself).
 *   guess      none of these: the value is not forced by this ladder on B. That includes a value against what B
 *              forces (a line or propagation forcing the other value), any change on a board whose propagation
 *              already contradicts (a wrong mark makes every deduction beyond one line vacuous, so none is credited),
 *              and cells only search could settle.
 * Each rung implies the next (a cell forced by one line is forced by propagation, and its opposite then contradicts),
 * so "the first rung" is the weakest reasoning, and every label but guess is sound: on a board whose marks agree with
 * a solution, the value holds in every solution extending B (a test checks it against exact search).
 *
 * Cost. overlap is a table look-up (blank lines are solved once per puzzle), line two line solves, each kept until a
 * cell of its line changes (a flip is solved afresh, its own mark set aside). The propagation of
 * B is kept between calls: a change that only adds a mark (unknown to a value) adds it to the kept fixpoint, which is
 * propagated again (from the new marks) only when a label next needs it, since most changes are settled by their own
 * lines (the fixpoint of line propagation is unique, so P(B + x + y) = P(P(B) + x + y)); a change that removes or flips
 * a mark drops it, and when a label next needs it it is rebuilt from the last consistent propagation P(B0) kept with
 * its board B0, while every mark of B0 is still on the board (an undo or clear of a mark made since, a wrong one
 * above all: P(board) = P(P(B0) + the board's other marks)), else recomputed from the board. What it cannot do: see reasoning beyond one
 * probe (probing to a fixpoint, search), or know which rung the participant actually used.
 */
import type { Clues } from './grid.ts';
import { overlapSolveLineInPlace, solveLineInPlace } from './lineSolver.ts';
import { propagateInPlace } from './solver.ts';

const UNKNOWN = 0;
const FILLED = 1;
const EMPTY = 2;

export const REASONING_LABELS = ['overlap', 'line', 'two-lines', 'probing', 'guess'] as const;
export type ReasoningLabel = (typeof REASONING_LABELS)[number];

/** Labels of the line family: one line or lines together, no contradiction needed. */
export const LINE_FAMILY: ReadonlySet<ReasoningLabel> = new Set(['overlap', 'line', 'two-lines']);

/** Labels cell changes on one puzzle's boards; call `label` before a change and `changed` after it. */
export class MoveReasoning {
  readonly width: number;
  readonly height: number;
  private readonly clues: Clues;
  /** Each cell's value forced by its row's (resp. column's) clue alone on an empty line; UNKNOWN where none. */
  private readonly blankRow: Uint8Array;
  private readonly blankCol: Uint8Array;
  private readonly line: Uint8Array;
  /** The propagation of the current board: valid when propState is not 'none'. */
  private readonly prop: Uint8Array;
  private propState: 'none' | 'ok' | 'contradiction' = 'none';
  /** Cells marked in `prop` since it was last propagated. */
  private readonly pending: number[] = [];
  /**
   * The last consistent propagation and the board it was of (valid while every mark of that board is still on the
   * board, unchanged), from which the propagation is rebuilt after a change drops it; `baseFresh` while the board has
   * not changed since they were copied.
   */
  private readonly baseProp: Uint8Array;
  private readonly baseBoard: Uint8Array;
  private baseValid = false;
  private baseFresh = false;
  private readonly test: Uint8Array;
  /** Each row and column of the board solved by complete line solving: state 0 not kept, 1 solved, -1 no placement. */
  private readonly rowSolved: Uint8Array;
  private readonly colSolved: Uint8Array;
  private readonly rowState: Int8Array;
  private readonly colState: Int8Array;

  constructor(clues: Clues) {
    this.clues = clues;
    const w = (this.width = clues.cols.length);
    const h = (this.height = clues.rows.length);
    this.blankRow = new Uint8Array(w * h);
    this.blankCol = new Uint8Array(w * h);
    this.line = new Uint8Array(Math.max(w, h));
    this.prop = new Uint8Array(w * h);
    this.baseProp = new Uint8Array(w * h);
    this.baseBoard = new Uint8Array(w * h);
    this.test = new Uint8Array(w * h);
    this.rowSolved = new Uint8Array(w * h);
    this.colSolved = new Uint8Array(w * h);
    this.rowState = new Int8Array(h);
    this.colState = new Int8Array(w);
    for (let r = 0; r < h; r++) {
      const row = new Uint8Array(w);
      if (overlapSolveLineInPlace(clues.rows[r], row, 0, w, 1) >= 0) this.blankRow.set(row, r * w);
    }
    for (let c = 0; c < w; c++) {
      const col = new Uint8Array(h);
      if (overlapSolveLineInPlace(clues.cols[c], col, 0, h, 1) >= 0) for (let r = 0; r < h; r++) this.blankCol[r * w + c] = col[r];
    }
  }

  private lineForces(cells: Uint8Array, clue: readonly number[], start: number, length: number, step: number, pos: number, value: number): boolean {
    const line = this.line;
    for (let k = 0, p = start; k < length; k++, p += step) line[k] = cells[p];
    if (line[pos] !== UNKNOWN) line[pos] = UNKNOWN; // the cell itself is what is being decided
    return solveLineInPlace(clue, line, 0, length, 1) >= 0 && line[pos] === value;
  }

  /** Row r of the board solved (kept until a cell of the row changes); false when its clue has no placement. */
  private solvedRow(cells: Uint8Array, r: number): boolean {
    if (this.rowState[r] === 0) {
      const w = this.width;
      const line = this.line;
      for (let k = 0, p = r * w; k < w; k++, p++) line[k] = cells[p];
      const ok = solveLineInPlace(this.clues.rows[r], line, 0, w, 1) >= 0;
      if (ok) this.rowSolved.set(line.subarray(0, w), r * w);
      this.rowState[r] = ok ? 1 : -1;
    }
    return this.rowState[r] === 1;
  }

  /** Column c of the board solved, kept the same way (colSolved by cell index). */
  private solvedCol(cells: Uint8Array, c: number): boolean {
    if (this.colState[c] === 0) {
      const w = this.width, h = this.height;
      const line = this.line;
      for (let k = 0, p = c; k < h; k++, p += w) line[k] = cells[p];
      const ok = solveLineInPlace(this.clues.cols[c], line, 0, h, 1) >= 0;
      if (ok) for (let k = 0, p = c; k < h; k++, p += w) this.colSolved[p] = line[k];
      this.colState[c] = ok ? 1 : -1;
    }
    return this.colState[c] === 1;
  }

  private grid(cells: Uint8Array) {
    return { width: this.width, height: this.height, cells };
  }

  /** The propagation of `cells` (the current board), computed when not kept, brought up to date when marks were added. */
  private propagation(cells: Uint8Array): 'ok' | 'contradiction' {
    if (this.propState === 'none' && this.baseValid) {
      // Rebuilt from the last consistent propagation P(B0): the board's marks include B0's, so P(board) is the
      // propagation of P(B0) with the board's other marks (a mark against P(B0) contradicts at once).
      const prop = this.prop;
      const base = this.baseBoard;
      prop.set(this.baseProp);
      this.pending.length = 0;
      this.propState = 'ok';
      for (let j = 0; j < cells.length; j++) {
        const v = cells[j];
        if (v === UNKNOWN || v === base[j] || prop[j] === v) continue;
        if (prop[j] !== UNKNOWN) {
          this.propState = 'contradiction';
          this.pending.length = 0;
          break;
        }
        prop[j] = v;
        this.pending.push(j);
      }
    }
    if (this.propState === 'none') {
      this.prop.set(cells);
      this.pending.length = 0;
      this.propState = propagateInPlace(this.clues, this.grid(this.prop), 'complete') ? 'ok' : 'contradiction';
    } else if (this.pending.length > 0) {
      // The new marks' rows and columns, one mark at a time (incremental propagation): every line whose cells changed
      // since it was last solved is solved again, and the others are still at their fixpoint, so this is the fixpoint.
      const grid = this.grid(this.prop);
      let ok = true;
      for (let k = 0; k < this.pending.length && ok; k++) ok = propagateInPlace(this.clues, grid, 'complete', undefined, this.pending[k]);
      this.pending.length = 0;
      if (!ok) this.propState = 'contradiction';
    }
    if (this.propState === 'ok' && !this.baseFresh) {
      this.baseProp.set(this.prop);
      this.baseBoard.set(cells);
      this.baseValid = this.baseFresh = true;
    }
    return this.propState;
  }

  /**
   * The weakest reasoning forcing cell i to `value` (FILLED or EMPTY, grid.ts's codes) on the board `cells` (the
   * board before the change; the cell's own mark on it is set aside). `cells` must be the board `changed` was last
   * told about.
   */
  label(cells: Uint8Array, i: number, value: number): ReasoningLabel {
    const w = this.width;
    const r = (i / w) | 0;
    const c = i - r * w;
    if (this.blankRow[i] === value || this.blankCol[i] === value) return 'overlap';
    if (cells[i] !== UNKNOWN) {
      if (this.lineForces(cells, this.clues.rows[r], r * w, w, 1, c, value)) return 'line';
      if (this.lineForces(cells, this.clues.cols[c], c, this.height, w, r, value)) return 'line';
      return this.labelFromScratch(cells, i, value);
    }
    if (this.solvedRow(cells, r) && this.rowSolved[i] === value) return 'line';
    if (this.solvedCol(cells, c) && this.colSolved[i] === value) return 'line';
    if (this.propagation(cells) === 'contradiction') return 'guess';
    const p = this.prop[i];
    if (p === value) return 'two-lines';
    if (p !== UNKNOWN) return 'guess';
    this.test.set(this.prop);
    this.test[i] = value === FILLED ? EMPTY : FILLED;
    return propagateInPlace(this.clues, this.grid(this.test), 'complete', undefined, i) ? 'guess' : 'probing';
  }

  /** A cell flipped from one mark to the other: the ladder on the board with the cell made unknown (not kept). */
  private labelFromScratch(cells: Uint8Array, i: number, value: number): ReasoningLabel {
    const t = this.test;
    t.set(cells);
    t[i] = UNKNOWN;
    if (!propagateInPlace(this.clues, this.grid(t), 'complete')) return 'guess';
    if (t[i] === value) return 'two-lines';
    if (t[i] !== UNKNOWN) return 'guess';
    t[i] = value === FILLED ? EMPTY : FILLED;
    return propagateInPlace(this.clues, this.grid(t), 'complete', undefined, i) ? 'guess' : 'probing';
  }

  /** Cell i changed from `before` to `after` on the board: keep the propagation when the change only adds a mark. */
  changed(i: number, before: number, after: number): void {
    const r = (i / this.width) | 0;
    this.rowState[r] = 0;
    this.colState[i - r * this.width] = 0;
    this.baseFresh = false;
    const b = this.baseBoard[i];
    if (b !== UNKNOWN && after !== b) this.baseValid = false;
    if (this.propState === 'none') return;
    if (before !== UNKNOWN || after === UNKNOWN) {
      this.propState = 'none';
      return;
    }
    if (this.propState === 'contradiction') return;
    const p = this.prop[i];
    if (p === after) return;
    if (p !== UNKNOWN) {
      this.propState = 'contradiction';
      return;
    }
    // (propagated when a label next needs it: most changes are settled by their lines and never ask)
    this.prop[i] = after;
    this.pending.push(i);
  }

  /** Forget the kept propagation (the board was replaced). */
  reset(): void {
    this.propState = 'none';
    this.baseValid = this.baseFresh = false;
    this.rowState.fill(0);
    this.colState.fill(0);
  }
}
