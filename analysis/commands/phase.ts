// `nonolab phase`: Foote & Krizanc's phase-transition experiment on random Bernoulli boards (inferable cells and solver effort vs density), CSV + SVG.
/*
 * For each size N, density d and board b: fill each cell of an N x N board independently with
 * probability d (seeded per (seed, N, d, b)), take its clues, and find the inferable cells (same
 * value in every solution of those clues) by SAT under assumptions, counting forced-filled and
 * forced-empty cells separately (the published experiment counted only forced-filled ones). Cells
 * fixed by complete line solving are certainly forced and are given to the solver as units first
 * (this changes no count, only the time). Solver effort is MiniSat 2.2.0's statistics on one plain
 * solve of the board's CNF, and the totals over the inference calls. Near d = 0.4 single calls can
 * take very long (the problem is NP-hard there): `--conflict-budget` bounds each call, and cells
 * whose call ran out are reported as undecided, never guessed.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import Papa from 'papaparse';
import { cluesOf, createGrid, EMPTY, FILLED, hash53, propagateInPlace } from '../../shared/nonogram/index.ts';
import { createRng } from '../../shared/random.ts';
import { forcedCells, satMetrics, type Encoding } from '../../shared/sat/index.ts';
import { parseEncoding, InputError } from './cnf.ts';
import { progressBar } from './measure.ts';
import { renderSvg } from './plotMetrics.ts';

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

export interface BoardRow {
  size: number;
  density: number;
  board: number;
  filled: number;
  forced_filled: number;
  forced_empty: number;
  undecided: number;
  unique: boolean;
  conflicts: number;
  decisions: number;
  propagations: number;
  inference_solves: number;
  inference_conflicts: number;
}

export function runBoard(size: number, density: number, board: number, seed: number, encoding: Encoding, budget: number | undefined): BoardRow {
  const rng = createRng(hash53(`phase:${seed}:${size}:${density}:${board}`)[1]);
  const cells = new Uint8Array(size * size);
  let filled = 0;
  for (let i = 0; i < cells.length; i++) {
    cells[i] = rng.next() < density ? FILLED : EMPTY;
    if (cells[i] === FILLED) filled++;
  }
  const clues = cluesOf({ width: size, height: size, cells });
  const plain = satMetrics(clues, encoding, { conflictBudget: budget });
  const known = createGrid(size, size);
  propagateInPlace(clues, known, 'complete');
  const inf = forcedCells(clues, { encoding, known, conflictBudget: budget });
  return {
    size,
    density,
    board,
    filled,
    forced_filled: inf.forcedFilled,
    forced_empty: inf.forcedEmpty,
    undecided: inf.undecided,
    unique: inf.unique,
    conflicts: plain.conflicts,
    decisions: plain.decisions,
    propagations: plain.propagations,
    inference_solves: inf.solves,
    inference_conflicts: inf.stats.conflicts,
  };
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
    };
  });
}

export function registerPhase(program: Command): void {
  program
    .command('phase')
    .description("Foote & Krizanc's phase transition: inferable cells (forced filled and forced empty) and solver effort vs density on random boards")
    .option('--sizes <list>', 'board sizes N (N x N), comma-separated', '15,20,25')
    .option('--densities <range>', 'START:END:STEP or one value', '0.30:0.60:0.01')
    .option('--boards <n>', 'boards per (size, density)', '50')
    .option('--seed <n>', 'seed', '1')
    .option('--encoding <name>', 'block-start or dfa', 'block-start')
    .option('--conflict-budget <n>', 'conflicts allowed per solver call (undecided cells are reported)')
    .option('--out <file>', 'summary CSV (default stdout)')
    .option('--raw <file>', 'per-board CSV')
    .option('--plot <file>', 'SVG plot of the inferable fraction and the effort vs density')
    .action(async (opts: { sizes: string; densities: string; boards: string; seed: string; encoding: string; conflictBudget?: string; out?: string; raw?: string; plot?: string }) => {
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
        const total = sizes.length * densities.length * boards;
        const bar = progressBar('phase', total);
        const rows: BoardRow[] = [];
        for (const size of sizes)
          for (const density of densities)
            for (let b = 0; b < boards; b++) {
              rows.push(runBoard(size, density, b, seed, encoding, budget));
              bar.update(rows.length);
            }
        bar.stop();
        const summary = summarise(rows);
        const csv = Papa.unparse(summary) + '\n';
        if (opts.out) writeFileSync(opts.out, csv);
        else process.stdout.write(csv);
        if (opts.raw) writeFileSync(opts.raw, Papa.unparse(rows) + '\n');
        if (opts.plot) {
          const long = summary.flatMap((s) => [
            { size: `${s.size}x${s.size}`, density: s.density, kind: 'forced (filled + empty)', value: s.forced_fraction },
            { size: `${s.size}x${s.size}`, density: s.density, kind: 'forced filled only', value: s.forced_filled_fraction },
          ]);
          const effort = summary.map((s) => ({ size: `${s.size}x${s.size}`, density: s.density, conflicts: s.mean_inference_conflicts }));
          const svg = await renderSvg({
            $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
            title: `Inferable cells and solver effort on random boards (${boards} per point, seed ${seed}, ${encoding})`,
            vconcat: [
              {
                width: 560,
                height: 260,
                data: { values: long },
                mark: { type: 'line', point: true },
                encoding: {
                  x: { field: 'density', type: 'quantitative', title: 'filled-cell density' },
                  y: { field: 'value', type: 'quantitative', title: 'mean fraction of cells inferable' },
                  color: { field: 'size', type: 'nominal' },
                  strokeDash: { field: 'kind', type: 'nominal' },
                },
              },
              {
                width: 560,
                height: 200,
                data: { values: effort },
                mark: { type: 'line', point: true },
                encoding: {
                  x: { field: 'density', type: 'quantitative', title: 'filled-cell density' },
                  y: { field: 'conflicts', type: 'quantitative', title: 'mean conflicts (inference)', scale: { type: 'symlog' } },
                  color: { field: 'size', type: 'nominal' },
                },
              },
            ],
          });
          writeFileSync(opts.plot, svg);
        }
        console.error(`phase: ${rows.length} boards${opts.out ? ` -> ${opts.out}` : ''}${opts.plot ? `, plot -> ${opts.plot}` : ''}`);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        console.error(err.message);
        process.exitCode = 2;
      }
    });
}
