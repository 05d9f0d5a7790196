// Benchmark: `from-image` on pictures drawn here (the docs' smiley, scattered dots, a thin cross), changes and time, beside one uniqueness check of the result.
/*
 * No target yet (issue 23 set none): it prints, per picture at 20x20, the changes the greedy search
 * made, the human level, the whole pipeline's time (decode, resample, threshold, search, metrics),
 * and that time as a multiple of one `solvePuzzle` uniqueness check of the final puzzle measured in
 * the same run, so machines of different speed compare.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { solvePuzzle } from '../shared/nonogram/index.ts';
import { puzzleFromImage } from '../analysis/commands/fromImage.ts';

const dir = mkdtempSync(join(tmpdir(), 'nonolab-bench-from-image-'));
const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#fff"/>${body}</svg>`;
const pictures: Record<string, string> = {
  smiley: svg('<circle cx="100" cy="100" r="85" fill="none" stroke="#000" stroke-width="12"/><circle cx="70" cy="75" r="12" fill="#000"/><circle cx="130" cy="75" r="12" fill="#000"/><path d="M55 120 Q100 170 145 120" fill="none" stroke="#000" stroke-width="10"/>'),
  dots: svg(Array.from({ length: 50 }, (_, i) => `<rect x="${(i * 37) % 190}" y="${(i * 53) % 190}" width="14" height="14" fill="#000"/>`).join('')),
  cross: svg('<path d="M0 0 L200 200 M200 0 L0 200 M100 0 L200 100" stroke="#000" stroke-width="11"/>'),
};
try {
  for (const [name, text] of Object.entries(pictures)) {
    const file = join(dir, `${name}.svg`);
    writeFileSync(file, text);
    const t0 = performance.now();
    const { record } = await puzzleFromImage(file, { width: 20, height: 20, threshold: 'auto', invert: false, maxChanges: 80 });
    const total = performance.now() - t0;
    const reps = 20;
    const t1 = performance.now();
    for (let i = 0; i < reps; i++) solvePuzzle({ rows: record.rows, cols: record.cols });
    const check = (performance.now() - t1) / reps;
    console.log(
      `${name.padEnd(7)} 20x20: ${record.saved ? 'unique' : 'NOT saved'} after ${String(record.changed_cells.length).padStart(2)} changes, level ${record.metrics?.human?.level}, ` +
        `${(total / 1000).toFixed(2)} s (${Math.round(total / check)}x one uniqueness check of the result, ${check.toFixed(1)} ms)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
