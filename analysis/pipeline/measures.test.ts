// The measure comparison (issue 36): its statistics are the library's (Spearman as SciPy, Table 2 as lme4), and on a
// study whose bots are driven by one measure, that measure is ranked first.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateFromSeed, candidateSeed } from '../../shared/nonogram/index.ts';
import { satMetricsRecord } from '../../shared/sat/metrics.ts';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { simulateToDir } from '../simulate/index.ts';
import { runAnalysis } from './index.ts';
import { compareMeasures, quantile7, rankingOf, separationStatement, studyMeasures, PAPER_MEASURE } from './measures.ts';
import { spearman } from '../stats/index.ts';
import { selectSpread } from '../../shared/sat/spread.ts';
import { parseCsv } from '../csv.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';

const fixtureConfig = join(import.meta.dirname, 'fixtures', 'study.json');

describe('quantile7', () => {
  it("is numpy's default percentile (R's type 7)", () => {
    const v = [0.3, -1.2, 0.9, 0.1, 0.5, 2.2, -0.4].sort((a, b) => a - b);
    // numpy.percentile(v, 2.5), numpy.percentile(v, 97.5), numpy.quantile(v, 0.5)
    expect(quantile7(v, 0.025)).toBeCloseTo(-1.08, 12);
    expect(quantile7(v, 0.975)).toBeCloseTo(2.005, 12);
    expect(quantile7(v, 0.5)).toBe(0.3);
  });
});

describe('compareMeasures on the golden study (60 bots driven by sat_conflicts)', async () => {
  const dir = tempDir('nonolab-measures-');
  simulateToDir({ participants: 60, seed: 16, study: loadStudyConfig(fixtureConfig) }, join(dir, 'logs'));
  const { result } = await runAnalysis({ logs: join(dir, 'logs'), puzzles: fixtureConfig, out: join(dir, 'out'), pauseThreshold: 'auto', parallel: 1, report: false, bootstrapReps: 200 });
  const c = result.measures!;

  it("the bootstrap's tallied replicates give the numbers of the replicates' attempt lists, to the bit (and on sparse data: unrated attempts, puzzles some replicates never see rated)", async () => {
    const { loadPuzzleSet } = await import('./puzzles.ts');
    const set = loadPuzzleSet(fixtureConfig);
    const expertiseOf = new Map(result.participants.filter((p) => p.included).map((p) => [p.participant_id as string, p.expertise as number]));
    const attempts = result.attempts as unknown as Parameters<typeof compareMeasures>[1];
    const same = (a: typeof attempts) => {
      const x = compareMeasures(set.puzzles, a, { expertiseOf, reps: 100, seed: 3 });
      const y = compareMeasures(set.puzzles, a, { expertiseOf, reps: 100, seed: 3, replicates: 'attempts' });
      expect(x.rows.map((r) => [r.ci_low, r.ci_high, r.boot_n, r.rank])).toEqual(y.rows.map((r) => [r.ci_low, r.ci_high, r.boot_n, r.rank]));
      expect(x).toEqual(y);
    };
    same(attempts);
    // seven participants, most ratings removed: many replicates leave puzzles unrated or the comparisons unconnected
    const few = [...new Set(attempts.map((a) => a.participant_id))].slice(0, 7);
    same(attempts.filter((a) => few.includes(a.participant_id)).map((a, i) => (i % 3 === 0 ? a : { ...a, difficulty: null })));
  }, 60_000);

  it('covers every encoding and grade the puzzles carry, constant ones left out and named', () => {
    expect(c.measures[0]).toBe(PAPER_MEASURE);
    for (const m of ['sat_decisions', 'dfa_conflicts', 'gac_conflicts', 'gac_propagations', 'human_level', 'human_footholds', 'human_probes']) expect(c.measures).toContain(m);
    expect(c.left_out).toContainEqual({ measure: 'sat_restarts', why: 'constant (1) over the 6 puzzles' });
    expect(c.computed).toHaveLength(6); // the fixture's puzzles carry no metrics.sat_gac: computed for the comparison
  });

  it("rho, p and exact p are SciPy's (spearmanr; the permutation test over all 720 pairings)", () => {
    const row = c.rows.find((r) => r.measure === 'sat_conflicts' && r.target === 'mean_difficulty')!;
    // scipy.stats.spearmanr(puzzles.csv sat_conflicts, mean_difficulty) and permutation_test(..., permutation_type='pairings')
    expect(row.rho).toBeCloseTo(0.9856107606091624, 12);
    expect(row.p).toBeCloseTo(0.0003090856678496653, 12);
    expect(row.p_exact).toBeCloseTo(0.005555555555555556, 12);
    for (const m of result.metrics) {
      const r = c.rows.find((x) => x.measure === m && x.target === 'mean_difficulty')!;
      const sr = spearman(result.puzzles.map((p) => p[m] as number), result.puzzles.map((p) => p.mean_difficulty as number));
      expect([r.rho, r.p, r.p_exact]).toEqual([sr.rho, sr.p, sr.p_exact]);
    }
    // Table 1's rows are the comparison's bt_score rows
    for (const t1 of result.correlations.filter((x) => x.table === 'table1')) {
      const r = c.rows.find((x) => x.measure === t1.x && x.target === 'bt_score')!;
      expect([r.rho, r.p, r.p_exact]).toEqual([t1.rho, t1.p, t1.p_exact]);
    }
  });

  it("each measure's Table 2 is the model lmm.csv fits (lme4-checked fitLmm), the same numbers", () => {
    for (const t2 of result.lmm.filter((x) => x.model === 'table2')) {
      const r = c.rows.find((x) => x.measure === t2.metric && x.target === 'mean_difficulty')!;
      const column = t2.term === t2.metric ? r.lmm_measure : t2.term === `${t2.metric}:expertise` ? r.lmm_interaction : t2.term === 'expertise' ? r.lmm_expertise : r.lmm_intercept;
      expect(column).toBeCloseTo(t2.estimate, 9);
      expect(r.var_residual).toBeCloseTo(t2.var_residual, 9);
    }
    expect(result.lmm.filter((x) => x.model === 'table2').length).toBeGreaterThanOrEqual(12);
    for (const r of c.rows.filter((x) => x.target === 'mean_time_s')) expect(r.lmm_measure).toBeNull();
  });

  it('bootstrap intervals hold the observed rho, and the ranking puts the paper first, then every measure by rank', () => {
    for (const r of c.rows.filter((x) => Number.isFinite(x.rho))) {
      expect(r.ci_low).toBeLessThanOrEqual(r.ci_high);
      expect(r.boot_n).toBeGreaterThan(150);
    }
    const ranking = rankingOf(c, 'mean_difficulty');
    expect(ranking[0].measure).toBe(PAPER_MEASURE);
    expect(ranking.slice(1).map((r) => r.rank)).toEqual(c.measures.map((_, i) => i + 1));
    expect(separationStatement(c)).toMatch(/^sat_conflicts tracks mean_difficulty best .* With 6 puzzles this study cannot tell it apart from/);
  });

  it('measures.csv carries one row per measure and target', () => {
    const csv = parseCsv(readFileSync(join(dir, 'out', 'measures.csv'), 'utf8'), 'measures.csv');
    expect(csv.length).toBe(c.measures.length * 6);
    expect(Object.keys(csv[0]).slice(0, 11)).toEqual(['measure', 'family', 'encoding', 'target', 'rank', 'n', 'rho', 'p', 'p_exact', 'ci_low', 'ci_high']);
  });
});

