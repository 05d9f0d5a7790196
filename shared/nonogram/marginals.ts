// Approximate cell marginals of a Nonogram (how likely each cell is filled over its solutions) by loopy belief propagation between rows and columns.
/*
 * What for. The SAT stage of `solvePuzzle` must find a first solution from the clues alone; the
 * CDCL solver tries each decision variable's saved phase first (MiniSat starts every cell at
 * "empty"). Pointing the first phases at a board that agrees with most solutions' likely cells
 * shortens that search (measured in bench/solve.bench.ts, beside the default phases). The
 * marginals only order the search: they never decide a cell, so exactness is untouched.
 *
 * How. Each line is the labelled automaton of lineGac.ts (leading zeros, the clue's pattern
 * 1^l1 0 1^l2 ... with longer gaps allowed, trailing zeros). Given an independent prior
 * P(cell = 1) per cell, a forward and a backward pass over the automaton's layers give the exact
 * marginal of each cell over the line's valid fillings weighted by the priors (normalised per
 * layer, so no overflow). Belief propagation: a row's message to a cell is its marginal divided
 * (in odds) by what the cell's column told it, and the other way round; a few damped sweeps,
 * rows then columns. Known cells (line logic) are fixed priors (0 or 1).
 *
 * What it cannot do. Loopy BP is exact on trees only; the board's row/column graph is full of
 * cycles, so the figures are estimates and may not converge (damping and a fixed number of
 * sweeps keep it bounded: O(sweeps · cells · states per line)). A line whose clue cannot fit the
 * priors gets 0.5 everywhere (no opinion).
 */
import type { Clue, Clues, Grid } from './grid.ts';
import { EMPTY, FILLED } from './grid.ts';

const EPS = 1e-9;
const clamp = (p: number) => (p < EPS ? EPS : p > 1 - EPS ? 1 - EPS : p);

/** Marginal P(cell = 1) of each cell of one line over its valid fillings, weighted by independent priors; into `out`. */
export function lineMarginals(clue: Clue, prior: Float64Array, out: Float64Array): void {
  const n = prior.length;
  if (clue.length === 0) {
    out.fill(0, 0, n);
    return;
  }
  const label: number[] = [0];
  clue.forEach((len, i) => {
    if (i > 0) label.push(0);
    for (let k = 0; k < len; k++) label.push(1);
  });
  const m = label.length - 1;
  label.push(0);
  const w = m + 2;
  const f = new Float64Array((n + 1) * w);
  const b = new Float64Array((n + 1) * w);
  f[0] = 1;
  // Entering state s at layer j sets cell j-1 to label(s); predecessors of s: s-1, and s itself for label-0 states.
  for (let j = 1; j <= n; j++) {
    const p1 = prior[j - 1];
    let z = 0;
    for (let s = 0; s < w; s++) {
      const from = (s >= 1 ? f[(j - 1) * w + s - 1] : 0) + (label[s] === 0 ? f[(j - 1) * w + s] : 0);
      const v = from * (label[s] ? p1 : 1 - p1);
      f[j * w + s] = v;
      z += v;
    }
    if (z === 0) {
      out.fill(0.5, 0, n);
      return;
    }
    for (let s = 0; s < w; s++) f[j * w + s] /= z;
  }
  b[n * w + m] = 1;
  b[n * w + m + 1] = 1;
  for (let j = n - 1; j >= 0; j--) {
    const p1 = prior[j];
    let z = 0;
    for (let s = 0; s < w; s++) {
      let v = 0;
      if (s <= m) v += b[(j + 1) * w + s + 1] * (label[s + 1] ? p1 : 1 - p1);
      if (label[s] === 0) v += b[(j + 1) * w + s] * (1 - p1);
      b[j * w + s] = v;
      z += v;
    }
    if (z > 0) for (let s = 0; s < w; s++) b[j * w + s] /= z;
  }
  for (let j = 1; j <= n; j++) {
    let one = 0;
    let zero = 0;
    for (let s = 0; s < w; s++) {
      const v = f[j * w + s] * b[j * w + s];
      if (label[s]) one += v;
      else zero += v;
    }
    out[j - 1] = one + zero > 0 ? one / (one + zero) : 0.5;
  }
}

/** Estimated P(cell filled) for every cell (row-major), by `sweeps` damped BP sweeps; `known` cells (FILLED/EMPTY) are fixed. */
export function cellMarginals(clues: Clues, known?: Grid, sweeps = 10, damping = 0.5): Float64Array {
  const width = clues.cols.length;
  const height = clues.rows.length;
  const fixed = (i: number) => (known ? known.cells[i] : 0);
  const start = (i: number) => (fixed(i) === FILLED ? 1 - EPS : fixed(i) === EMPTY ? EPS : 0.5);
  const toRow = new Float64Array(width * height); // column -> cell, the row's prior
  const toCol = new Float64Array(width * height); // row -> cell, the column's prior
  for (let i = 0; i < width * height; i++) toRow[i] = toCol[i] = start(i);
  const belief = new Float64Array(width * height);
  const rowPrior = new Float64Array(width);
  const rowOut = new Float64Array(width);
  const colPrior = new Float64Array(height);
  const colOut = new Float64Array(height);
  const odds = (p: number) => clamp(p) / (1 - clamp(p));
  const prob = (o: number) => o / (1 + o);
  for (let sweep = 0; sweep < sweeps; sweep++) {
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) rowPrior[c] = clamp(toRow[r * width + c]);
      lineMarginals(clues.rows[r], rowPrior, rowOut);
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        if (fixed(i)) continue;
        toCol[i] = damping * toCol[i] + (1 - damping) * prob(odds(rowOut[c]) / odds(rowPrior[c]));
      }
    }
    for (let c = 0; c < width; c++) {
      for (let r = 0; r < height; r++) colPrior[r] = clamp(toCol[r * width + c]);
      lineMarginals(clues.cols[c], colPrior, colOut);
      for (let r = 0; r < height; r++) {
        const i = r * width + c;
        belief[i] = fixed(i) ? (fixed(i) === FILLED ? 1 : 0) : colOut[r];
        if (fixed(i)) continue;
        toRow[i] = damping * toRow[i] + (1 - damping) * prob(odds(colOut[r]) / odds(colPrior[r]));
      }
    }
  }
  return belief;
}
