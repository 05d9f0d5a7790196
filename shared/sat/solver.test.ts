// The solver against MiniSat 2.2.0's statistics (fixtures) and against brute force on small formulas.
/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { parseDimacs } from './dimacs.ts';
import { randomKSat } from './families.ts';
import { L_FALSE, L_TRUE, L_UNDEF, Solver, fromDimacs, loadCnf, solveCnf } from './solver.ts';
import { CnfBuilder } from './flatCnf.ts';
import expectedPysat from './fixtures/minisat/expected.json' with { type: 'json' };
import expectedOwn from './fixtures/own/expected.json' with { type: 'json' };
import expectedBinary from './fixtures/own/binary_order.json' with { type: 'json' };

const cnfFiles = import.meta.glob('./fixtures/**/*.cnf', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

interface Expected {
  result: string;
  conflicts: number;
  decisions: number;
  propagations: number;
  restarts: number;
}

function observed(text: string, minisatBinaryOrder = false) {
  const r = solveCnf(parseDimacs(text), { minisatBinaryOrder });
  return { result: r.result, ...r.stats };
}
const pick = (e: Expected) => ({ result: e.result, conflicts: e.conflicts, decisions: e.decisions, propagations: e.propagations, restarts: e.restarts });

describe('MiniSat 2.2.0 vectors (PySAT usage: add clauses, then solve)', () => {
  const entries = Object.entries(expectedPysat as Record<string, Expected>);
  it('has all 35 vectors', () => expect(entries.length).toBe(35));
  for (const [name, e] of entries) {
    it(name, () => expect(observed(cnfFiles[`./fixtures/minisat/${name}.cnf`])).toEqual(pick(e)));
  }
});

describe('own vectors (statistics of Debian minisat -no-pre, where it takes the same search)', () => {
  for (const [name, e] of Object.entries(expectedOwn as Record<string, Expected>)) {
    it(name, () => {
      const text = cnfFiles[`./fixtures/own/${name}.cnf`];
      expect(observed(text)).toEqual(pick(e));
      expect(observed(text, true)).toEqual(pick(e));
    });
  }
});

describe('minisatBinaryOrder reproduces Debian minisat -no-pre on the 35 vectors', () => {
  for (const [name, e] of Object.entries(expectedBinary as Record<string, Expected>)) {
    it(name, () => expect(observed(cnfFiles[`./fixtures/minisat/${name}.cnf`], true)).toEqual(pick(e)));
  }
});

function bruteForceSat(numVars: number, clauses: number[][]): boolean {
  for (let m = 0; m < 1 << numVars; m++) {
    if (clauses.every((c) => c.some((l) => ((m >> (Math.abs(l) - 1)) & 1) === (l > 0 ? 1 : 0)))) return true;
  }
  return false;
}
const satisfies = (model: boolean[], clauses: number[][]) => clauses.every((c) => c.some((l) => model[Math.abs(l) - 1] === l > 0));

describe('against brute force', () => {
  it('agrees on 400 random small 3-CNFs and returns real models', () => {
    const rng = createRng(7);
    let sat = 0;
    for (let t = 0; t < 400; t++) {
      const n = 3 + rng.int(10);
      const m = Math.floor(n * (2 + rng.next() * 5));
      const cnf = randomKSat(n, m, 100 + t);
      const r = solveCnf(cnf);
      const truth = bruteForceSat(n, cnf.clauses);
      expect(r.result).toBe(truth ? 'SAT' : 'UNSAT');
      if (r.model) {
        sat++;
        // Variables the clauses never mention are not created, so pad with false.
        const model = Array.from({ length: n }, (_, i) => r.model![i] ?? false);
        expect(satisfies(model, cnf.clauses)).toBe(true);
      }
    }
    expect(sat).toBeGreaterThan(50);
    expect(sat).toBeLessThan(350);
  });

  it('answers under assumptions like brute force with the assumptions as units, incrementally', () => {
    const rng = createRng(11);
    for (let t = 0; t < 60; t++) {
      const n = 8;
      const cnf = randomKSat(n, 20 + rng.int(15), 500 + t);
      const s = loadCnf(cnf);
      while (s.nVars() < n) s.newVar();
      for (let q = 0; q < 8; q++) {
        const assumptions = [1 + rng.int(n), 1 + rng.int(n)].map((v) => (rng.next() < 0.5 ? -v : v));
        const truth = bruteForceSat(n, [...cnf.clauses, ...assumptions.map((l) => [l])]);
        const status = s.solveLimited(assumptions.map(fromDimacs));
        expect(status).toBe(truth ? L_TRUE : L_FALSE);
        if (status === L_FALSE && s.ok) {
          // The final conflict is a subset of the negated assumptions.
          for (const p of s.conflict) expect(assumptions.map(fromDimacs)).toContain(p ^ 1);
        }
      }
    }
  });
});

describe('edge cases', () => {
  it('an empty clause makes the formula UNSAT with no search', () => {
    expect(solveCnf({ clauses: [[1, 2], []] })).toMatchObject({ result: 'UNSAT', stats: { conflicts: 0, decisions: 0, restarts: 0 } });
  });
  it('contradictory units are UNSAT while adding clauses', () => {
    expect(solveCnf({ clauses: [[1], [-1]] }).result).toBe('UNSAT');
  });
  it('drops tautologies and duplicates', () => {
    const r = solveCnf({ clauses: [[1, -1], [2, 2, 2]] });
    expect(r.result).toBe('SAT');
    expect(r.model).toEqual([false, true]);
  });
  it('stops with UNKNOWN at the conflict budget and can be resumed', () => {
    const text = cnfFiles['./fixtures/minisat/php7.cnf'];
    const r = solveCnf(parseDimacs(text), { conflictBudget: 50 });
    expect(r.result).toBe('UNKNOWN');
    // As in MiniSat, the budget is checked only between conflicts, so a run of conflicts may pass it.
    expect(r.stats.conflicts).toBeGreaterThanOrEqual(50);
    expect(r.stats.conflicts).toBeLessThan(60);
    const s = loadCnf(parseDimacs(text));
    expect(s.solveLimited([], 50)).toBe(L_UNDEF);
    expect(s.solveLimited([], -1)).toBe(L_FALSE);
  });
  it('creates only the variables the clauses mention (the header count is not used)', () => {
    const s = loadCnf(parseDimacs('p cnf 10 1\n1 -3 0\n'));
    expect(s.nVars()).toBe(3);
  });
  it('rejects literals naming no variable', () => {
    const s = new Solver();
    s.newVar();
    expect(() => s.addClause([4])).toThrow(/names no variable/);
  });
});

describe('reuse (reset, flat CNFs)', () => {
  const flatOf = (clauses: number[][]) => {
    const b = new CnfBuilder();
    for (const c of clauses) {
      for (const l of c) b.lit(l);
      b.end();
    }
    return b;
  };
  it('a reset solver searches exactly as a fresh one, whatever it solved before', () => {
    const names = ['php7', 'r3sat150-0', 'nono15-4', 'r3sat50-0', 'nono20-1', 'php6', 'r3sat100-2', 'nono10-6'];
    const reused = new Solver();
    for (const name of names) {
      const cnf = parseDimacs(cnfFiles[`./fixtures/minisat/${name}.cnf`]);
      const fresh = solveCnf(cnf);
      const again = solveCnf(flatOf(cnf.clauses).view(cnf.numVars), { reuse: reused });
      expect(again).toEqual(fresh);
      expect(observed(cnfFiles[`./fixtures/minisat/${name}.cnf`])).toEqual(pick((expectedPysat as Record<string, Expected>)[name]));
    }
  });
  it('reset restores parameters and options (the random seed too)', () => {
    const cnf = parseDimacs(cnfFiles['./fixtures/minisat/r3sat150-1.cnf']);
    const s = new Solver();
    s.varDecay = 0.5;
    const options = { randomVarFreq: 0.05, randomSeed: 17 };
    const fresh = solveCnf(cnf, options);
    expect(solveCnf(flatOf(cnf.clauses).view(cnf.numVars), { ...options, reuse: s })).toEqual(fresh);
    expect(solveCnf(flatOf(cnf.clauses).view(cnf.numVars), { ...options, reuse: s })).toEqual(fresh);
  });
  it('a flat CNF loads as its clause arrays do (units, empty clauses, unknown variables)', () => {
    for (const clauses of [[[1, 2], []], [[1], [-1]], [[1, -1], [2, 2, 2]], [[3], [-3, 1], [-1, -2]]]) {
      expect(solveCnf(flatOf(clauses).view(3))).toEqual(solveCnf({ clauses }));
      expect(solveCnf(flatOf(clauses).view(3), { reuse: new Solver() })).toEqual(solveCnf({ clauses }));
    }
    expect(flatOf([[1, 2], [], [-3]]).toClauses()).toEqual([[1, 2], [], [-3]]);
  });
});

describe('WebAssembly kernels (wasmKernels.ts)', () => {
  it('a watch pool that fills during a propagation is enlarged and the propagation resumed, with MiniSat statistics', () => {
    // Count the relayouts that happen inside propagate (the kernel stopped because the pool was full).
    type Internals = { propagate(): number; relayout(...a: number[]): void };
    const proto = Solver.prototype as unknown as Internals;
    const { propagate, relayout } = proto;
    let inPropagate = false;
    let resumed = 0;
    proto.propagate = function (this: Internals) {
      inPropagate = true;
      try {
        return propagate.call(this);
      } finally {
        inPropagate = false;
      }
    };
    proto.relayout = function (this: Internals, ...a: number[]) {
      if (inPropagate) resumed++;
      return relayout.apply(this, a);
    };
    try {
      for (const name of ['r3sat200-0', 'php7', 'nono20-1']) {
        expect(observed(cnfFiles[`./fixtures/minisat/${name}.cnf`])).toEqual(pick((expectedPysat as Record<string, Expected>)[name]));
      }
    } finally {
      proto.propagate = propagate;
      proto.relayout = relayout;
    }
    expect(resumed).toBeGreaterThan(0);
  });
  it('many solvers alive at once each keep their own memory (incremental use interleaved)', () => {
    const formulas = Array.from({ length: 300 }, (_, i) => randomKSat(30, 128, 1000 + i));
    const solvers = formulas.map((f) => loadCnf(f));
    const first = solvers.map((s) => s.solveLimited());
    const second = solvers.map((s) => s.solveLimited([fromDimacs(1), fromDimacs(-2)]));
    formulas.forEach((f, i) => {
      const alone = loadCnf(f);
      expect(first[i]).toBe(alone.solveLimited());
      expect(second[i]).toBe(alone.solveLimited([fromDimacs(1), fromDimacs(-2)]));
      expect(solvers[i].stats()).toEqual(alone.stats());
    });
  });
});