describe('a study whose bots are driven by one measure', () => {
  it('ranks that measure first (simulate --metric gac_propagations, on six puzzles spread over its range where it disagrees with the paper measure), the paper measure behind', async () => {
    const config = JSON.parse(readFileSync(fixtureConfig, 'utf8'));
    // six puzzles spread over the driving measure's range (evenly spaced ranks in a pool of 24)
    const pool: Puzzle[] = [];
    for (let i = 0; pool.length < 24; i++) {
      const o = candidateFromSeed(12, 12, 0.5, candidateSeed(36, i));
      if ('puzzle' in o) pool.push({ ...o.puzzle, id: `p${i}`, metrics: { ...o.puzzle.metrics, ...satMetricsRecord(o.puzzle, { encodings: 'all' }) } as unknown as Puzzle['metrics'] });
    }
    const gacOf = (p: Puzzle) => (p.metrics as unknown as { sat_gac: { propagations: number } }).sat_gac.propagations;
    pool.sort((x, y) => gacOf(x) - gacOf(y));
    const puzzles = [0, 1, 2, 3, 4, 5].map((k) => pool[Math.round((k * (pool.length - 1)) / 5)]);
    const gp = puzzles.map(gacOf);
    expect(new Set(gp).size).toBe(6);
    expect(spearman(gp, puzzles.map((p) => p.metrics!.sat!.conflicts)).rho).toBeLessThan(0.9);
    const dir = tempDir('nonolab-measures-');
    const file = join(dir, 'study.json');
    writeFileSync(file, JSON.stringify({ ...config, puzzles }));
    simulateToDir({ participants: 120, seed: 4, study: loadStudyConfig(file), metric: 'gac_propagations' }, join(dir, 'logs'));
    const { result } = await runAnalysis({ logs: join(dir, 'logs'), puzzles: file, out: join(dir, 'out'), pauseThreshold: 'auto', parallel: 1, report: false, bootstrapReps: 200 });
    const c = result.measures!;
    expect(studyMeasures(puzzles).measures).toEqual(c.measures);
    for (const target of ['mean_difficulty', 'bt_score'] as const) {
      const ranking = rankingOf(c, target);
      expect(ranking[0].measure).toBe(PAPER_MEASURE);
      expect(ranking[1].measure).toBe('gac_propagations');
      expect(ranking[0].rank).toBeGreaterThan(1);
    }
  }, 120_000);
});

