// Benchmark CNF families (random k-SAT, pigeonhole), generated deterministically from a seed.
import { createRng } from '../random.ts';
import type { Cnf } from './dimacs.ts';

/**
 * Uniform random k-SAT: `numClauses` clauses, each of k distinct variables drawn uniformly from
 * 1..numVars with random signs. Near 4.26 clauses per variable (k = 3) half the formulas are
 * satisfiable and the solver works hardest.
 */
export function randomKSat(numVars: number, numClauses: number, seed: number, k = 3): Cnf {
  if (k > numVars) throw new RangeError(`k = ${k} needs at least ${k} variables, got ${numVars}`);
  const rng = createRng(seed);
  const clauses: number[][] = [];
  for (let i = 0; i < numClauses; i++) {
    const clause: number[] = [];
    while (clause.length < k) {
      const v = 1 + rng.int(numVars);
      if (clause.some((l) => Math.abs(l) === v)) continue;
      clause.push(rng.next() < 0.5 ? -v : v);
    }
    clauses.push(clause);
  }
  return { numVars, clauses };
}

/**
 * Pigeonhole principle PHP(p, p-1): p pigeons, p-1 holes, variable (i, j) = i*(p-1) + j + 1 says
 * pigeon i sits in hole j. Every pigeon sits somewhere; no two share a hole. Unsatisfiable, and
 * exponentially hard for resolution, so conflicts grow quickly with p.
 */
export function pigeonhole(pigeons: number): Cnf {
  const holes = pigeons - 1;
  const x = (i: number, j: number) => i * holes + j + 1;
  const clauses: number[][] = [];
  for (let i = 0; i < pigeons; i++) clauses.push(Array.from({ length: holes }, (_, j) => x(i, j)));
  for (let j = 0; j < holes; j++)
    for (let a = 0; a < pigeons; a++) for (let b = a + 1; b < pigeons; b++) clauses.push([-x(a, j), -x(b, j)]);
  return { numVars: pigeons * holes, clauses };
}
