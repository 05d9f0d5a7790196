// `nonolab measure FILE`: add SAT metrics (block-start and DFA) and, where missing, human metrics and the solution to puzzle records.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { difficulty, gridFromRows, KnownSolutionError } from '../../shared/nonogram/index.ts';
import { loadPuzzles } from '../puzzleFile.ts';
import { withSolution } from '../puzzleSolution.ts';
import { encodeBlockStart, satMetrics, satMetricsRecord, writeDimacs } from '../../shared/sat/index.ts';
import { checkSolvers, runExternalSolver, SOLVER_NAMES } from '../sat/external.ts';
import { commandDescription } from './catalog.ts';
import { otherKindFile, type KindFile } from '../kindFile.ts';
import { outputFileProblem } from './outputPaths.ts';

export function progressBar(label: string, total: number, options: { nonTtyEveryMs?: number } = {}): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted}`, etaBuffer: 50, noTTYOutput: options.nonTtyEveryMs !== undefined, notTTYSchedule: options.nonTtyEveryMs },
    cliProgress.Presets.shades_classic,
  );
  let started = 0;
  const start = bar.start.bind(bar);
  bar.start = (t: number, v: number, payload?: object) => {
    started = Date.now();
    start(t, v, { rate: '0', ...payload });
  };
  const update = bar.update.bind(bar) as (v: number, payload?: object) => void;
  bar.update = ((v: number, payload?: object) => {
    const secs = (Date.now() - started) / 1000;
    update(v, { rate: secs > 0 ? (v / secs).toFixed(1) : '0', ...payload });
  }) as typeof bar.update;
  bar.start(total, 0);
  return bar;
}

export function registerMeasure(program: Command): void {
  program
    .command('measure')
    .description(commandDescription('measure'))
    .argument('<file>', 'puzzles: JSON, JSON array, NDJSON (as generate writes), .non or webpbn XML')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from the file)')
    .option('--out <file>', 'write NDJSON here instead of stdout')
    .option('--human', 'recompute metrics.human even when present')
    .option('--encodings <set>', "paper: MiniSat on block-start (metrics.sat) and DFA (metrics.sat_dfa), as the paper measured; all: also on line-GAC (metrics.sat_gac), the encoding whose unit propagation is complete line solving (a Sudoku: both of its encodings either way)", 'paper')
    .option('--solvers <list>', `also run these solvers on the block-start CNF and store metrics.sat_<name> (comma-separated; minisat: the built-in one, the same counters as metrics.sat; installed ones: ${SOLVER_NAMES.filter((n) => n !== 'minisat').join(', ')})`)
    .action((file: string, opts: { kind?: string; out?: string; human?: boolean; solvers?: string; encodings: string }) => {
      if (opts.encodings !== 'paper' && opts.encodings !== 'all') {
        console.error(`measure: --encodings must be paper or all, got '${opts.encodings}'`);
        process.exitCode = 2;
        return;
      }
      const other = otherKindFile('measure', file, opts.kind);
      if (other === 'error') return;
      if (other) return measureKind(other, opts);
      const solvers = (opts.solvers ?? '').split(',').map((x) => x.trim()).filter(Boolean);
      try {
        checkSolvers(solvers);
      } catch (err) {
        console.error(`nonolab measure: ${(err as Error).message}`);
        process.exitCode = 2;
        return;
      }
      // The output is checked before any puzzle is measured.
      const outProblem = opts.out === undefined ? null : outputFileProblem('--out', opts.out);
      if (outProblem) {
        console.error(`nonolab measure: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      const puzzles = loadPuzzles(file);
      if (!puzzles) return;
      const bar = progressBar('measure', puzzles.length);
      const lines: string[] = [];
      let refused = false;
      puzzles.forEach((given, i) => {
        if (refused) return;
        // A clue-only puzzle (.non without goal, XML without a solution) gets its solution when it has exactly one:
        // what a study config needs, and the known solution that decides uniqueness on big boards below.
        const p = given.solution || given.metrics?.human?.unique === false ? given : withSolution(given).puzzle;
        const metrics = { ...(p.metrics ?? {}) };
        if (opts.human || !metrics.human) {
          // Big boards with a recorded solution: uniqueness by the known-solution question (exact, fast).
          const known = p.solution && p.width * p.height > 225 ? { knownSolution: gridFromRows([...p.solution]) } : {};
          try {
            metrics.human = difficulty(p, known);
          } catch (err) {
            if (!(err instanceof KnownSolutionError)) throw err;
            console.error(`nonolab measure: puzzle ${p.id}: its solution does not match its clues (${err.message}); nothing written`);
            process.exitCode = 2;
            refused = true;
            return;
          }
        }
        Object.assign(metrics, satMetricsRecord(p, { encodings: opts.encodings as 'paper' | 'all' }));
        if (solvers.includes('minisat')) {
          // the built-in MiniSat's block-start counters, also under the --solvers naming (the same numbers as metrics.sat)
          const { decisions, propagations, conflicts, result } = satMetrics(p, 'block-start');
          metrics.sat_minisat = { decisions, propagations, conflicts, result };
        }
        const external = solvers.filter((n) => n !== 'minisat');
        if (external.length) {
          const dimacs = writeDimacs(encodeBlockStart(p));
          for (const name of external) {
            const { result, decisions, propagations, conflicts } = runExternalSolver(name, dimacs);
            metrics[`sat_${name}`] = { decisions, propagations, conflicts, result };
          }
        }
        lines.push(JSON.stringify({ ...p, metrics }));
        bar.update(i + 1);
      });
      bar.stop();
      if (refused) return;
      const text = lines.join('\n') + '\n';
      if (opts.out) {
        writeFileSync(opts.out, text);
        console.error(`measure: ${puzzles.length} puzzles -> ${opts.out}`);
      } else process.stdout.write(text);
    });
}

/**
 * Another kind's records (Sudoku): each gets its unique solution (a board without one is named and nothing is
 * written), its human measures (`metrics.human`, unless present and not --human) and MiniSat's statistics on each of
 * its encodings (`metrics.sat_minimal`, `metrics.sat_extended`).
 */
function measureKind(other: KindFile, opts: { out?: string; human?: boolean; solvers?: string }): void {
  const { kind, records } = other;
  if (opts.solvers) {
    console.error(`measure: --solvers runs outside solvers on the Nonogram block-start CNF only; a ${kind.name} is measured by the built-in MiniSat on each encoding`);
    process.exitCode = 2;
    return;
  }
  const lines: string[] = [];
  for (const given of records) {
    let record;
    try {
      record = kind.withSolution(given);
    } catch (err) {
      console.error(`measure: ${(err as Error).message}; nothing written`);
      process.exitCode = 2;
      return;
    }
    const metrics = { ...(record.metrics ?? {}) };
    if (opts.human || !metrics.human) metrics.human = kind.humanMetrics(record);
    Object.assign(metrics, kind.satMetrics(record));
    lines.push(kind.writeRecord({ ...record, metrics }));
  }
  const text = lines.join('\n') + '\n';
  if (opts.out) {
    writeFileSync(opts.out, text);
    console.error(`measure: ${records.length} ${kind.name} puzzles -> ${opts.out}`);
  } else process.stdout.write(text);
}
