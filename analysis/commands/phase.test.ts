// The phase experiment's pieces: density ranges, per-board determinism and the summary; and the metric lookup of `select`.
import { describe, expect, it } from 'vitest';
import { parseRange, runBoard, summarise } from './phase.ts';

describe('phase', () => {
  it('parses START:END:STEP without floating drift', () => {
    const r = parseRange('0.30:0.60:0.01');
    expect(r.length).toBe(31);
    expect(r[0]).toBe(0.3);
    expect(r[9]).toBe(0.39);
    expect(r[30]).toBe(0.6);
    expect(parseRange('0.4')).toEqual([0.4]);
    expect(() => parseRange('0.6:0.3:0.1')).toThrow(/END >= START/);
  });

  it('is deterministic per (seed, size, density, board) and counts forced cells separately', () => {
    const a = runBoard(8, 0.45, 3, 1, 'block-start', undefined);
    expect(runBoard(8, 0.45, 3, 1, 'block-start', undefined)).toEqual(a);
    const dfa = runBoard(8, 0.45, 3, 1, 'dfa', undefined);
    expect([dfa.forced_filled, dfa.forced_empty, dfa.unique]).toEqual([a.forced_filled, a.forced_empty, a.unique]);
    expect(a.forced_filled).toBeLessThanOrEqual(a.filled);
    expect(a.forced_empty).toBeLessThanOrEqual(64 - a.filled);
    if (a.unique) expect(a.forced_filled + a.forced_empty).toBe(64);
    const s = summarise([a, runBoard(8, 0.45, 4, 1, 'block-start', undefined)]);
    expect(s).toHaveLength(1);
    expect(s[0].boards).toBe(2);
  });
});

describe('runBoard counts', () => {
  it('equal the one-cell-at-a-time reference on the same board (line solving and probing change no count)', async () => {
    const { cluesOf, EMPTY, FILLED, hash53 } = await import('../../shared/nonogram/index.ts');
    const { createRng } = await import('../../shared/random.ts');
    const { forcedCellsReference } = await import('../../shared/sat/index.ts');
    for (const [size, density, b] of [[10, 0.45, 0], [10, 0.55, 1], [12, 0.5, 2], [12, 0.6, 3]]) {
      const rng = createRng(hash53(`phase:1:${size}:${density}:${b}`)[1]);
      const cells = new Uint8Array(size * size);
      for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < density ? FILLED : EMPTY;
      const ref = forcedCellsReference(cluesOf({ width: size, height: size, cells }));
      for (const encoding of ['block-start', 'dfa', 'line-gac'] as const) {
        const row = runBoard(size, density, b, 1, encoding, undefined);
        expect([row.forced_filled, row.forced_empty, row.undecided, row.unique, row.first_result]).toEqual([ref.forcedFilled, ref.forcedEmpty, 0, ref.unique, 'SAT']);
      }
    }
  });
});

describe('phase thresholds', () => {
  it('interpolates the 0.5 crossing of the forced-filled share and bootstraps it reproducibly', async () => {
    const { crossing, thresholdBootstrap } = await import('../stats/threshold.ts');
    expect(crossing([0.3, 0.4, 0.5], [0.1, 0.3, 0.7])).toBeCloseTo(0.45, 12);
    expect(crossing([0.3, 0.4], [0.6, 0.9])).toBe(0.3);
    expect(crossing([0.3, 0.4], [0.1, 0.2])).toBeNaN();
    const groups = [[0, 0.1, 0.2], [0.2, 0.4, 0.6], [0.8, 0.9, 1]];
    const a = thresholdBootstrap([0.3, 0.4, 0.5], groups, { seed: 7, replicates: 400 });
    expect(thresholdBootstrap([0.3, 0.4, 0.5], groups, { seed: 7, replicates: 400 })).toEqual(a);
    expect(a.threshold).toBeCloseTo(0.4 + 0.1 * (0.1 / 0.5), 12);
    expect(a.lo).toBeLessThanOrEqual(a.threshold);
    expect(a.hi).toBeGreaterThanOrEqual(a.threshold);
    expect(a.crossed).toBe(1);
  });

  it('adds the size-wise threshold columns to the summary once a size is complete', async () => {
    const { summaryWithThresholds, forcedFilledShare } = await import('./phase.ts');
    const rows = [0.3, 0.4, 0.5].flatMap((d) => [0, 1].map((b) => runBoard(8, d, b, 1, 'block-start', undefined)));
    const done = summaryWithThresholds(rows, new Set([8]), 1);
    const open = summaryWithThresholds(rows, new Set(), 1);
    expect(open.every((r) => r.threshold === '')).toBe(true);
    const means = [0.3, 0.4, 0.5].map((d) => rows.filter((r) => r.density === d).reduce((s, r) => s + forcedFilledShare(r), 0) / 2);
    expect(done.map((r) => r.forced_filled_share)).toEqual(means.map((m) => Math.round(m * 1e6) / 1e6));
    const t = done[0].threshold;
    if (means.some((m) => m >= 0.5)) expect(typeof t === 'number' && t >= 0.3 && t <= 0.5).toBe(true);
    else expect(t).toBe('');
  });
});

