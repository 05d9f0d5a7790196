// nonolab plan (issue 36): its power, simulated from the fitted model, agrees with repeated simulated studies analysed end to end.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { simulateToDir } from './simulate/index.ts';
import { runAnalysis } from './pipeline/index.ts';
import { overlaps } from './pipeline/measures.ts';
import { wilson } from './plan.ts';
import { tempDir } from '../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..');
const config = join(root, 'analysis/pipeline/fixtures/study.json');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });

describe('nonolab plan --measures a,b', () => {
  it("its power to tell sat_conflicts from gac_conflicts agrees with repeated bot studies (their Wilson interval meets plan's)", async () => {
    const dir = tempDir('nonolab-plan-');
    const study = loadStudyConfig(config);
    const analyse = async (seed: number) => {
      const logs = join(dir, `logs-${seed}`);
      simulateToDir({ participants: 60, seed, study }, logs);
      return (await runAnalysis({ logs, puzzles: config, out: join(dir, `out-${seed}`), pauseThreshold: 'auto', parallel: 1, report: false, trajectories: false, bootstrapReps: 200 })).result.measures!;
    };
    await analyse(16);
    const run = cli('plan', '--analysis', join(dir, 'out-16'), '--candidates', config, '--measures', 'sat_conflicts,gac_conflicts', '--puzzles', '6', '--per-participant', '3', '--reps', '100', '--boot', '200', '--seed', '2');
    expect(run.status, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.measures).toEqual(['sat_conflicts', 'gac_conflicts']);
    const [row] = plan.rows;
    expect([row.puzzles, row.participants, row.reps]).toEqual([6, 60, 100]);
    expect([row.ci_low, row.ci_high]).toEqual(wilson(row.separated, 100));
    // repeated simulation: bot studies of the same design (other seeds), each analysed as a researcher would
    let separated = 0;
    const seeds = [31, 32, 33, 34, 35];
    for (const seed of seeds) {
      const c = await analyse(seed);
      const a = c.rows.find((r) => r.measure === 'sat_conflicts' && r.target === 'mean_difficulty')!;
      const b = c.rows.find((r) => r.measure === 'gac_conflicts' && r.target === 'mean_difficulty')!;
      if (!overlaps(a, b)) separated++;
    }
    const [lo, hi] = wilson(separated, seeds.length);
    // measured (2026-12-03): plan 85/100 told apart (0.77-0.91); the five bot studies 5/5 (0.57-1)
    expect(lo).toBeLessThanOrEqual(row.ci_high);
    expect(hi).toBeGreaterThanOrEqual(row.ci_low);
  }, 240_000);

  it("wilson is SciPy's score interval", () => {
    // scipy.stats.binomtest(7, 20).proportion_ci(confidence_level=0.95, method='wilson')
    const [lo, hi] = wilson(7, 20);
    expect(lo).toBeCloseTo(0.1811918241010821, 12);
    expect(hi).toBeCloseTo(0.5671457233147637, 12);
  });
});
