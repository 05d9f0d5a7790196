// The SAT commands end to end through the real CLI: sat on study vectors, cnf -> sat round trip, infer, select, errors.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const vectors = join(root, 'shared/sat/fixtures/minisat');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
const expected = JSON.parse(readFileSync(join(vectors, 'expected.json'), 'utf8')) as Record<string, { result: string; conflicts: number; decisions: number; propagations: number; restarts: number }>;

describe('nonolab sat / cnf / infer / select', () => {
  it('sat prints one JSON line per file with MiniSat 2.2.0 statistics', () => {
    const names = ['nono15-0', 'php6', 'r3sat100-1'];
    const run = cli('sat', ...names.map((n) => join(vectors, `${n}.cnf`)));
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    lines.forEach((line, i) => {
      const e = expected[names[i]];
      expect(line).toMatchObject({ file: join(vectors, `${names[i]}.cnf`), result: e.result, conflicts: e.conflicts, decisions: e.decisions, propagations: e.propagations, restarts: e.restarts });
      expect(typeof line.time_ms).toBe('number');
    });
  });

  it('cnf writes DIMACS whose model (sat --model) solves the puzzle; infer finds every cell of a unique puzzle', () => {
    const dir = tempDir('nonolab-sat-');
    const puzzle = join(dir, 'plus.json');
    writeFileSync(puzzle, JSON.stringify({ rows: [[1], [3], [1]], cols: [[1], [3], [1]] }));
    for (const encoding of ['block-start', 'dfa']) {
      const cnf = cli('cnf', puzzle, '--encoding', encoding);
      expect(cnf.status).toBe(0);
      writeFileSync(join(dir, 'plus.cnf'), cnf.stdout);
      const sat = JSON.parse(cli('sat', join(dir, 'plus.cnf'), '--model').stdout);
      expect(sat.result).toBe('SAT');
      expect(sat.model.slice(0, 9).map((l: number) => (l > 0 ? '#' : '.')).join('')).toBe('.#.###.#.');
      const inf = JSON.parse(cli('infer', puzzle, '--encoding', encoding).stdout);
      expect(inf).toMatchObject({ solvable: true, unique: true, forced_filled: 5, forced_empty: 4, grid: ['.#.', '###', '.#.'] });
    }
  });

  it('conflict budget gives UNKNOWN; bad input names the file and line or field, exit 2', () => {
    const budget = JSON.parse(cli('sat', join(vectors, 'php7.cnf'), '--conflict-budget', '10').stdout);
    expect(budget.result).toBe('UNKNOWN');
    const dir = tempDir('nonolab-sat-');
    writeFileSync(join(dir, 'bad.cnf'), 'p cnf 2 1\n1 x 0\n');
    const bad = cli('sat', join(dir, 'bad.cnf'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/bad\.cnf: line 2: 'x' is not an integer literal/);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ rows: [[1, 'a']], cols: [[1]] }));
    const badPuzzle = cli('cnf', join(dir, 'bad.json'));
    expect(badPuzzle.status).toBe(2);
    expect(badPuzzle.stderr).toMatch(/field rows\.0\.1/);
  });

  it('cnf and infer read every puzzle format the other commands read: .non, webpbn XML, a study config (issue 33)', () => {
    const fixtures = join(root, 'shared/nonogram/fixtures');
    for (const file of [join(fixtures, 'simpson-sample.non'), join(fixtures, 'webpbn-sample.xml'), join(root, 'study-config/study.json')]) {
      const cnf = cli('cnf', file);
      expect([cnf.status, cnf.stderr], file).toEqual([0, '']);
      expect(cnf.stdout).toMatch(/^c nonolab cnf[\s\S]*\np cnf \d+ \d+\n/);
      const infer = cli('infer', file);
      expect([infer.status, infer.stderr], file).toEqual([0, '']);
      expect(JSON.parse(infer.stdout.split('\n')[0]).solvable).toBe(true);
    }
  });

  it('select refuses puzzles without the metric, naming the field', () => {
    const dir = tempDir('nonolab-sat-');
    const p = { id: 'p1', width: 1, height: 1, rows: [[1]], cols: [[1]], solution: ['#'] };
    writeFileSync(join(dir, 'in.ndjson'), JSON.stringify(p) + '\n');
    const run = cli('select', '--in', join(dir, 'in.ndjson'), '--scheme', 'paper');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/metrics\.sat\.conflicts is missing/);
  });
});
