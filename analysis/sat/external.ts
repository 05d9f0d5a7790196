// Other SAT solvers found on the machine (CaDiCaL, CryptoMiniSat, PicoSAT, Glucose, Kissat): run one on a DIMACS CNF and read its decisions, propagations and conflicts.
/*
 * The paper checked its trends with a second solver (Glucose 4.2 beside MiniSat). Our MiniSat is built in
 * (shared/sat, exact to MiniSat 2.2.0 as PySAT runs it); every other solver runs as its own program on the same
 * CNF text, written to a temporary file, and its statistics are read from what it prints. Each solver names
 * its counters a little differently (CaDiCaL and Kissat "c conflicts: N", CryptoMiniSat "c conflicts : N",
 * PicoSAT -v "c N conflicts", Glucose "c conflicts : N"); the counters are the solver's own definitions, so
 * their values are comparable across puzzles for one solver, not between solvers (PicoSAT, for one, counts
 * decisions its own way and often reports 0; CaDiCaL leaves a counter that stayed 0 out, so a missing counter
 * beside printed ones reads as 0). The answer comes from the exit code (10 SAT, 20 UNSAT; the
 * SAT competition's convention) or the "s " line. A solver that is not installed is an error naming the
 * command that installs it: never skipped in silence.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ExternalStats {
  result: 'SAT' | 'UNSAT' | 'UNKNOWN';
  decisions: number;
  propagations: number;
  conflicts: number;
  time_ms: number;
}

interface SolverSpec {
  binary: string;
  args: (file: string) => string[];
  /** Regular expressions with the counter's value in group 1. */
  patterns: Record<'decisions' | 'propagations' | 'conflicts', RegExp>;
  install: string;
}

const colon = (name: string) => new RegExp(`^c\\s+${name}\\s*:\\s*(\\d+)`, 'm');
const picosat = (name: string) => new RegExp(`^c\\s+(\\d+)\\s+${name}\\s*$`, 'm');

/** The solvers `--solver` knows, besides the built-in `minisat`. */
export const EXTERNAL_SOLVERS: Record<string, SolverSpec> = {
  cadical: { binary: 'cadical', args: (f) => [f], patterns: { decisions: colon('decisions'), propagations: colon('propagations'), conflicts: colon('conflicts') }, install: 'apt-get install cadical' },
  cryptominisat: {
    binary: 'cryptominisat5',
    args: (f) => ['--verb', '1', f],
    patterns: { decisions: colon('decisions'), propagations: colon('propagations'), conflicts: colon('conflicts') },
    install: 'apt-get install cryptominisat',
  },
  picosat: { binary: 'picosat', args: (f) => ['-v', f], patterns: { decisions: picosat('decisions'), propagations: picosat('propagations'), conflicts: picosat('conflicts') }, install: 'apt-get install picosat' },
  glucose: {
    binary: 'glucose',
    args: (f) => ['-verb=1', f],
    patterns: { decisions: colon('decisions'), propagations: colon('propagations'), conflicts: colon('conflicts') },
    install: 'build Glucose 4.2 from its sources and put `glucose` on the PATH (Debian has no package)',
  },
  kissat: { binary: 'kissat', args: (f) => [f], patterns: { decisions: colon('decisions'), propagations: colon('propagations'), conflicts: colon('conflicts') }, install: 'build Kissat from its sources and put `kissat` on the PATH (Debian 12 has no package)' },
};

/** Every name `--solver` / `--solvers` accepts. */
export const SOLVER_NAMES = ['minisat', ...Object.keys(EXTERNAL_SOLVERS)];

export class SolverError extends Error {}

/** The spec of an external solver, or an error naming the known ones. */
export function solverSpec(name: string): SolverSpec {
  const spec = EXTERNAL_SOLVERS[name];
  if (!spec) throw new SolverError(`unknown solver '${name}': expected one of ${SOLVER_NAMES.join(', ')}`);
  return spec;
}

/** An error naming each solver that is not installed and the command that installs it; nothing when all are there. */
export function checkSolvers(names: readonly string[]): void {
  const missing: string[] = [];
  for (const name of names) {
    if (name === 'minisat') continue;
    const spec = solverSpec(name);
    const probe = spawnSync(spec.binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') missing.push(`${name} (\`${spec.binary}\` is not on the PATH; install: ${spec.install})`);
  }
  if (missing.length) throw new SolverError(`solver not installed: ${missing.join('; ')}`);
}

/** Parse a solver's output and exit code. */
export function parseSolverOutput(name: string, stdout: string, status: number | null): Omit<ExternalStats, 'time_ms'> {
  const spec = solverSpec(name);
  const keys = ['decisions', 'propagations', 'conflicts'] as const;
  const found = Object.fromEntries(keys.map((key) => [key, spec.patterns[key].exec(stdout)?.[1]])) as Record<(typeof keys)[number], string | undefined>;
  // CaDiCaL (and Kissat) leave counters that stayed 0 out of their statistics: a missing counter beside printed
  // ones is 0; no counter at all means the statistics are missing (e.g. the verbosity was off).
  if (keys.every((key) => found[key] === undefined)) throw new SolverError(`${name}: no decisions, propagations or conflicts count in its output`);
  const read = (key: (typeof keys)[number]) => Number(found[key] ?? 0);
  const sLine = /^s\s+(SATISFIABLE|UNSATISFIABLE|UNKNOWN)/m.exec(stdout)?.[1];
  const result = status === 10 || sLine === 'SATISFIABLE' ? 'SAT' : status === 20 || sLine === 'UNSATISFIABLE' ? 'UNSAT' : 'UNKNOWN';
  return { result, decisions: read('decisions'), propagations: read('propagations'), conflicts: read('conflicts') };
}

/** Run solver `name` on DIMACS text (a temporary file), within timeoutMs; its counters and answer. */
export function runExternalSolver(name: string, dimacs: string, timeoutMs = 60_000): ExternalStats {
  const spec = solverSpec(name);
  const dir = mkdtempSync(join(tmpdir(), 'nonolab-sat-'));
  try {
    const file = join(dir, 'formula.cnf');
    writeFileSync(file, dimacs);
    const t0 = process.hrtime.bigint();
    const run = spawnSync(spec.binary, spec.args(file), { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    const timeMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const err = run.error as NodeJS.ErrnoException | undefined;
    if (err?.code === 'ENOENT') throw new SolverError(`solver not installed: ${name} (\`${spec.binary}\` is not on the PATH; install: ${spec.install})`);
    if (err?.code === 'ETIMEDOUT') throw new SolverError(`${name}: no answer within ${timeoutMs} ms`);
    if (err) throw new SolverError(`${name}: ${err.message}`);
    if (run.status !== 10 && run.status !== 20 && run.status !== 0) throw new SolverError(`${name}: exited with status ${run.status}: ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    return { ...parseSolverOutput(name, run.stdout, run.status), time_ms: Math.round(timeMs * 1000) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
