// `nonolab phase`: Foote & Krizanc's phase-transition experiment on random Bernoulli boards (inferable cells and solver effort vs density), CSV + SVG.
/*
 * For each size N, density d and board b: fill each cell of an N x N board independently with
 * probability d (seeded per (seed, N, d, b)), take its clues, and find the inferable cells (same
 * value in every solution of those clues) by SAT under assumptions on one incremental solver
 * (shared/sat/infer.ts) on the line-GAC encoding by default (shared/sat/lineGac.ts: unit
 * propagation is complete line solving, so each call needs 4-5x fewer conflicts than on the
 * block-start CNF; the counts are the same on every encoding), counting forced-filled and forced-empty cells separately (the published
 * experiment counted only forced-filled ones). Cells fixed by complete line solving and then by
 * probing (a cell whose one value leads line solving into a contradiction has the other) are
 * certainly forced and are given to the solver as units after its first model (this changes no
 * count, only the time: above d = 0.44 probing fixes most of the backbone of a 30x30 board). The board itself is a solution: when the plain solve runs out of `--conflict-budget`
 * the inference goes on from it, so a budgeted run of a big board still proves what it can. Solver effort is MiniSat 2.2.0's statistics on the inference's first call, which is a
 * plain solve of the board's CNF, and the totals over all the inference calls. Near d = 0.4 single
 * calls can take very long (the problem is NP-hard there): `--conflict-budget` bounds each call,
 * and cells whose call ran out are reported as undecided, never guessed.
 * The claim under test: the forced-filled share (forced-filled cells / filled cells, per board)
 * jumps from near 0 to near 1 as d crosses about 0.39-0.42, more sharply as N grows. Per size, the
 * density where the mean share crosses 0.5 is estimated with a seeded bootstrap interval
 * (analysis/stats/threshold.ts). Rows are written as each (size, density) finishes, so an
 * interrupted run keeps what it did.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { TopLevelSpec } from 'vega-lite';
import Papa from 'papaparse';
import { availableParallelism } from 'node:os';
import type { Encoding } from '../../shared/sat/index.ts';
import { runOnWorkers } from '../pipeline/workers.ts';
import { forcedFilledShare, timedBoard, type BoardRow } from './phaseBoard.ts';
import type { PhaseJob, PhaseResult } from './phaseWorker.ts';
import { thresholdBootstrap } from '../stats/threshold.ts';
import { parseEncoding, InputError } from './cnf.ts';
import { progressBar } from './measure.ts';
import { renderSvg } from './plotMetrics.ts';
import { commandDescription } from './catalog.ts';
import { outputFilesProblem } from './outputPaths.ts';

export { forcedFilledShare, runBoard, type BoardRow } from './phaseBoard.ts';

export function parseRange(text: string): number[] {
  const m = /^([\d.]+):([\d.]+):([\d.]+)$/.exec(text.trim());
  if (!m) {
    const single = Number(text);
    if (text.trim() !== '' && Number.isFinite(single)) return [single];
    throw new InputError(`--densities: expected START:END:STEP (e.g. 0.30:0.60:0.01) or one number, got '${text}'`);
  }
  const [start, end, step] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!(step > 0) || end < start) throw new InputError(`--densities: need STEP > 0 and END >= START, got '${text}'`);
  const count = Math.round((end - start) / step) + 1;
  return Array.from({ length: count }, (_, i) => Math.round((start + i * step) * 1e6) / 1e6);
}

export function summarise(rows: BoardRow[]): Record<string, number>[] {
  const groups = new Map<string, BoardRow[]>();
  for (const r of rows) {
    const key = `${r.size}:${r.density}`;
    if (!groups.has(key)) groups.set(key, []);
    (groups.get(key) as BoardRow[]).push(r);
  }
  return [...groups.values()].map((g) => {
    const cells = g[0].size * g[0].size;
    const mean = (f: (r: BoardRow) => number) => Math.round((g.reduce((s, r) => s + f(r), 0) / g.length) * 1e6) / 1e6;
    return {
      size: g[0].size,
      density: g[0].density,
      boards: g.length,
      filled_fraction: mean((r) => r.filled / cells),
      forced_filled_share: mean(forcedFilledShare),
      forced_fraction: mean((r) => (r.forced_filled + r.forced_empty) / cells),
      forced_filled_fraction: mean((r) => r.forced_filled / cells),
      forced_empty_fraction: mean((r) => r.forced_empty / cells),
      undecided_fraction: mean((r) => r.undecided / cells),
      unique_fraction: mean((r) => (r.unique ? 1 : 0)),
      mean_conflicts: mean((r) => r.conflicts),
      mean_decisions: mean((r) => r.decisions),
      mean_propagations: mean((r) => r.propagations),
      mean_inference_solves: mean((r) => r.inference_solves),
      mean_inference_conflicts: mean((r) => r.inference_conflicts),
      mean_seconds: mean((r) => r.seconds ?? NaN),
    };
  });
}

export interface SizeThreshold {
  size: number;
  threshold: number;
  threshold_lo: number;
  threshold_hi: number;
  threshold_boot_crossed: number;
}

/** Per size: the density where the mean forced-filled share crosses 0.5, with a seeded 95 % bootstrap interval. */
export function thresholds(rows: BoardRow[], seed: number, replicates = 1000): SizeThreshold[] {
  const sizes = [...new Set(rows.map((r) => r.size))];
  return sizes.map((size) => {
    const densities = [...new Set(rows.filter((r) => r.size === size).map((r) => r.density))].sort((a, b) => a - b);
    const groups = densities.map((d) => rows.filter((r) => r.size === size && r.density === d).map(forcedFilledShare));
    const t = thresholdBootstrap(densities, groups, { replicates, seed: seed * 1000 + size });
    const r4 = (x: number) => (Number.isNaN(x) ? NaN : Math.round(x * 1e4) / 1e4);
    return { size, threshold: r4(t.threshold), threshold_lo: r4(t.lo), threshold_hi: r4(t.hi), threshold_boot_crossed: t.crossed };
  });
}

