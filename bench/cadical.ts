// CaDiCaL (Debian package `cadical`), when installed: a state-of-the-art CDCL solver as an outside anchor on the boards our own solver finds hard.
/*
 * Used by solve.bench.ts and phase.bench.ts to answer one question honestly: is a board slow because
 * of our solver, or because the board is hard for CDCL at all? CaDiCaL is given the same CNF (line-GAC,
 * the encoding both commands use) and asked for one solution, the first of the many calls an exact
 * verdict or forced-cell count needs, so its time is a lower bound on what any such answer would
 * cost CaDiCaL. Wall clock, one process, `-t` as the cap.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDimacs } from '../shared/sat/index.ts';

export const cadicalPath = ['/usr/bin/cadical', '/usr/local/bin/cadical'].find((p) => existsSync(p));

export interface CadicalRun {
  ms: number;
  result: 'SAT' | 'UNSAT' | 'UNKNOWN';
}

/** One solve of `cnf` by CaDiCaL, stopped after `capS` seconds of wall time; the CNF is written to `dir`. */
export function cadicalSolve(cnf: { numVars: number; clauses: number[][] }, capS: number, dir: string): CadicalRun {
  if (!cadicalPath) throw new Error('cadical is not installed (apt-get install cadical)');
  const path = join(dir, 'cadical.cnf');
  writeFileSync(path, writeDimacs({ numVars: cnf.numVars, clauses: cnf.clauses }));
  const t0 = performance.now();
  // -q: quiet; -n: no witness; exit status 10 = SAT, 20 = UNSAT, 0 = stopped by -t.
  const run = spawnSync(cadicalPath, ['-q', '-n', '-t', String(capS), path], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  return { ms, result: run.status === 10 ? 'SAT' : run.status === 20 ? 'UNSAT' : 'UNKNOWN' };
}

export interface CadicalVerdict {
  /** Wall time of both calls (solve, then solve again with the first model's cells blocked). */
  ms: number;
  /** 0 (no solution), 1 (unique), 2 (two or more), or undefined when a call hit the cap. */
  verdict: 0 | 1 | 2 | undefined;
}

/**
 * CaDiCaL's whole verdict, the question `solvePuzzle` answers: solve; if SAT, block the model's
 * cells (variables 1..cells, as in every encoding here) and solve again. `capS` caps both calls together
 * (the second gets what the first left, and a verdict past `capS` in all counts as over the cap), the same
 * cap `solvePuzzle` gets for its whole verdict.
 */
export function cadicalVerdict(cnf: { numVars: number; clauses: number[][] }, cells: number, capS: number, dir: string): CadicalVerdict {
  if (!cadicalPath) throw new Error('cadical is not installed (apt-get install cadical)');
  const path = join(dir, 'cadical.cnf');
  writeFileSync(path, writeDimacs({ numVars: cnf.numVars, clauses: cnf.clauses }));
  let t0 = performance.now();
  const first = spawnSync(cadicalPath, ['-q', '-t', String(capS), path], { encoding: 'utf8', maxBuffer: 1 << 26 });
  let ms = performance.now() - t0;
  if (first.status === 20) return { ms, verdict: 0 };
  if (first.status !== 10) return { ms, verdict: undefined };
  const model = first.stdout
    .split('\n')
    .filter((l) => l.startsWith('v '))
    .flatMap((l) => l.slice(2).trim().split(/\s+/).map(Number))
    .filter((l) => l !== 0 && Math.abs(l) <= cells);
  writeFileSync(path, writeDimacs({ numVars: cnf.numVars, clauses: [...cnf.clauses, model.map((l) => -l)] }));
  t0 = performance.now();
  const second = spawnSync(cadicalPath, ['-q', '-n', '-t', String(Math.max(1, Math.ceil(capS - ms / 1000))), path], { encoding: 'utf8' });
  ms += performance.now() - t0;
  if (ms > capS * 1000) return { ms, verdict: undefined };
  return { ms, verdict: second.status === 20 ? 1 : second.status === 10 ? 2 : undefined };
}
