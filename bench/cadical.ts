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
