// `nonolab solve` end to end: one JSON line per puzzle from every format, exact counts, clear errors for bad and inconsistent files.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cluesOf, gridToRows, lineClue, randomSolution } from '../../shared/nonogram/index.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
const fixtures = join(root, 'shared/nonogram/fixtures');

/** Does a solution (rows of # and .) match the clues? */
function matches(rows: string[], clues: { rows: number[][]; cols: number[][] }): boolean {
  const height = rows.length;
  const width = rows[0].length;
  const cells = Uint8Array.from(rows.join(''), (ch) => (ch === '#' ? 1 : 2));
  for (let r = 0; r < height; r++) if (lineClue(cells, r * width, width, 1).join() !== clues.rows[r].join()) return false;
  for (let c = 0; c < width; c++) if (lineClue(cells, c, height, width).join() !== clues.cols[c].join()) return false;
  return true;
}

describe('nonolab solve', () => {
  it('prints one JSON line per puzzle for JSON, .non and webpbn XML files', () => {
    const dir = tempDir('nonolab-solve-');
    const twin = { id: 'twin', rows: [[1], [1]], cols: [[1], [1]] };
    const ring = { rows: [[3], [1, 1], [3]], cols: [[3], [1, 1], [3]] };
    writeFileSync(join(dir, 'two.json'), JSON.stringify([twin, ring]));
    const r = cli('solve', join(dir, 'two.json'), join(fixtures, 'simpson-sample.non'), join(fixtures, 'webpbn-sample.xml'));
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    const [a, b] = lines;
    expect(a).toMatchObject({ id: 'twin', width: 2, height: 2, solutions: 2, complete: true });
    expect(a.solution).not.toEqual(a.second);
    expect(matches(a.solution, twin) && matches(a.second, twin)).toBe(true);
    expect(b).toMatchObject({ width: 3, height: 3, solutions: 1, complete: true, settled_by: 'line', solution: ['###', '#.#', '###'] });
    expect(b.second).toBeUndefined();
    for (const line of lines) {
      expect(Object.keys(line).slice(0, 8)).toEqual(['id', 'width', 'height', 'solutions', 'complete', 'time_ms', 'settled_by', 'solution']);
      expect(typeof line.time_ms).toBe('number');
      expect(['line', 'probe', 'search', 'sat']).toContain(line.settled_by);
    }
  });

  it('gives the same counts with every engine, and --count N counts further', () => {
    const dir = tempDir('nonolab-solve-');
    const boards = [0.35, 0.5, 0.65].map((d, k) => {
      const g = randomSolution(12, 12, d, 40 + k);
      const c = cluesOf(g);
      return { id: `b${k}`, rows: c.rows, cols: c.cols, solution: gridToRows(g) };
    });
    const file = join(dir, 'boards.ndjson');
    writeFileSync(file, boards.map((b) => JSON.stringify(b)).join('\n') + '\n');
    const counts = (engine: string, count = '2') => {
      const r = cli('solve', file, '--engine', engine, '--count', count);
      expect(r.status).toBe(0);
      return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    };
    const auto = counts('auto');
    for (const engine of ['line', 'sat']) expect(counts(engine).map((l) => l.solutions)).toEqual(auto.map((l) => l.solutions));
    for (const [k, l] of auto.entries()) {
      expect(l.complete).toBe(true);
      expect(matches(l.solution, boards[k])).toBe(true);
      if (l.solutions === 2) expect(matches(l.second, boards[k])).toBe(true);
    }
    const five = counts('sat', '5');
    for (const [k, l] of five.entries()) {
      expect(l.solutions).toBeGreaterThanOrEqual(auto[k].solutions);
      expect(l.solutions).toBeLessThanOrEqual(5);
      if (auto[k].solutions === 1) expect(l.solutions).toBe(1);
    }
  });

  it('--timeout stops a hard board with complete: false and the count so far', () => {
    const dir = tempDir('nonolab-solve-');
    // A board the solver cannot settle in 8 s on a quiet machine (measured), so a 0.2 s timeout stops it with a wide
    // margin. (A 40x40 at 0.35 used to be the hard board; the SAT stage's line-GAC propagation settles it in 0.2 s.)
    const c = cluesOf(randomSolution(60, 60, 0.45, 3));
    writeFileSync(join(dir, 'hard.json'), JSON.stringify(c));
    const r = cli('solve', join(dir, 'hard.json'), '--timeout', '0.2');
    expect(r.status).toBe(0);
    const line = JSON.parse(r.stdout);
    expect(line.complete).toBe(false);
    expect(line.solutions).toBeLessThan(2);
    expect(line.time_ms).toBeLessThan(5000);
  });

  it('--pretty draws the solutions after the JSON line', () => {
    const dir = tempDir('nonolab-solve-');
    writeFileSync(join(dir, 'twin.json'), JSON.stringify({ rows: [[1], [1]], cols: [[1], [1]] }));
    const r = cli('solve', join(dir, 'twin.json'), '--pretty');
    expect(r.status).toBe(0);
    const [json, ...drawing] = r.stdout.trim().split('\n');
    expect(JSON.parse(json).solutions).toBe(2);
    expect(drawing.join('\n')).toContain('██');
  });

  it('names file, line and field of a malformed file, and solves the other files', () => {
    const dir = tempDir('nonolab-solve-');
    writeFileSync(join(dir, 'broken.json'), '{\n "rows": [[2],\n [1]],\n "cols": [[1],[1],\n}\n');
    writeFileSync(join(dir, 'field.json'), '{\n  "rows": [[1], ["x"]],\n  "cols": [[1], [1]]\n}\n');
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ rows: [[1]], cols: [[1]] }));
    const r = cli('solve', join(dir, 'broken.json'), join(dir, 'field.json'), join(dir, 'ok.json'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'broken.json')}:5: invalid JSON`);
    expect(r.stderr).toContain(`${join(dir, 'field.json')}:2: rows[1]:`);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).solutions).toBe(1);
  });

  it('reports inconsistent clue sets as such, not as 0 solutions', () => {
    const dir = tempDir('nonolab-solve-');
    writeFileSync(join(dir, 'totals.json'), '{\n "rows": [[2], [1]],\n "cols": [[1], [1]]\n}\n');
    writeFileSync(join(dir, 'long.non'), 'width 2\nheight 2\n\nrows\n3\n1\n\ncolumns\n1\n1\n');
    const r = cli('solve', join(dir, 'totals.json'), join(dir, 'long.non'));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${join(dir, 'totals.json')}:3: cols: inconsistent clues: row clues fill 3 cells but column clues fill 2`);
    expect(r.stderr).toContain(`${join(dir, 'long.non')}:5: rows[0]: inconsistent clues: row clue needs 3 cells, the row has 2`);
  });

  it('rejects bad flags naming the flag', () => {
    for (const [flag, value] of [['--count', '0'], ['--timeout', '-1'], ['--engine', 'magic']]) {
      const r = cli('solve', join(fixtures, 'simpson-sample.non'), flag, value);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(flag);
      expect(r.stdout).toBe('');
    }
  });
});
