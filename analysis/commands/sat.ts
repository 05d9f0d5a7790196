// `nonolab sat FILE... [--model] [--conflict-budget N] [--solver NAME]`: solve DIMACS files with the MiniSat 2.2.0-exact solver (or another installed solver), one JSON line each.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { DimacsError, parseDimacs, solveCnf } from '../../shared/sat/index.ts';
import { checkSolvers, runExternalSolver, SolverError, SOLVER_NAMES } from '../sat/external.ts';
import { commandDescription } from './catalog.ts';

/** A DIMACS file's text; an empty one is a mistake (a formula without its 'p cnf' header), not the empty formula. */
function readDimacs(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') throw new DimacsError("empty file, expected DIMACS CNF ('p cnf VARS CLAUSES' and clauses)", 1);
  return text;
}

export function registerSat(program: Command): void {
  program
    .command('sat')
    .description(commandDescription('sat'))
    .argument('<files...>', 'DIMACS CNF files')
    .option('--model', 'add the satisfying assignment as DIMACS literals')
    .option('--conflict-budget <n>', 'stop after about N conflicts with result UNKNOWN')
    .option('--binary-order', "simplify as Debian's `minisat -no-pre` driver does (default: as PySAT's minisat22)")
    .option('--solver <name>', `solver: minisat (built in, the paper's) or one installed on the machine: ${SOLVER_NAMES.filter((n) => n !== 'minisat').join(', ')}`, 'minisat')
    .option('--timeout <ms>', 'an installed solver must answer within this many milliseconds', '60000')
    .action((files: string[], opts: { model?: boolean; conflictBudget?: string; binaryOrder?: boolean; solver: string; timeout: string }) => {
      // Every option is checked, whichever solver runs (a bad value is a mistake even where it would go unused).
      const timeout = Number(opts.timeout);
      if (!Number.isInteger(timeout) || timeout <= 0) {
        console.error(`--timeout must be a positive integer (milliseconds), got '${opts.timeout}'`);
        process.exitCode = 2;
        return;
      }
      if (opts.solver !== 'minisat') {
        if (opts.model || opts.conflictBudget !== undefined || opts.binaryOrder) {
          console.error('--model, --conflict-budget and --binary-order are options of the built-in minisat');
          process.exitCode = 2;
          return;
        }
        try {
          checkSolvers([opts.solver]);
        } catch (err) {
          console.error(`nonolab sat: ${(err as Error).message}`);
          process.exitCode = 2;
          return;
        }
        for (const file of files) {
          try {
            const text = readDimacs(file);
            parseDimacs(text); // a clear error for a bad file, before any solver sees it
            console.log(JSON.stringify({ file, solver: opts.solver, ...runExternalSolver(opts.solver, text, timeout) }));
          } catch (err) {
            if (err instanceof DimacsError || err instanceof SolverError) console.error(`${file}: ${err.message}`);
            else if ((err as NodeJS.ErrnoException).code) console.error(`${file}: cannot read (${(err as Error).message})`);
            else throw err;
            process.exitCode = 2;
          }
        }
        return;
      }
      let budget: number | undefined;
      if (opts.conflictBudget !== undefined) {
        budget = Number(opts.conflictBudget);
        if (!Number.isInteger(budget) || budget < 0) {
          console.error(`--conflict-budget must be a non-negative integer, got '${opts.conflictBudget}'`);
          process.exitCode = 2;
          return;
        }
      }
      const bar = files.length > 1 && process.stderr.isTTY ? new cliProgress.SingleBar({ stream: process.stderr, format: 'sat [{bar}] {value}/{total} files' }, cliProgress.Presets.shades_classic) : null;
      bar?.start(files.length, 0);
      for (const file of files) {
        try {
          const cnf = parseDimacs(readDimacs(file));
          const t0 = process.hrtime.bigint();
          const r = solveCnf(cnf, { conflictBudget: budget, minisatBinaryOrder: opts.binaryOrder });
          const timeMs = Number(process.hrtime.bigint() - t0) / 1e6;
          const out: Record<string, unknown> = { file, result: r.result, ...r.stats, time_ms: Math.round(timeMs * 1000) / 1000 };
          if (opts.model && r.model) out.model = r.model.map((v, i) => (v ? i + 1 : -(i + 1)));
          bar?.stop();
          console.log(JSON.stringify(out));
          bar?.start(files.length, files.indexOf(file) + 1);
        } catch (err) {
          bar?.stop();
          if (err instanceof DimacsError) console.error(`${file}: ${err.message}`);
          else if ((err as NodeJS.ErrnoException).code) console.error(`${file}: cannot read (${(err as Error).message})`);
          else throw err;
          process.exitCode = 2;
        }
      }
      bar?.stop();
    });
}
