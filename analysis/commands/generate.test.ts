// `nonolab generate` end to end: NDJSON on stdout only, byte-identical for the same arguments, valid records.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Puzzle } from '../../shared/schema/puzzle.ts';
import { candidateSeed, countSolutions, solvePuzzle } from '../../shared/nonogram/index.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });

describe('nonolab generate', () => {
  it('writes the same unique puzzles for the same seed, to stdout or a file', () => {
    const args = ['generate', '--size', '8x8', '--density', '0.5', '--count', '12', '--seed', '11'];
    const a = cli(...args);
    expect(a.status).toBe(0);
    const out = join(tempDir('nonolab-gen-'), 'p.ndjson');
    const b = cli(...args, '--out', out);
    expect(b.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(a.stdout);
    const lines = a.stdout.trim().split('\n');
    expect(lines).toHaveLength(12);
    for (const line of lines) {
      const p = Puzzle.parse(JSON.parse(line));
      expect(p.solution!.join('').split('#').length - 1).toBe(32);
      expect(countSolutions({ rows: p.rows, cols: p.cols }, 2).count).toBe(1);
      expect(p.metrics?.human?.level).toBeGreaterThanOrEqual(1);
    }
    expect(cli('generate', '--size', '8x8', '--density', '0.5', '--count', '12', '--seed', '12').stdout).not.toBe(a.stdout);
  });

  it('--timeout-per-candidate skips and counts candidates instead of hanging', () => {
    const r = cli('generate', '--size', '25x25', '--density', '0.4', '--count', '1', '--max-candidates', '3', '--timeout-per-candidate', '0.001');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('generate: 3 of 3 candidates skipped after --timeout-per-candidate 0.001');
    const bad = cli('generate', '--size', '25x25', '--count', '1', '--timeout-per-candidate', 'soon');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--timeout-per-candidate');
  });

  it('25x25: a unique puzzle, and the progress bar counts every candidate tried and the unique share', () => {
    const r = cli('generate', '--size', '25x25', '--density', '0.5', '--count', '1', '--seed', '3');
    expect(r.status).toBe(0);
    const p = Puzzle.parse(JSON.parse(r.stdout.trim()));
    expect(solvePuzzle({ rows: p.rows, cols: p.cols })).toMatchObject({ count: 1, complete: true });
    // The puzzle's recorded seed says which candidate it was; every earlier one was tried and dropped.
    let tried = 0;
    while (candidateSeed(3, tried) !== p.seed) tried++;
    tried++;
    expect(r.stderr).toContain(`1/1 puzzles | ${tried} candidates, ${(100 / tried).toFixed(1)}% unique`);
    expect(r.stderr).toContain('ETA 0s');
  });

  it('rejects a bad size with a message naming the flag', () => {
    const r = cli('generate', '--size', 'tenbyten', '--count', '1');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--size');
    expect(r.stdout).toBe('');
  });

  it('--method reject is the default output byte for byte; --method perturb records its changes; a bad method is named (issue 41)', () => {
    const args = ['generate', '--size', '8x8', '--density', '0.5', '--count', '5', '--seed', '11'];
    const plain = cli(...args);
    expect(plain.status).toBe(0);
    expect(cli(...args, '--method', 'reject').stdout).toBe(plain.stdout);
    const perturb = cli(...args, '--method', 'perturb');
    expect(perturb.status).toBe(0);
    const lines = perturb.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      const p = Puzzle.parse(JSON.parse(line));
      expect(countSolutions({ rows: p.rows, cols: p.cols }, 2).count).toBe(1);
      expect((p.metrics?.perturb as { changes: number }).changes).toBeGreaterThanOrEqual(0);
    }
    const bad = cli(...args, '--method', 'anneal');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--method must be reject or perturb');
  });
});

describe('generate --sat --encodings all (issue 36)', () => {
  it('stores metrics.sat_gac beside sat and sat_dfa, the numbers measure --encodings all gives, inline and on two threads', () => {
    const base = ['generate', '--size', '8x8', '--density', '0.5', '--count', '6', '--seed', '5', '--sat'];
    const paper = cli(...base);
    expect(paper.status, paper.stderr).toBe(0);
    expect(paper.stdout).not.toContain('sat_gac');
    const all = cli(...base, '--encodings', 'all', '--threads', '1');
    expect(all.status, all.stderr).toBe(0);
    expect(cli(...base, '--encodings', 'all', '--threads', '2').stdout).toBe(all.stdout);
    const records = all.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const before = paper.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.metrics.sat, r.metrics.sat_dfa])).toEqual(before.map((r) => [r.metrics.sat, r.metrics.sat_dfa]));
    const file = join(tempDir('nonolab-gen-'), 'p.ndjson');
    writeFileSync(file, paper.stdout);
    const measured = cli('measure', file, '--encodings', 'all');
    expect(measured.status, measured.stderr).toBe(0);
    expect(records.map((r) => r.metrics.sat_gac)).toEqual(measured.stdout.trim().split('\n').map((l) => JSON.parse(l).metrics.sat_gac));
    for (const r of records) expect(Object.keys(r.metrics.sat_gac)).toEqual(['decisions', 'propagations', 'conflicts', 'restarts']);
    expect([cli(...base, '--encodings', 'some').status, cli('generate', '--count', '1', '--encodings', 'all').stderr.trim()]).toEqual([2, 'generate: --encodings all is for --sat (the solver statistics it stores)']);
  }, 60_000);
});
