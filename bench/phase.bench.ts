// Benchmark: forced-cell inference per random board (the `nonolab phase` unit of work), fast vs the one-cell-at-a-time reference, by size.
/*
 * Boards are `nonolab phase`'s own (seed 1): for each size N and density d, boards 0..B-1, timed
 * one by one (wall clock, one process, nothing else in it). Part 1 runs the fast inference
 * (shared/sat/infer.ts `forcedCells`) on the line-GAC encoding (`phase`'s default), the same on the
 * block-start encoding, and the reference loop it replaced (block-start) on the same 20x20 boards
 * at d = 0.40 and prints the median ratios; the answers must agree cell for cell
 * (`PHASE_BENCH_PART1=0` skips it). Part 2 uses `PHASE_BENCH_ENCODING` (default line-gac).
 * Part 2 times the fast inference alone, board by board, each in a child stopped at a wall-clock
 * limit (`PHASE_BENCH_SIZES`, default 20,30,40; `PHASE_BENCH_DENSITIES`, default 0.40, comma-
 * separated; `PHASE_BENCH_BOARDS`, default 3; `PHASE_BENCH_LIMIT_S`, default 120), and prints
 * each board's seconds, the median per (size, density), the 40x40 at d = 0.40 median beside the
 * issue's 10 s target, and the literature check's time estimated from these boards (each size's
 * mean seconds a board x 11 densities x 20 boards, summed over 20, 30 and 40; a lower bound when
 * a board hit the limit) beside the 30-minute target. Part 3 (`PHASE_BENCH_THREADS=0` skips it) runs `nonolab phase`
 * on 24 boards of 20x20 with --threads 1 and --threads <cores>, prints the speed-up of the worker threads, checks that the
 * rows are the same, and divides the literature check's estimate by that speed-up. Part 4 (`PHASE_BENCH_CADICAL=0` skips
 * it) asks CaDiCaL, when installed (bench/cadical.ts), for one solution of each part-2 board: the anchor that says whether
 * a board is hard for our solver or for CDCL itself. The load average is printed at start and
 * end: the machine is shared, and the figures mean little without it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cluesOf, createGrid, EMPTY, FILLED, hash53, probeInPlace, propagateInPlace } from '../shared/nonogram/index.ts';
import { createRng } from '../shared/random.ts';
import { encode, forcedCells, forcedCellsReference, type Encoding } from '../shared/sat/index.ts';
import { cadicalPath, cadicalSolve } from './cadical.ts';

function board(size: number, density: number, b: number) {
  const rng = createRng(hash53(`phase:1:${size}:${density}:${b}`)[1]);
  const cells = new Uint8Array(size * size);
  for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < density ? FILLED : EMPTY;
  const clues = cluesOf({ width: size, height: size, cells });
  const known = createGrid(size, size);
  propagateInPlace(clues, known, 'complete');
  probeInPlace(clues, known);
  return { clues, known };
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const time = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const r = f();
  return [r, (performance.now() - t) / 1000];
};

if (process.argv[2] === '--one') {
  // Child: one board, fast inference; prints seconds and counts as JSON.
  const [size, density, b] = process.argv.slice(3, 6).map(Number);
  const encoding = process.argv[6] as Encoding;
  const { clues, known } = board(size, density, b);
  const [r, s] = time(() => forcedCells(clues, { known, encoding }));
  console.log(JSON.stringify({ seconds: s, forced_filled: r.forcedFilled, forced_empty: r.forcedEmpty, solves: r.solves, conflicts: r.stats.conflicts }));
  process.exit(0);
}

if (process.env.PHASE_BENCH_PART1 !== '0') {
  console.log('part 1: 20x20 at d = 0.40, fast on line-gac vs fast on block-start vs reference (same boards, same process)');
  const ratios: number[] = [];
  const gacRatios: number[] = [];
  const fastTimes: number[] = [];
  for (let b = 0; b < 8; b++) {
    const { clues, known } = board(20, 0.4, b);
    const [ref, tr] = time(() => forcedCellsReference(clues, { known }));
    const [fast, tf] = time(() => forcedCells(clues, { known }));
    const [gac, tg] = time(() => forcedCells(clues, { known, encoding: 'line-gac' }));
    if (fast.grid.cells.some((c, i) => c !== ref.grid.cells[i])) throw new Error(`board ${b}: fast and reference inference disagree`);
    if (gac.grid.cells.some((c, i) => c !== ref.grid.cells[i])) throw new Error(`board ${b}: line-gac and reference inference disagree`);
    ratios.push(tr / tf);
    gacRatios.push(tf / tg);
    fastTimes.push(tg);
    console.log(`  board ${b}: reference ${tr.toFixed(2)} s (${ref.solves} calls), fast block-start ${tf.toFixed(2)} s (${fast.solves} calls, ${fast.stats.conflicts} conflicts), fast line-gac ${tg.toFixed(2)} s (${gac.solves} calls, ${gac.stats.conflicts} conflicts)`);
  }
  console.log(`  median: line-gac ${median(fastTimes).toFixed(2)} s a board, ${median(gacRatios).toFixed(2)}x faster than block-start; block-start ${median(ratios).toFixed(2)}x faster than the reference`);
}

const sizes = (process.env.PHASE_BENCH_SIZES ?? '20,30,40').split(',').map(Number);
const densities = (process.env.PHASE_BENCH_DENSITIES ?? process.env.PHASE_BENCH_DENSITY ?? '0.40').split(',').map(Number);
const boards = Number(process.env.PHASE_BENCH_BOARDS ?? 3);
const limit = Number(process.env.PHASE_BENCH_LIMIT_S ?? 120);
const encoding = process.env.PHASE_BENCH_ENCODING ?? 'line-gac';
const self = fileURLToPath(import.meta.url);
const load = () => loadavg().map((x) => x.toFixed(2)).join(', ');
console.log(`part 2: fast inference on ${encoding} per board (each in a child stopped at ${limit} s), sizes ${sizes.join(', ')}, densities ${densities.join(', ')}, boards 0..${boards - 1}; load average at start ${load()} (${cpus().length} cores)`);
const perSize = new Map<number, number[]>();
let target: string | undefined;
for (const size of sizes) {
  for (const density of densities) {
    console.log(`  ${size}x${size} at d = ${density}`);
    const secs: number[] = [];
    for (let b = 0; b < boards; b++) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', self, '--one', String(size), String(density), String(b), encoding], { encoding: 'utf8', timeout: limit * 1000 });
      if (run.status === 0) {
        const r = JSON.parse(run.stdout.trim().split('\n').pop() as string);
        secs.push(r.seconds);
        console.log(`    board ${b}: ${r.seconds.toFixed(1)} s, ${r.solves} calls, ${r.conflicts} conflicts, forced filled ${r.forced_filled}, forced empty ${r.forced_empty}`);
      } else {
        secs.push(Infinity);
        console.log(`    board ${b}: not finished within ${limit} s`);
      }
    }
    perSize.set(size, [...(perSize.get(size) ?? []), ...secs]);
    const m = median(secs);
    const text = Number.isFinite(m) ? `${m.toFixed(1)} s` : `> ${limit} s`;
    console.log(`    median ${text} a board`);
    if (size === 40 && Math.abs(density - 0.4) < 1e-9) target = `40x40 at d = 0.40: median ${text} a board; target 10 s: ${Number.isFinite(m) ? `${(m / 10).toFixed(1)}x the target${m <= 10 ? ' (met)' : ' (not met)'}` : `at least ${(limit / 10).toFixed(0)}x the target (not met)`}`;
  }
}
// The literature check: sizes 20, 30, 40 x densities 0.36..0.46 step 0.01 (11) x 20 boards. Each
// size's measured per-board seconds (mean; an unfinished board counts as the limit, so the
// estimate is then a lower bound) x 11 x 20, summed over the sizes.
let estimate = 0;
let lowerBound = false;
const parts: string[] = [];
for (const size of [20, 30, 40]) {
  const xs = perSize.get(size);
  if (!xs) {
    parts.push(`${size}x${size} not measured`);
    lowerBound = true;
    continue;
  }
  if (xs.some((x) => !Number.isFinite(x))) lowerBound = true;
  const mean = xs.reduce((a, x) => a + (Number.isFinite(x) ? x : limit), 0) / xs.length;
  estimate += mean * 11 * 20;
  parts.push(`${size}x${size}: ${mean.toFixed(1)} s/board x 220 = ${((mean * 220) / 60).toFixed(1)} min`);
}
console.log(target ?? '40x40 at d = 0.40 not measured (PHASE_BENCH_SIZES / PHASE_BENCH_DENSITIES)');
console.log(`literature check (sizes 20, 30, 40; densities 0.36..0.46 step 0.01; 20 boards each = 660 boards), estimated from these per-board times, one board at a time: ${lowerBound ? 'at least ' : ''}${(estimate / 60).toFixed(0)} min (${parts.join('; ')}); target 30 min: ${estimate / 60 <= 30 && !lowerBound ? 'met' : 'not met'}`);

// Part 3: `nonolab phase` itself (the compiled CLI) on the same 20x20 boards with --threads 1 and --threads <cores>: the
// wall-clock speed-up of solving boards on worker threads, and the literature check's estimate divided by it.
if (process.env.PHASE_BENCH_THREADS !== '0') {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale', '--node'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) throw new Error('bench: the build failed');
  const cores = availableParallelism();
  const dir = mkdtempSync(join(tmpdir(), 'nonolab-bench-phase-'));
  const wall = (jobs: number): number => {
    const t = performance.now();
    const run = spawnSync(process.execPath, [join(root, 'bin', 'nonolab.mjs'), 'phase', '--sizes', '20', '--densities', '0.36:0.46:0.02', '--boards', '4', '--threads', String(jobs), '--raw', join(dir, `raw-${jobs}.csv`), '--out', join(dir, `summary-${jobs}.csv`)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`bench: phase --threads ${jobs} failed: ${run.stderr}`);
    return (performance.now() - t) / 1000;
  };
  console.log(`part 3: nonolab phase --sizes 20 --densities 0.36:0.46:0.02 --boards 4 (24 boards), --threads 1 and --threads ${cores}; load average ${load()}`);
  const one = wall(1);
  const many = wall(cores);
  const counts = (jobs: number) => readFileSync(join(dir, `raw-${jobs}.csv`), 'utf8').split('\n').map((l) => l.split(',').slice(0, -1).join(','));
  const same = JSON.stringify(counts(1)) === JSON.stringify(counts(cores));
  rmSync(dir, { recursive: true, force: true });
  const speedup = one / many;
  console.log(`  --threads 1: ${one.toFixed(1)} s; --threads ${cores}: ${many.toFixed(1)} s; speed-up ${speedup.toFixed(2)}x on ${cores} cores; rows identical but for the timings: ${same ? 'yes' : 'NO'}`);
  console.log(`  literature check with --threads ${cores}, estimated: ${lowerBound ? 'at least ' : ''}${(estimate / 60 / speedup).toFixed(0)} min (the one-at-a-time estimate / ${speedup.toFixed(2)}); target 30 min: ${estimate / 60 / speedup <= 30 && !lowerBound ? 'met' : 'not met'}`);
  if (!same) process.exitCode = 1;
}

// Part 4: the anchor (`PHASE_BENCH_CADICAL=0` skips it). CaDiCaL, when installed, asked for one solution of each part-2 board at
// d = 0.40 (the plain solve, the first of the inference's calls; the rest are one per forced cell plus one per model), on the
// same line-GAC CNF, capped at the part-2 limit: whether a board is slow for our solver or for CDCL itself.
if (process.env.PHASE_BENCH_CADICAL !== '0') {
  if (!cadicalPath) console.log('part 4: skipped, CaDiCaL not installed (apt-get install cadical)');
  else {
    const dir = mkdtempSync(join(tmpdir(), 'nonolab-bench-cadical-'));
    console.log(`part 4: CaDiCaL (${cadicalPath}) finding one solution of the same boards, line-GAC CNF, ${limit} s wall cap; load average ${load()}`);
    for (const size of sizes) {
      for (const density of densities) {
        const runs: number[] = [];
        for (let b = 0; b < boards; b++) {
          const r = cadicalSolve(encode(board(size, density, b).clues, 'line-gac'), limit, dir);
          runs.push(r.result === 'UNKNOWN' ? Infinity : r.ms / 1000);
        }
        const m = median(runs);
        console.log(`  ${size}x${size} at d = ${density}: ${runs.map((x) => (Number.isFinite(x) ? `${x.toFixed(1)} s` : `> ${limit} s`)).join(', ')}; median ${Number.isFinite(m) ? `${m.toFixed(1)} s` : `> ${limit} s`} for the first solution alone`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`load average at end ${load()}`);
