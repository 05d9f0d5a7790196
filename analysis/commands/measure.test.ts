// `nonolab measure --human` on big boards with a recorded solution: uniqueness by the known-solution question, the same human metrics as the search alone.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { candidateFromSeed, candidateSeed, difficulty } from '../../shared/nonogram/index.ts';
import { removeTempDirs, tempDir } from '../../tests/support/tempDirs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });

afterEach(removeTempDirs);

describe('measure --human on boards above 15x15', () => {
  it('recomputes metrics.human with the recorded solution as the known solution: the metrics the search alone gives', () => {
    const puzzles = [];
    for (let i = 0; puzzles.length < 2 && i < 200; i++) {
      const outcome = candidateFromSeed(16, 16, 0.55, candidateSeed(11, i));
      if ('puzzle' in outcome) puzzles.push(outcome.puzzle);
    }
    expect(puzzles.length).toBe(2);
    const file = join(tempDir('nonolab-measure-'), 'p.ndjson');
    writeFileSync(file, puzzles.map((p) => JSON.stringify({ ...p, metrics: undefined })).join('\n') + '\n');
    const run = cli('measure', file, '--human');
    expect(run.status, run.stderr).toBe(0);
    const measured = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(measured.map((p) => p.metrics.human)).toEqual(puzzles.map((p) => difficulty({ rows: p.rows, cols: p.cols })));
    for (const m of measured) expect(m.metrics.human.unique).toBe(true);
  });

});

describe('measure on clue-only puzzles', () => {
  it('records the solution of a puzzle that has exactly one, and leaves it out when there are several', () => {
    const dir = tempDir('nonolab-measure-');
    const imported = join(dir, 'imported.non');
    writeFileSync(imported, readFileSync(join(root, 'shared/nonogram/fixtures/simpson-sample.non'), 'utf8').replace(/^goal .*$/m, ''));
    const one = cli('measure', imported);
    expect(one.status, one.stderr).toBe(0);
    const [letter] = one.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(letter.solution).toEqual(['####', '#..#', '#..#', '#.##', '###.']);
    expect(letter.metrics.human.unique).toBe(true);
    const twin = join(dir, 'twin.json');
    writeFileSync(twin, JSON.stringify({ id: 'twin', rows: [[1], [1]], cols: [[1], [1]] }));
    const two = cli('measure', twin);
    expect(two.status, two.stderr).toBe(0);
    const [measured] = two.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(measured.solution).toBeUndefined();
    expect(measured.metrics.human.unique).toBe(false);
  });
});

describe('measure --encodings all (issue 36)', () => {
  it('adds MiniSat on line-GAC (metrics.sat_gac): a puzzle line logic solves meets no conflict there, since unit propagation is complete line solving', () => {
    const puzzles = [];
    for (let i = 0; puzzles.length < 6 && i < 400; i++) {
      const outcome = candidateFromSeed(10, 10, 0.5, candidateSeed(3, i));
      if ('puzzle' in outcome) puzzles.push(outcome.puzzle);
    }
    const file = join(tempDir('nonolab-measure-'), 'p.ndjson');
    writeFileSync(file, puzzles.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const paper = cli('measure', file);
    expect(paper.status, paper.stderr).toBe(0);
    expect(paper.stdout).not.toContain('sat_gac');
    const all = cli('measure', file, '--encodings', 'all');
    expect(all.status, all.stderr).toBe(0);
    const records = all.stdout.trim().split('\n').map((l) => JSON.parse(l));
    let lineSolved = 0;
    for (const r of records) {
      expect(Object.keys(r.metrics.sat_gac)).toEqual(['decisions', 'propagations', 'conflicts', 'restarts']);
      if (r.metrics.human.level === 1) {
        lineSolved++;
        // (Decisions may remain on the auxiliary variables once every cell is set, never a conflict.)
        expect(r.metrics.sat_gac.conflicts).toBe(0);
      }
    }
    expect(lineSolved).toBeGreaterThan(0);
    // The paper's two blocks are the same either way.
    const before = paper.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.metrics.sat, r.metrics.sat_dfa])).toEqual(before.map((r) => [r.metrics.sat, r.metrics.sat_dfa]));
    const bad = cli('measure', file, '--encodings', 'some');
    expect([bad.status, bad.stderr.trim()]).toEqual([2, "measure: --encodings must be paper or all, got 'some'"]);
  });
});
