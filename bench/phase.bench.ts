// Benchmark: forced-cell inference per random board (the `nonolab phase` unit of work), fast vs the one-cell-at-a-time reference, by size.
/*
 * Boards are `nonolab phase`'s own (seed 1, block-start): for each size N and density d, boards
 * 0..B-1, timed one by one (wall clock, one process, nothing else in it). Part 1 runs both the fast
 * inference (shared/sat/infer.ts `forcedCells`) and the reference loop it replaced on the same
 * 20x20 boards at d = 0.40 and prints the median ratio; the answers must agree cell for cell.
 * Part 2 times the fast inference alone on larger boards (`PHASE_BENCH_SIZES`, default 30,40;
 * `PHASE_BENCH_BOARDS`, default 3; `PHASE_BENCH_DENSITY`, default 0.40; a per-board wall-clock
 * limit, `PHASE_BENCH_LIMIT_S`, default 300, runs each board in a child that is stopped there) and
 * prints each board's seconds and the median, against the issue's target of 10 s at 40x40.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cluesOf, createGrid, EMPTY, FILLED, hash53, propagateInPlace } from '../shared/nonogram/index.ts';
import { createRng } from '../shared/random.ts';
import { forcedCells, forcedCellsReference } from '../shared/sat/index.ts';

function board(size: number, density: number, b: number) {
  const rng = createRng(hash53(`phase:1:${size}:${density}:${b}`)[1]);
  const cells = new Uint8Array(size * size);
  for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < density ? FILLED : EMPTY;
  const clues = cluesOf({ width: size, height: size, cells });
  const known = createGrid(size, size);
  propagateInPlace(clues, known, 'complete');
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
  const [size, density, b] = process.argv.slice(3).map(Number);
  const { clues, known } = board(size, density, b);
  const [r, s] = time(() => forcedCells(clues, { known }));
  console.log(JSON.stringify({ seconds: s, forced_filled: r.forcedFilled, forced_empty: r.forcedEmpty, solves: r.solves, conflicts: r.stats.conflicts }));
  process.exit(0);
}

console.log('part 1: 20x20 at d = 0.40, fast vs reference (same boards, same process)');
const ratios: number[] = [];
const fastTimes: number[] = [];
for (let b = 0; b < 8; b++) {
  const { clues, known } = board(20, 0.4, b);
  const [ref, tr] = time(() => forcedCellsReference(clues, { known }));
  const [fast, tf] = time(() => forcedCells(clues, { known }));
  if (fast.grid.cells.some((c, i) => c !== ref.grid.cells[i])) throw new Error(`board ${b}: fast and reference inference disagree`);
  ratios.push(tr / tf);
  fastTimes.push(tf);
  console.log(`  board ${b}: reference ${tr.toFixed(2)} s (${ref.solves} calls), fast ${tf.toFixed(2)} s (${fast.solves} calls), ratio ${(tr / tf).toFixed(2)}`);
}
console.log(`  median: fast ${median(fastTimes).toFixed(2)} s a board, ${median(ratios).toFixed(2)}x faster than the reference`);

const sizes = (process.env.PHASE_BENCH_SIZES ?? '30,40').split(',').map(Number);
const boards = Number(process.env.PHASE_BENCH_BOARDS ?? 3);
const density = Number(process.env.PHASE_BENCH_DENSITY ?? 0.4);
const limit = Number(process.env.PHASE_BENCH_LIMIT_S ?? 300);
const self = fileURLToPath(import.meta.url);
for (const size of sizes) {
  console.log(`part 2: ${size}x${size} at d = ${density}, fast inference, ${boards} boards, limit ${limit} s each`);
  const secs: number[] = [];
  for (let b = 0; b < boards; b++) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', self, '--one', String(size), String(density), String(b)], { encoding: 'utf8', timeout: limit * 1000 });
    if (run.status === 0) {
      const r = JSON.parse(run.stdout.trim().split('\n').pop() as string);
      secs.push(r.seconds);
      console.log(`  board ${b}: ${r.seconds.toFixed(1)} s, ${r.solves} calls, ${r.conflicts} conflicts, forced filled ${r.forced_filled}, forced empty ${r.forced_empty}`);
    } else {
      secs.push(Infinity);
      console.log(`  board ${b}: not finished within ${limit} s`);
    }
  }
  const m = median(secs);
  console.log(`  median ${Number.isFinite(m) ? m.toFixed(1) + ' s' : `> ${limit} s`} a board${size === 40 ? ` (target: 10 s; ${Number.isFinite(m) ? (m / 10).toFixed(1) + 'x the target' : 'not met'})` : ''}`);
}