describe("the issue's own check: bots driven by gac_conflicts", () => {
  it('rank gac_conflicts first for both rated targets, every other measure behind it, on six puzzles select --scheme spread picks against its nearest rival', async () => {
    const config = JSON.parse(readFileSync(fixtureConfig, 'utf8'));
    // 15x15 boards at density 0.45: line logic alone leaves some of them to probing, so gac_conflicts varies (0..20)
    const pool: Puzzle[] = [];
    for (let i = 0; pool.length < 40; i++) {
      const o = candidateFromSeed(15, 15, 0.45, candidateSeed(7, i));
      if ('puzzle' in o) pool.push({ ...o.puzzle, id: `q${i}`, metrics: { ...o.puzzle.metrics, ...satMetricsRecord(o.puzzle, { encodings: 'all' }) } as unknown as Puzzle['metrics'] });
    }
    const gac = (p: Puzzle) => (p.metrics as unknown as { sat_gac: { conflicts: number; propagations: number } }).sat_gac;
    const picks = selectSpread(pool.map((p) => ({ id: p.id, a: gac(p).conflicts, b: gac(p).propagations })));
    expect(picks.some((p) => p.ties)).toBe(false);
    const puzzles = picks.map((k) => pool.find((p) => p.id === k.id)!);
    for (const half of [puzzles.slice(0, 3), puzzles.slice(3)]) expect(new Set(half.map((p) => gac(p).conflicts)).size).toBe(3);
    const dir = tempDir('nonolab-measures-');
    const file = join(dir, 'study.json');
    writeFileSync(file, JSON.stringify({ ...config, puzzles }));
    simulateToDir({ participants: 120, seed: 4, study: loadStudyConfig(file), metric: 'gac_conflicts' }, join(dir, 'logs'));
    const { result } = await runAnalysis({ logs: join(dir, 'logs'), puzzles: file, out: join(dir, 'out'), pauseThreshold: 'auto', parallel: 1, report: false, bootstrapReps: 200 });
    const c = result.measures!;
    for (const target of ['mean_difficulty', 'bt_score'] as const) {
      const ranking = rankingOf(c, target);
      expect(ranking[0].measure).toBe(PAPER_MEASURE);
      expect(ranking[1]).toMatchObject({ measure: 'gac_conflicts', rank: 1 });
      const best = Math.abs(ranking[1].rho);
      // behind it: every other measure's |rho| is smaller (no tie at the top)
      for (const r of ranking.slice(2)) expect(Math.abs(r.rho), r.measure).toBeLessThan(best);
    }
    expect(separationStatement(c)).toMatch(/^gac_conflicts tracks mean_difficulty best/);
  }, 180_000);
});

describe('select --scheme spread --metrics a,b', () => {
  it('picks the puzzles on which the two measures disagree most, writes the rationale into the config, and the report states it', async () => {
    const { spawnSync } = await import('node:child_process');
    const root = join(import.meta.dirname, '..', '..');
    const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
    const dir = tempDir('nonolab-spread-');
    const pool = join(dir, 'pool.ndjson');
    expect(cli('generate', '--count', '30', '--size', '8x8', '--sat', '--encodings', 'all', '--seed', '3', '--out', pool).status).toBe(0);
    const out = join(dir, 'study.json');
    const run = cli('select', '--in', pool, '--scheme', 'spread', '--metrics', 'sat_conflicts,gac_propagations', '--config', fixtureConfig, '--out', out);
    expect(run.status, run.stderr).toBe(0);
    const picks = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(picks.map((p) => p.role)).toEqual(['a_high_b_low', 'a_high_b_low', 'a_high_b_low', 'b_high_a_low', 'b_high_a_low', 'b_high_a_low']);
    // every pick high on one and low on the other; the halves are the largest disagreements of the pool
    for (const p of picks.slice(0, 3)) expect(p.rank_a).toBeGreaterThan(p.rank_b);
    for (const p of picks.slice(3)) expect(p.rank_b).toBeGreaterThan(p.rank_a);
    const pooled = readFileSync(pool, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const chosen = JSON.parse(readFileSync(out, 'utf8'));
    expect(chosen.puzzles.map((p: Puzzle) => p.id)).toEqual(picks.map((p) => p.id));
    expect(chosen.selection).toMatchObject({ scheme: 'spread', metrics: ['sat_conflicts', 'gac_propagations'] });
    expect(chosen.selection.rationale).toContain('disagree most');
    const a = pooled.map((p) => p.metrics.sat.conflicts), b = pooled.map((p) => p.metrics.sat_gac.propagations);
    // the spread pool disagrees more than the pool does
    expect(spearman(picks.map((p) => p.sat_conflicts), picks.map((p) => p.gac_propagations)).rho).toBeLessThan(spearman(a, b).rho);
    // the paper's scheme stays the default
    expect(cli('select', '--in', pool).stdout.split('\n')[0]).toContain('"role"');
    simulateToDir({ participants: 20, seed: 5, study: loadStudyConfig(out) }, join(dir, 'logs'));
    await runAnalysis({ logs: join(dir, 'logs'), puzzles: out, out: join(dir, 'out'), pauseThreshold: 'auto', parallel: 1, bootstrapReps: 50 });
    expect(readFileSync(join(dir, 'out', 'report.html'), 'utf8')).toMatch(/<p id="measures-selection">The study's puzzles were selected by the <b>spread<\/b> scheme \(sat_conflicts, gac_propagations\)/);
  }, 120_000);
});
