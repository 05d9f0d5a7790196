// The statistics commands (analysis/commands/{gmm,bt,lmm,spearman,pca}.ts) run in-process: JSON keys as issue 7 fixes them, errors on stderr.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerGmm } from '../commands/gmm.ts';
import { registerBt } from '../commands/bt.ts';
import { registerLmm } from '../commands/lmm.ts';
import { registerSpearman } from '../commands/spearman.ts';
import { registerPca } from '../commands/pca.ts';
import { fixturePath } from './fixtures/load.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

async function run(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const program = new Command().exitOverride();
  registerGmm(program); registerBt(program); registerLmm(program); registerSpearman(program); registerPca(program);
  let out = '', err = '';
  const so = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => { out += String(s); return true; });
  const se = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => { err += String(s); return true; });
  try {
    await program.parseAsync(['node', 'nonolab', ...args]);
  } finally {
    so.mockRestore(); se.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { out, err, code };
}

afterEach(() => { process.exitCode = 0; });

describe('statistics commands', () => {
  it('spearman on a constant column prints rho null with the reason, and says it on stderr', async () => {
    const dir = tempDir('nonolab-stats-');
    const file = join(dir, 'const.csv');
    writeFileSync(file, 'bt_score,human_line_passes\n0.5,3\n-0.1,3\n0.2,3\n-0.6,3\n');
    const { out, err, code } = await run(['spearman', file, '--x', 'human_line_passes', '--y', 'bt_score']);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json).toMatchObject({ n: 4, rho: null, p: null, p_exact: null });
    expect(json.reason).toMatch(/^human_line_passes is constant \(3 in all 4 rows\)/);
    expect(err).toContain('human_line_passes is constant');
  });
  it('bt on all-identical ratings gives every item rank 1 and warns', async () => {
    const dir = tempDir('nonolab-stats-');
    const file = join(dir, 'same.csv');
    const rows = Array.from({ length: 6 }, (_, k) => [0, 1, 2].map((j) => `s${k},p${(k + j) % 6},3`)).flat();
    writeFileSync(file, 'participant,item,rating\n' + rows.join('\n') + '\n');
    const { out, err, code } = await run(['bt', file]);
    expect(code).toBe(0);
    expect(JSON.parse(out).items.map((i: { rank: number }) => i.rank)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(err).toContain('bt: warning: all 6 puzzles have the same score');
  });
  it('lmm on a constant response names it (not "rank deficient")', async () => {
    const dir = tempDir('nonolab-stats-');
    const file = join(dir, 'const.csv');
    const rows = Array.from({ length: 24 }, (_, i) => `s${i % 8},p${i % 6},${(i % 6) - 2.5},0`);
    writeFileSync(file, 'participant,puzzle,metric,errors\n' + rows.join('\n') + '\n');
    const { err, code } = await run(['lmm', file, '--formula', 'errors ~ metric + (1|participant) + (1|puzzle)']);
    expect(code).toBe(2);
    expect(err).toContain('the response "errors" is constant (0 in all 24 complete rows)');
    expect(err).not.toContain('rank deficient');
  });
  it('spearman prints {n, rho, p, p_exact}', async () => {
    const dir = tempDir('nonolab-stats-');
    const file = join(dir, 'ranks.csv');
    writeFileSync(file, 'bt_rank,decisions\n1,3\n2,6\n3,1\n4,2\n5,5\n6,4\n');
    const { out, code } = await run(['spearman', file, '--x', 'bt_rank', '--y', 'decisions']);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(Object.keys(json)).toEqual(['n', 'rho', 'p', 'p_exact']);
    expect(json.n).toBe(6);
  });

  it('lmm prints {fixed, variances, reml_criterion} with R term names, deviance with --ml', async () => {
    const formula = 'difficulty ~ log_conflicts * expertise + (1|participant) + (1|puzzle)';
    const reml = JSON.parse((await run(['lmm', fixturePath('crossed.csv'), '--formula', formula])).out);
    expect(Object.keys(reml)).toEqual(['fixed', 'variances', 'reml_criterion']);
    expect(reml.fixed.map((f: { term: string }) => f.term)).toEqual(['(Intercept)', 'log_conflicts', 'expertise', 'log_conflicts:expertise']);
    expect(Object.keys(reml.fixed[0])).toEqual(['term', 'estimate', 'se', 'df', 't', 'p']);
    expect(Object.keys(reml.variances)).toEqual(['participant', 'puzzle', 'residual']);
    const ml = JSON.parse((await run(['lmm', fixturePath('crossed.csv'), '--formula', formula, '--ml'])).out);
    expect(Object.keys(ml)).toEqual(['fixed', 'variances', 'deviance']);
  });

  it('bt prints {items: [{item, log_ability, se, rank}]} from ratings or pairs', async () => {
    const fromRatings = JSON.parse((await run(['bt', fixturePath('ratings.csv')])).out);
    expect(Object.keys(fromRatings)).toEqual(['items']);
    expect(Object.keys(fromRatings.items[0])).toEqual(['item', 'log_ability', 'se', 'rank']);
    const fromPairs = JSON.parse((await run(['bt', fixturePath('citations_pairs.csv'), '--pairs'])).out);
    expect(fromPairs.items).toHaveLength(4);
  });

  it('gmm prints {n, components, threshold_s, bic, delta_bic}', async () => {
    const { out, code } = await run(['gmm', fixturePath('gaps.csv'), '--column', 'gap_s', '--compat', 'sklearn', '--max-components', '3']);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(Object.keys(json)).toEqual(['n', 'components', 'threshold_s', 'bic', 'delta_bic']);
    expect(Object.keys(json.components[0])).toEqual(['weight', 'mean', 'variance']);
    expect(Object.keys(json.bic)).toEqual(['1', '2', '3']);
    expect(json.threshold_s).toBeGreaterThan(1);
  });

  it('pca prints components with loadings and per-row scores with the z-mean', async () => {
    const json = JSON.parse((await run(['pca', fixturePath('expertise.csv')])).out);
    expect(json.n).toBe(67);
    expect(json.components).toHaveLength(6);
    expect(json.components[0].explained).toBeCloseTo(0.558, 3);
    expect(Object.keys(json.rows[0])).toEqual(['z_mean', 'pc1', 'pc2', 'pc3', 'pc4', 'pc5', 'pc6']);
  });

  it('bad input: a clear message naming file, line and field, and exit 2', async () => {
    const dir = tempDir('nonolab-stats-');
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'x,y\n1,2\n2,oops\n3,4\n');
    const bad = await run(['spearman', file, '--x', 'x', '--y', 'y']);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err).toContain(`${file}: line 3: field "y" is not a number ("oops")`);
    const missing = await run(['lmm', file, '--formula', 'y ~ z + (1|g)']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no column "z"/);
    const disconnected = join(dir, 'pairs.csv');
    writeFileSync(disconnected, 'winner,loser\na,b\nb,a\nc,d\nd,c\n');
    const bt = await run(['bt', disconnected, '--pairs']);
    expect(bt.code).toBe(2);
    expect(bt.err).toMatch(/not connected/);
  });
});