/** The summary rows with their size's threshold columns (blank until every density of the size is done). */
export function summaryWithThresholds(rows: BoardRow[], complete: Set<number>, seed: number): Record<string, number | string>[] {
  const th = new Map(thresholds(rows.filter((r) => complete.has(r.size)), seed).map((t) => [t.size, t]));
  const blank = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '' : x);
  return summarise(rows).map((s) => {
    const t = th.get(s.size);
    return {
      ...s,
      mean_seconds: blank(s.mean_seconds),
      threshold: blank(t?.threshold),
      threshold_lo: blank(t?.threshold_lo),
      threshold_hi: blank(t?.threshold_hi),
      threshold_boot_crossed: blank(t?.threshold_boot_crossed),
    };
  });
}

/** Writes a file whole or not at all (a temporary file renamed over it). */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.partial-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function registerPhase(program: Command): void {
  program
    .command('phase')
    .description(commandDescription('phase'))
    .option('--sizes <list>', 'board sizes N (N x N), comma-separated', '15,20,25')
    .option('--densities <range>', 'START:END:STEP or one value', '0.30:0.60:0.01')
    .option('--boards <n>', 'boards per (size, density)', '50')
    .option('--seed <n>', 'seed (boards and bootstrap)', '1')
    .option('--encoding <name>', 'the inference\'s CNF: line-gac (unit propagation = complete line solving; the fastest), block-start or dfa', 'line-gac')
    .option('--conflict-budget <n>', 'conflicts allowed per solver call (undecided cells are reported)')
    .option('--out <file>', 'summary CSV, rewritten as each (size, density) finishes (default: stdout at the end)')
    .option('--raw <file>', 'per-board CSV, rewritten as each (size, density) finishes')
    .option('--plot <file>', 'SVG: forced-filled share vs density per size with the 0.39-0.42 band, and the effort (rewritten as each (size, density) finishes)')
    .option('--threads <n>', 'worker threads solving boards at once, one board each (default: one per core; 1: this thread only); every count is the same for any value')
    .action(async (opts: { sizes: string; densities: string; boards: string; seed: string; encoding: string; conflictBudget?: string; out?: string; raw?: string; plot?: string; threads?: string }) => {
      try {
        const sizes = opts.sizes.split(',').map((s) => Number(s.trim()));
        if (sizes.some((s) => !Number.isInteger(s) || s < 1 || s > 60)) throw new InputError(`--sizes: expected integers 1..60, got '${opts.sizes}'`);
        const densities = parseRange(opts.densities);
        if (densities.some((d) => d < 0 || d > 1)) throw new InputError(`--densities: values must lie in [0, 1], got '${opts.densities}'`);
        const boards = Number(opts.boards);
        const seed = Number(opts.seed);
        if (!Number.isInteger(boards) || boards < 1) throw new InputError(`--boards must be a positive integer, got '${opts.boards}'`);
        if (!Number.isInteger(seed)) throw new InputError(`--seed must be an integer, got '${opts.seed}'`);
        const budget = opts.conflictBudget === undefined ? undefined : Number(opts.conflictBudget);
        if (budget !== undefined && !(Number.isInteger(budget) && budget >= 0)) throw new InputError(`--conflict-budget must be a non-negative integer, got '${opts.conflictBudget}'`);
        const encoding = parseEncoding(opts.encoding);
        const threads = opts.threads === undefined ? availableParallelism() : Number(opts.threads);
        if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new InputError(`--threads: expected an integer from 1 to 64, got '${opts.threads}'`);
        // Output files are checked before any board is solved, not after.
        const outputProblem = outputFilesProblem([['--out', opts.out], ['--raw', opts.raw], ['--plot', opts.plot]]);
        if (outputProblem) throw new InputError(outputProblem);
        const tasks: BoardTask[] = sizes.flatMap((size) => densities.flatMap((density) => Array.from({ length: boards }, (_, board) => ({ size, density, board }))));
        // Boards take seconds to minutes: a redirected stderr (a log file) gets a progress line every 10 s too.
        const bar = progressBar('phase', tasks.length, { nonTtyEveryMs: 10_000 });
        const rows: BoardRow[] = [];
        const complete = new Set<number>();
        const flush = async () => {
          const summary = summaryWithThresholds(rows, complete, seed);
          if (opts.out) writeAtomic(opts.out, Papa.unparse(summary) + '\n');
          if (opts.raw) writeAtomic(opts.raw, Papa.unparse(rows) + '\n');
          if (opts.plot) writeAtomic(opts.plot, await renderSvg(phasePlot(summary, { boards, seed, encoding })));
        };
        // Boards finish in any order on several threads; a (size, density) is written once all its boards are in,
        // in task order, so the files are the same as with --threads 1 (but for each board's seconds).
        const results: (BoardRow | undefined)[] = Array.from({ length: tasks.length }, () => undefined);
        const landed = (from: number) => results.slice(from, from + boards).every((r) => r !== undefined);
        let committed = 0;
        let flushed = 0;
        let done = 0;
        let writing = Promise.resolve();
        // A file that cannot be written stops the run at once (no more boards are started) and is reported.
        const run = { failure: null as Error | null };
        const land = (index: number, row: BoardRow) => {
          results[index] = row;
          bar.update(++done);
          writing = writing
            .then(async () => {
              while (run.failure === null && committed < tasks.length && landed(committed)) {
                rows.push(...(results.slice(committed, committed + boards) as BoardRow[]));
                const { size, density } = tasks[committed];
                if (density === densities[densities.length - 1]) complete.add(size);
                committed += boards;
                await flush();
                flushed++;
              }
            })
            .catch((error: unknown) => {
              run.failure ??= error instanceof Error ? error : new Error(String(error));
            });
        };
        const job = (index: number): PhaseJob => ({ index, ...tasks[index], seed, encoding, budget });
        try {
          if (Math.min(threads, tasks.length) <= 1) {
            for (let i = 0; i < tasks.length && run.failure === null; i++) {
              const { size, density, board } = tasks[i];
              land(i, timedBoard(size, density, board, seed, encoding, budget));
              await writing;
            }
          } else
            await runOnWorkers<PhaseResult>('phaseWorker', {
              threads,
              count: tasks.length,
              job,
              receive: (m) => {
                if ('error' in m) throw new Error(`phase: board ${m.index}: ${m.error}`);
                land(m.index, m.row);
                return true;
              },
              stopped: () => run.failure !== null,
              label: 'phase',
            });
          await writing;
        } finally {
          bar.stop();
        }
        if (run.failure !== null)
          throw new InputError(`phase: ${run.failure.message} (${flushed ? `the rows of the ${flushed} (size, density) written before are kept` : 'nothing was written'})`);
        const summary = summaryWithThresholds(rows, complete, seed);
        if (!opts.out) process.stdout.write(Papa.unparse(summary) + '\n');
        for (const t of thresholds(rows, seed)) {
          const fmt = (x: number) => (Number.isNaN(x) ? 'none' : x.toFixed(3));
          console.error(`phase: ${t.size}x${t.size} threshold ${fmt(t.threshold)} [${fmt(t.threshold_lo)}, ${fmt(t.threshold_hi)}]`);
        }
        console.error(`phase: ${rows.length} boards${opts.out ? ` -> ${opts.out}` : ''}${opts.plot ? `, plot -> ${opts.plot}` : ''}`);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        console.error(err.message);
        process.exitCode = 2;
      }
    });
}

