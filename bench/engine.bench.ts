// Engine benchmark: 1,000 unique 10x10 puzzles with human metrics (target < 5 s), candidate rate, acceptance, big-grid uniqueness.
import { performance } from 'node:perf_hooks';
import {
  cluesOf,
  countSolutions,
  createGrid,
  difficulty,
  generatePuzzles,
  propagate,
  randomSolution,
  solveLineInPlace,
} from '../shared/nonogram/index.ts';

const ms = (t: number) => `${t.toFixed(1)} ms`;

// Baseline measured in the same run: raw line-solver throughput on one 10-cell line (so the figures
// below can be read relative to how fast this machine is right now).
const lineMicros = (() => {
  const cells = createGrid(10, 1).cells;
  const clue = [3, 1, 2];
  const n = 200_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    cells.fill(0);
    solveLineInPlace(clue, cells, 0, 10, 1);
  }
  const t = performance.now() - t0;
  console.log(`baseline: complete line solve of a 10-cell line: ${((n / t) * 1000).toFixed(0)} lines/s (${((t / n) * 1000).toFixed(2)} µs each)`);
  return (t / n) * 1000;
})();

// 1,000 uniquely solvable 10x10 puzzles at density 0.5 with all human metrics.
{
  let candidates = 0;
  const t0 = performance.now();
  const puzzles = generatePuzzles({ width: 10, height: 10, density: 0.5, count: 1000, seed: 7 }, (p) => (candidates = p.candidates));
  const t = performance.now() - t0;
  const levels = [1, 2, 3, 4].map((l) => puzzles.filter((p) => p.metrics?.human?.level === l).length);
  console.log(`generate 1,000 unique 10x10 (density 0.5, human metrics): ${ms(t)} (target < 5000 ms: ${t < 5000 ? 'met' : 'MISSED'})`);
  console.log(`  candidates tried: ${candidates}, ${((candidates / t) * 1000).toFixed(0)} candidates/s, acceptance ${((100 * puzzles.length) / candidates).toFixed(1)}%`);
  console.log(`  levels 1/2/3/4: ${levels.join(' / ')}; ${((t * 1000) / candidates / lineMicros).toFixed(0)} baseline line solves per candidate`);
}

// Per-candidate cost split: propagation alone vs. full difficulty grading.
{
  const n = 2000;
  const grids = Array.from({ length: n }, (_, i) => cluesOf(randomSolution(10, 10, 0.5, 1_000_000 + i)));
  let t0 = performance.now();
  for (const c of grids) propagate(c);
  const tProp = performance.now() - t0;
  t0 = performance.now();
  for (const c of grids) difficulty(c, { forcedCells: false });
  const tDiff = performance.now() - t0;
  console.log(`per 10x10 candidate: propagation ${((tProp / n) * 1000).toFixed(0)} µs, uniqueness + grading ${((tDiff / n) * 1000).toFixed(0)} µs`);
}

// Uniqueness (countSolutions, limit 2) of random 25x25 and 30x30 puzzles at density 0.5.
for (const size of [25, 30]) {
  const times: number[] = [];
  for (const seed of [1, 2, 3]) {
    const clues = cluesOf(randomSolution(size, size, 0.5, seed));
    const t0 = performance.now();
    const r = countSolutions(clues, 2);
    const t = performance.now() - t0;
    times.push(t);
    console.log(`uniqueness ${size}x${size} seed ${seed}: ${ms(t)}, ${r.count === 1 ? 'unique' : r.count === 0 ? 'no solution' : 'not unique'}, ${r.nodes} search nodes`);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${size}x${size} median ${ms(times[1])} (${(times[1] * 1000 / lineMicros).toFixed(0)}x a 10-cell line solve)`);
}
