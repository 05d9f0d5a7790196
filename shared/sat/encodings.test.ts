// Both Nonogram encodings against brute force, the block-start one against the study's own CNFs, and SAT inference.
/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { cluesOf, type Clues, EMPTY, FILLED, UNKNOWN } from '../nonogram/grid.ts';
import { parseDimacs, writeDimacs } from './dimacs.ts';
import { blockStartCounts, encodeBlockStart, type NonogramCnf } from './blockStart.ts';
import { encodeDfa, lineDfa } from './dfa.ts';
import { forcedCells } from './infer.ts';
import { satMetrics } from './metrics.ts';
import { fromDimacs, loadCnf, solveCnf } from './solver.ts';

const nonoFiles = import.meta.glob('./fixtures/minisat/nono*.cnf', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

function runs(bits: ArrayLike<number>): number[] {
  const out: number[] = [];
  let run = 0;
  for (let i = 0; i < bits.length; i++) {
    if (bits[i]) run++;
    else if (run) {
      out.push(run);
      run = 0;
    }
  }
  if (run) out.push(run);
  return out;
}
const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** All solutions of the clues by brute force over row patterns, as strings of 0/1 (row-major). */
function bruteSolutions(clues: Clues): Set<string> {
  const h = clues.rows.length, w = clues.cols.length;
  const rowOptions = clues.rows.map((clue) => {
    const opts: number[][] = [];
    for (let m = 0; m < 1 << w; m++) {
      const bits = Array.from({ length: w }, (_, c) => (m >> c) & 1);
      if (same(runs(bits), clue)) opts.push(bits);
    }
    return opts;
  });
  const out = new Set<string>();
  const pick: number[][] = [];
  const rec = (r: number) => {
    if (r === h) {
      for (let c = 0; c < w; c++) if (!same(runs(pick.map((row) => row[c])), clues.cols[c])) return;
      out.add(pick.map((row) => row.join('')).join(''));
      return;
    }
    for (const o of rowOptions[r]) {
      pick[r] = o;
      rec(r + 1);
    }
  };
  rec(0);
  return out;
}

/** All models of the CNF projected on the cell variables, by blocking each one found. */
function projectedModels(cnf: NonogramCnf, h: number, w: number): Set<string> {
  const s = loadCnf(cnf);
  while (s.nVars() < cnf.numVars) s.newVar();
  const out = new Set<string>();
  for (let guard = 0; guard < 5000 && s.solve(); guard++) {
    let key = '';
    const block: number[] = [];
    for (let r = 0; r < h; r++)
      for (let c = 0; c < w; c++) {
        const v = cnf.cellVar(r, c);
        const on = s.modelValue(v - 1) === 1;
        key += on ? '1' : '0';
        block.push(fromDimacs(on ? -v : v));
      }
    out.add(key);
    if (!s.addClause(block)) break;
  }
  return out;
}

function randomClues(h: number, w: number, density: number, seed: number): Clues {
  const rng = createRng(seed);
  const cells = new Uint8Array(h * w);
  for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < density ? FILLED : EMPTY;
  return cluesOf({ width: w, height: h, cells });
}

const smallCases: { clues: Clues; h: number; w: number }[] = [];
{
  const rng = createRng(2026);
  for (let t = 0; t < 40; t++) {
    const h = 1 + rng.int(4), w = 1 + rng.int(5);
    smallCases.push({ clues: randomClues(h, w, 0.2 + 0.6 * rng.next(), 9000 + t), h, w });
  }
  // Hand-made: an unsolvable pair of clues, an all-empty board, a full board, several solutions.
  smallCases.push({ clues: { rows: [[1], []], cols: [[], []] }, h: 2, w: 2 });
  smallCases.push({ clues: { rows: [[], [], []], cols: [[], [], []] }, h: 3, w: 3 });
  smallCases.push({ clues: { rows: [[3], [3]], cols: [[2], [2], [2]] }, h: 2, w: 3 });
  smallCases.push({ clues: { rows: [[1], [1], [1]], cols: [[1], [1], [1]] }, h: 3, w: 3 });
}

describe('encodings: models projected on the cells are exactly the solutions (brute force)', () => {
  for (const [name, encode] of [['block-start', encodeBlockStart], ['dfa', encodeDfa]] as const) {
    it(name, () => {
      let multi = 0;
      for (const { clues, h, w } of smallCases) {
        const truth = bruteSolutions(clues);
        const got = projectedModels(encode(clues), h, w);
        expect([...got].sort()).toEqual([...truth].sort());
        if (truth.size > 1) multi++;
      }
      expect(multi).toBeGreaterThan(3);
    });
  }
});

describe('block-start', () => {
  it('numbers cells r*C+c+1 and has the variables and clauses of the direct count formula', () => {
    const rng = createRng(5);
    for (let t = 0; t < 30; t++) {
      const h = 1 + rng.int(12), w = 1 + rng.int(12);
      const clues = randomClues(h, w, rng.next(), 700 + t);
      const cnf = encodeBlockStart(clues);
      expect({ numVars: cnf.numVars, numClauses: cnf.clauses.length }).toEqual(blockStartCounts(clues));
      expect(cnf.cellVar(h - 1, w - 1)).toBe(h * w);
      const maxVar = Math.max(...cnf.clauses.flat().map(Math.abs));
      expect(maxVar).toBe(cnf.numVars);
    }
  });

  it('rebuilds each of the 22 study nono CNFs byte for byte from its clues', () => {
    const names = Object.keys(nonoFiles).sort();
    expect(names.length).toBe(22);
    for (const file of names) {
      const text = nonoFiles[file];
      const n = Number(/nono(\d+)-/.exec(file)![1]);
      const r = solveCnf(parseDimacs(text));
      expect(r.result).toBe('SAT');
      const bits = Uint8Array.from({ length: n * n }, (_, i) => (r.model![i] ? FILLED : EMPTY));
      const cnf = encodeBlockStart(cluesOf({ width: n, height: n, cells: bits }));
      expect(writeDimacs(cnf)).toBe(text);
    }
  });

  it('rejects clues that do not fit', () => {
    expect(() => encodeBlockStart({ rows: [[2, 2]], cols: [[1], [1], [1], [1]] })).toThrow(/row 0: clue \[2,2\] does not fit in 4 cells|does not fit/);
  });
});

describe('dfa', () => {
  it('accepts exactly the lines whose runs are the clue', () => {
    for (const clue of [[], [1], [2, 1], [1, 1, 1], [3]]) {
      const { m, step } = lineDfa(clue);
      for (let n = 0; n <= 7; n++)
        for (let bits = 0; bits < 1 << n; bits++) {
          const line = Array.from({ length: n }, (_, i) => (bits >> i) & 1);
          let s = 0;
          for (const b of line) if (s >= 0) s = step(s, b as 0 | 1);
          expect(s === m).toBe(same(runs(line), clue));
        }
    }
  });
});

describe('forcedCells (SAT under assumptions)', () => {
  for (const encoding of ['block-start', 'dfa', 'line-gac'] as const) {
    it(`equals the cells shared by all brute-force solutions (${encoding})`, () => {
      for (const { clues, h, w } of smallCases) {
        const sols = [...bruteSolutions(clues)];
        const res = forcedCells(clues, { encoding });
        expect(res.solvable).toBe(sols.length > 0);
        if (!sols.length) continue;
        let filled = 0, empty = 0;
        for (let i = 0; i < h * w; i++) {
          const vals = new Set(sols.map((s) => s[i]));
          const want = vals.size === 2 ? UNKNOWN : vals.has('1') ? FILLED : EMPTY;
          if (want === FILLED) filled++;
          if (want === EMPTY) empty++;
          expect(res.grid.cells[i]).toBe(want);
        }
        expect([res.forcedFilled, res.forcedEmpty, res.unique]).toEqual([filled, empty, sols.length === 1]);
      }
    });
  }
});

describe('satMetrics', () => {
  it('reports the study vector statistics for the block-start encoding of its puzzle', () => {
    const text = nonoFiles['./fixtures/minisat/nono15-0.cnf'];
    const r = solveCnf(parseDimacs(text));
    const bits = Uint8Array.from({ length: 225 }, (_, i) => (r.model![i] ? FILLED : EMPTY));
    const clues = cluesOf({ width: 15, height: 15, cells: bits });
    expect(satMetrics(clues)).toEqual({ conflicts: 187, decisions: 606, propagations: 15239, restarts: 2, result: 'SAT' });
    expect(satMetrics(clues, 'dfa').result).toBe('SAT');
  });
  it('equals a fresh solve of the encoding for boards of mixed sizes in a row (its scratch solver and CNF are reused)', () => {
    const rng = createRng(5);
    for (let t = 0; t < 40; t++) {
      const w = 2 + rng.int(14);
      const h = 2 + rng.int(14);
      const cells = Uint8Array.from({ length: w * h }, () => (rng.next() < 0.5 ? FILLED : EMPTY));
      const clues = cluesOf({ width: w, height: h, cells });
      for (const [encoding, encodeFn] of [['block-start', encodeBlockStart], ['dfa', encodeDfa]] as const) {
        const fresh = solveCnf(encodeFn(clues));
        expect(satMetrics(clues, encoding)).toEqual({ ...fresh.stats, result: fresh.result });
        const budget = solveCnf(encodeFn(clues), { conflictBudget: 1 });
        expect(satMetrics(clues, encoding, { conflictBudget: 1 })).toEqual({ ...budget.stats, result: budget.result });
      }
    }
  });
});
