// Installed SAT solvers (Debian's cadical, cryptominisat, picosat; CI installs them) on the same CNF: their counters, the CLI, measure --solvers, and a missing solver named with its install command.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSolvers, parseSolverOutput, runExternalSolver, SolverError } from './external.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const vectors = join(root, 'shared/sat/fixtures/minisat');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
const expected = JSON.parse(readFileSync(join(vectors, 'expected.json'), 'utf8')) as Record<string, { result: string }>;
const SOLVERS = ['cadical', 'cryptominisat', 'picosat'];

describe('parsing each solver\'s statistics', () => {
  it('reads the counters as each solver prints them, and the answer from the exit code or the s line', () => {
    expect(parseSolverOutput('cadical', 's SATISFIABLE\nc conflicts:                     8     55555.56    per second\nc decisions:                    13     90277.78    per second\nc propagations:                461         3.20 M  per second\n', 10)).toEqual({
      result: 'SAT', decisions: 13, propagations: 461, conflicts: 8,
    });
    expect(parseSolverOutput('cryptominisat', 'c decisions                : 32          (0.00      % random)\nc propagations             : 611         (0         props/s)\nc decisions/conflicts      : 3.20\nc conflicts                : 10\ns UNSATISFIABLE\n', 20)).toEqual({
      result: 'UNSAT', decisions: 32, propagations: 611, conflicts: 10,
    });
    expect(parseSolverOutput('picosat', 's SATISFIABLE\nc 18 conflicts\nc 0 decisions\nc 1673 propagations\n', 0)).toEqual({ result: 'SAT', decisions: 0, propagations: 1673, conflicts: 18 });
    // CaDiCaL leaves counters that stayed 0 out (a puzzle solved by propagation alone)
    expect(parseSolverOutput('cadical', 's SATISFIABLE\nc propagations:                231         2.12 M  per second\n', 10)).toEqual({ result: 'SAT', decisions: 0, propagations: 231, conflicts: 0 });
    expect(() => parseSolverOutput('cadical', 's SATISFIABLE\n', 10)).toThrow(/cadical: no decisions, propagations or conflicts count/);
    expect(() => parseSolverOutput('lingeling', '', 0)).toThrow(/unknown solver 'lingeling': expected one of minisat, cadical/);
  });
});

describe('installed solvers on the MiniSat vectors', () => {
  for (const name of SOLVERS)
    it(`${name}: the same answer as MiniSat on SAT and UNSAT formulas, with positive counters`, () => {
      for (const vector of ['nono15-0', 'php6', 'r3sat100-1']) {
        const r = runExternalSolver(name, readFileSync(join(vectors, `${vector}.cnf`), 'utf8'));
        expect(r.result, `${name} ${vector}`).toBe(expected[vector].result);
        expect(r.propagations).toBeGreaterThan(0);
        if (vector === 'php6') expect(r.conflicts).toBeGreaterThan(0); // pigeonhole needs search
      }
    });

  it('nonolab sat --solver NAME prints {file, solver, result, decisions, propagations, conflicts, time_ms}', () => {
    const file = join(vectors, 'php6.cnf');
    const run = cli('sat', '--solver', 'cadical', file);
    expect(run.status).toBe(0);
    const line = JSON.parse(run.stdout);
    expect(Object.keys(line)).toEqual(['file', 'solver', 'result', 'decisions', 'propagations', 'conflicts', 'time_ms']);
    expect(line).toMatchObject({ file, solver: 'cadical', result: 'UNSAT' });
    const bad = cli('sat', '--solver', 'nosuch', file);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown solver 'nosuch'");
  });

  it('measure --solvers stores metrics.sat_<name> from the block-start CNF, equal to sat --solver on `cnf` output', () => {
    const dir = tempDir('nonolab-solvers-');
    const puzzles = join(dir, 'p.ndjson');
    const config = JSON.parse(readFileSync(join(root, 'analysis/pipeline/fixtures/study.json'), 'utf8'));
    writeFileSync(puzzles, config.puzzles.map((p: object) => JSON.stringify(p)).join('\n') + '\n');
    const run = cli('measure', puzzles, '--solvers', 'minisat,cadical,picosat');
    expect(run.status, run.stderr).toBe(0);
    const measured = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    for (const p of measured) {
      expect(Object.keys(p.metrics)).toEqual(expect.arrayContaining(['sat', 'sat_dfa', 'sat_minisat', 'sat_cadical', 'sat_picosat']));
      expect(p.metrics.sat_minisat).toEqual({ decisions: p.metrics.sat.decisions, propagations: p.metrics.sat.propagations, conflicts: p.metrics.sat.conflicts, result: 'SAT' });
      expect(p.metrics.sat_cadical).toMatchObject({ result: 'SAT' });
      writeFileSync(join(dir, 'one.json'), JSON.stringify(p));
      const cnf = cli('cnf', join(dir, 'one.json'));
      writeFileSync(join(dir, 'one.cnf'), cnf.stdout);
      const direct = JSON.parse(cli('sat', '--solver', 'cadical', join(dir, 'one.cnf')).stdout);
      expect(p.metrics.sat_cadical).toEqual({ decisions: direct.decisions, propagations: direct.propagations, conflicts: direct.conflicts, result: 'SAT' });
    }
  });
});

describe('a missing solver', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });
  it('is an error naming it and the command that installs it, never skipped', () => {
    process.env.PATH = tempDir('nonolab-nopath-');
    expect(() => checkSolvers(['minisat', 'cadical', 'picosat'])).toThrow(
      'solver not installed: cadical (`cadical` is not on the PATH; install: apt-get install cadical); picosat (`picosat` is not on the PATH; install: apt-get install picosat)',
    );
    expect(() => runExternalSolver('cryptominisat', 'p cnf 1 1\n1 0\n')).toThrow(SolverError);
    expect(() => runExternalSolver('cryptominisat', 'p cnf 1 1\n1 0\n')).toThrow(/install: apt-get install cryptominisat/);
  });
  it('measure --solvers stops before any work, exit 2', () => {
    const dir = tempDir('nonolab-solvers-');
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), 'measure', join(dir, 'none.json'), '--solvers', 'cadical,kissat'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: dir },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/solver not installed: .*kissat \(`kissat` is not on the PATH; install: /);
  });
});