describe('nonolab phase (in-process)', () => {
  it('writes the summary with thresholds, the per-board rows and the plot; bad input changes nothing', async () => {
    const { Command } = await import('commander');
    const { readFileSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../../tests/support/tempDirs.ts');
    const { registerPhase } = await import('./phase.ts');
    const dir = tempDir('phase-');
    const run = async (args: string[]) => {
      const program = new Command().exitOverride();
      registerPhase(program);
      const { vi } = await import('vitest');
      const se = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        await program.parseAsync(['node', 'nonolab', 'phase', ...args]);
      } finally {
        se.mockRestore();
      }
      const code = Number(process.exitCode ?? 0);
      process.exitCode = 0;
      return code;
    };
    const [out, raw, plot] = ['s.csv', 'r.csv', 'p.svg'].map((f) => join(dir, f));
    expect(await run(['--sizes', '6,8', '--densities', '0.3:0.6:0.1', '--boards', '3', '--out', out, '--raw', raw, '--plot', plot])).toBe(0);
    const Papa = (await import('papaparse')).default;
    const summary = Papa.parse<Record<string, string>>(readFileSync(out, 'utf8').trim(), { header: true }).data;
    expect(summary).toHaveLength(8);
    for (const r of summary) expect(Object.keys(r)).toEqual(expect.arrayContaining(['forced_filled_share', 'threshold', 'threshold_lo', 'threshold_hi', 'mean_seconds']));
    const boardsRows = Papa.parse<Record<string, string>>(readFileSync(raw, 'utf8').trim(), { header: true }).data;
    expect(boardsRows).toHaveLength(24);
    const svg = readFileSync(plot, 'utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain('6x6');
    expect(svg).toContain('8x8');
    const bad = join(dir, 'bad.csv');
    expect(await run(['--sizes', '6', '--densities', '0.5:0.3:0.1', '--out', bad])).toBe(2);
    expect(existsSync(bad)).toBe(false);
    // An output that cannot be written stops the run with a clear error (exit 2), on one thread or several.
    for (const threads of ['1', '2']) expect(await run(['--sizes', '6', '--densities', '0.4:0.5:0.1', '--boards', '3', '--threads', threads, '--out', join(dir, 'no', 'such', 's.csv')])).toBe(2);
    for (const jobs of ['0', '1.5', 'two']) {
      expect(await run(['--sizes', '6', '--densities', '0.5', '--threads', jobs, '--out', bad])).toBe(2);
      expect(existsSync(bad)).toBe(false);
    }

    // Boards on worker threads: the same rows in the same order as on one thread, but for the timings.
    const files = (tag: string) => ['s.csv', 'r.csv'].map((f) => join(dir, `${tag}-${f}`));
    const [out1, raw1] = files('one');
    const [out3, raw3] = files('three');
    const args = ['--sizes', '6,9', '--densities', '0.35:0.55:0.1', '--boards', '4', '--encoding', 'block-start'];
    expect(await run([...args, '--threads', '1', '--out', out1, '--raw', raw1])).toBe(0);
    expect(await run([...args, '--threads', '3', '--out', out3, '--raw', raw3])).toBe(0);
    const table = (file: string, drop: string) =>
      Papa.parse<Record<string, string>>(readFileSync(file, 'utf8').trim(), { header: true }).data.map((r) => {
        const { [drop]: timing, ...rest } = r;
        expect(Number(timing)).toBeGreaterThanOrEqual(0);
        return rest;
      });
    const rows1 = table(raw1, 'seconds');
    expect(rows1).toHaveLength(24);
    expect(rows1.map((r) => `${r.size}:${r.density}:${r.board}`)).toEqual([6, 9].flatMap((n) => ['0.35', '0.45', '0.55'].flatMap((d) => [0, 1, 2, 3].map((b) => `${n}:${d}:${b}`))));
    expect(table(raw3, 'seconds')).toEqual(rows1);
    expect(table(out3, 'mean_seconds')).toEqual(table(out1, 'mean_seconds'));
  });
});
