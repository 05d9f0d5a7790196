// The regular-expression (DFA) CNF encoding of a Nonogram (Foote & Krizanc): one automaton run per line.
/*
 * A line with clue (l1..lt) is valid iff it matches 0* 1^l1 0+ 1^l2 0+ ... 1^lt 0*. Write the
 * clue as the pattern P = 1^l1 0 1^l2 0 ... 0 1^lt (length m = sum li + t - 1). The DFA has
 * states 0..m ("the first s characters of P are read") and a dead state:
 *   reading 1 in s:  s+1 if P[s] = 1, else dead;
 *   reading 0 in s:  s if s = 0 or s = m (leading/trailing zeros), s+1 if P[s] = 0,
 *                    s if P[s-1] = 0 (a longer gap), else dead (a run would be cut short);
 * it starts in 0 and accepts in m.
 *
 * Variables: the cells first (cell (r, c) is r*C + c + 1, as in the block-start encoding), then,
 * line by line (rows top to bottom, then columns left to right), position j = 0..N by position,
 * states ascending: y(j, s) = "after the first j cells of the line the DFA is in state s", only
 * for states both reachable from the start in j steps and able to reach acceptance in N - j.
 * Clauses per line: the units y(0, 0) and y(N, m); per position j: at least one state, and at
 * most one (pairwise); per live y(j, s) and input bit b (x = cell j, b = 1 means x):
 * (¬y(j,s) ∨ ¬[x=b] ∨ y(j+1, δ(s,b))), or (¬y(j,s) ∨ ¬[x=b]) when δ(s,b) is dead or pruned.
 *
 * Why it is exact: from the unit y(0,0), the transition clauses force the state after each cell
 * to be the DFA's, and at-most-one forbids any other state being true; y(N,m) forces acceptance.
 * So a board satisfies the formula iff every line's run is accepted (checked by brute force in
 * the tests), and the extension to the y variables is unique. What it cannot do: it says nothing
 * the clue does not; it is O(N·m) variables and O(N·m²) clauses per line (the pairwise
 * at-most-one dominates), smaller than block-start when blocks are many and slack is large.
 */
import type { Clue, Clues } from '../nonogram/grid.ts';
import { boardLines, type NonogramCnf } from './blockStart.ts';
import { CnfBuilder } from './flatCnf.ts';

const DEAD = -1;

/** The line automaton of a clue: transition function and accepting state. */
export function lineDfa(clue: Clue): { m: number; step: (s: number, bit: 0 | 1) => number } {
  const pattern: number[] = [];
  clue.forEach((len, i) => {
    if (i > 0) pattern.push(0);
    for (let k = 0; k < len; k++) pattern.push(1);
  });
  const m = pattern.length;
  const step = (s: number, bit: 0 | 1): number => {
    if (bit === 1) return s < m && pattern[s] === 1 ? s + 1 : DEAD;
    if (s === 0 || s === m) return s;
    if (pattern[s] === 0) return s + 1;
    if (pattern[s - 1] === 0) return s;
    return DEAD;
  };
  return { m, step };
}

export function encodeDfa(clues: Clues): NonogramCnf {
  const cols = clues.cols.length;
  const b = new CnfBuilder();
  const numVars = encodeDfaInto(clues, b);
  return { numVars, clauses: b.toClauses(), cellVar: (r, c) => r * cols + c + 1 };
}

/** The DFA clauses written into `out` (appended, in the order above); returns the number of variables. */
export function encodeDfaInto(clues: Clues, out: CnfBuilder): number {
  const lines = boardLines(clues);
  let next = clues.rows.length * clues.cols.length + 1;
  for (const { clue, cells } of lines) {
    const n = cells.length;
    const { m, step } = lineDfa(clue);
    // Forward reachability, then backward co-reachability; the DFA tabulated once per line.
    const w = m + 1;
    const next0 = new Int32Array(w);
    const next1 = new Int32Array(w);
    for (let s = 0; s <= m; s++) {
      next0[s] = step(s, 0);
      next1[s] = step(s, 1);
    }
    const live = new Uint8Array((n + 1) * w);
    live[0] = 1;
    for (let j = 0; j < n; j++)
      for (let s = 0; s <= m; s++)
        if (live[j * w + s]) {
          if (next0[s] !== DEAD) live[(j + 1) * w + next0[s]] = 1;
          if (next1[s] !== DEAD) live[(j + 1) * w + next1[s]] = 1;
        }
    const alive = new Uint8Array((n + 1) * w);
    if (live[n * w + m]) alive[n * w + m] = 1;
    for (let j = n - 1; j >= 0; j--)
      for (let s = 0; s <= m; s++)
        if (live[j * w + s] && ((next0[s] !== DEAD && alive[(j + 1) * w + next0[s]]) || (next1[s] !== DEAD && alive[(j + 1) * w + next1[s]]))) alive[j * w + s] = 1;
    const y = new Int32Array((n + 1) * w);
    for (let k = 0; k < y.length; k++) if (alive[k]) y[k] = next++;
    if (!alive[0]) {
      out.end();
      continue;
    }
    out.clause1(y[0]);
    out.clause1(y[n * w + m]);
    for (let j = 0; j <= n; j++) {
      const row = j * w;
      for (let s = 0; s <= m; s++) if (y[row + s]) out.lit(y[row + s]);
      out.end();
      for (let a = 0; a <= m; a++) if (y[row + a]) for (let b = a + 1; b <= m; b++) if (y[row + b]) out.clause2(-y[row + a], -y[row + b]);
    }
    for (let j = 0; j < n; j++) {
      const x = cells[j];
      for (let s = 0; s <= m; s++) {
        const here = y[j * w + s];
        if (!here) continue;
        const t0 = next0[s] === DEAD ? 0 : y[(j + 1) * w + next0[s]];
        if (t0) out.clause3(-here, x, t0);
        else out.clause2(-here, x);
        const t1 = next1[s] === DEAD ? 0 : y[(j + 1) * w + next1[s]];
        if (t1) out.clause3(-here, -x, t1);
        else out.clause2(-here, -x);
      }
    }
  }
  return next - 1;
}