interface BoardTask {
  size: number;
  density: number;
  board: number;
}

/** The vega-lite spec of `--plot`: the forced-filled share per size with the literature's band, then the effort. */
export function phasePlot(summary: Record<string, number | string>[], meta: { boards: number; seed: number; encoding: string }): TopLevelSpec {
  const share = summary.map((s) => ({ size: `${s.size}x${s.size}`, density: s.density, share: s.forced_filled_share }));
  const effort = summary.map((s) => ({ size: `${s.size}x${s.size}`, density: s.density, conflicts: s.mean_inference_conflicts }));
  const x = { field: 'density', type: 'quantitative', title: 'filled-cell density', scale: { zero: false } } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `Forced-filled share on random boards (${meta.boards} per point, seed ${meta.seed}, ${meta.encoding})`,
    vconcat: [
      {
        width: 560,
        height: 280,
        layer: [
          {
            data: { values: [{ from: 0.39, to: 0.42, label: 'Foote & Krizanc: 0.39-0.42' }] },
            mark: { type: 'rect', color: '#f2d16b', opacity: 0.35 },
            encoding: { x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' }, tooltip: { field: 'label' } },
          },
          {
            data: { values: [{ y: 0.5 }] },
            mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' },
            encoding: { y: { field: 'y', type: 'quantitative' } },
          },
          {
            data: { values: share },
            mark: { type: 'line', point: true },
            encoding: {
              x,
              y: { field: 'share', type: 'quantitative', title: 'forced-filled share (of filled cells)', scale: { domain: [0, 1] } },
              color: { field: 'size', type: 'nominal', title: 'board' },
            },
          },
        ],
      },
      {
        width: 560,
        height: 180,
        data: { values: effort },
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'conflicts', type: 'quantitative', title: 'mean conflicts (inference)', scale: { type: 'symlog' } },
          color: { field: 'size', type: 'nominal', title: 'board' },
        },
      },
    ],
  };
}
