// Benchmark: GMM and LMM fit times at study scale (10,000 participants x 3 attempts; ~1M gaps), against lme4 / scikit-learn when installed.
/*
 * LMM: simulated crossed design, difficulty ~ conflicts * expertise + (1|participant) + (1|puzzle)
 * with 10,000 participants each doing 3 of 6 puzzles (30,000 rows), REML with Satterthwaite df.
 * Baselines in the same run: (a) one profiled-deviance evaluation done the textbook way, a dense
 * Cholesky of Lambda'Z'Z Lambda + I, at 1,000 participants (it is O(levels^3), hopeless at 10,000),
 * against our Schur-complement evaluation at the same size; (b) R's lme4 + lmerTest on the same
 * 30,000 rows when Rscript is installed (wall time of the fit inside R, not R's start-up).
 * GMM: ~1M gaps drawn from a three-component log-normal mixture at millisecond resolution, as a
 * study's event log records them: gmmSelect (1..4 components, 5 starts each, to convergence) and a
 * single sklearn-compatible 3-component fit; baseline scikit-learn's GaussianMixture(3) on the same
 * values when Debian's python3-sklearn is installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { createRng } from '../shared/random.ts';
import { fitGmm, fitLmm, gmmSelect, logGaps, buildDesign, parseFormula } from '../analysis/stats/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'nonolab-statsbench-'));
const rng = createRng(2026);
const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
const seconds = (t0: number) => (performance.now() - t0) / 1000;
// The machine may be shared: CPU seconds of this process alongside the wall times.
let cpuMark = process.cpuUsage();
const cpuSince = () => { const c = process.cpuUsage(cpuMark); cpuMark = process.cpuUsage(); return (c.user + c.system) / 1e6; };
const fmt = (s: number) => `${s.toFixed(3)} s`;

function simulateStudy(participants: number): Record<string, number | string>[] {
  const conflicts = [3, 5, 40, 55, 180, 260].map(Math.log);
  const puzzleEffect = conflicts.map(() => 0.4 * normal());
  const rows: Record<string, number | string>[] = [];
  for (let s = 0; s < participants; s++) {
    const u = 0.6 * normal(), expertise = normal();
    const order = [0, 1, 2, 3, 4, 5];
    for (let i = 5; i > 0; i--) { const j = rng.int(i + 1); [order[i], order[j]] = [order[j], order[i]]; }
    for (const p of order.slice(0, 3)) {
      const c = conflicts[p];
      rows.push({ participant: `s${s}`, puzzle: `p${p}`, conflicts: c, expertise,
        difficulty: 3 + 0.3 * c - 0.2 * expertise - 0.15 * c * expertise + u + puzzleEffect[p] + 0.7 * normal() });
    }
  }
  return rows;
}

/** The textbook evaluation: dense A = Lambda'Z'Z Lambda + I, Cholesky, solves; the REML deviance. */
function denseDeviance(rows: Record<string, number | string>[], formula: string, theta: number[]): number {
  const d = buildDesign(rows, parseFormula(formula));
  const offsets: number[] = [];
  let m = 0;
  for (const g of d.groups) { offsets.push(m); m += g.levels.length; }
  const a = Matrix.eye(m);
  const zx = new Matrix(m, d.p + 1);
  for (let i = 0; i < d.n; i++) {
    const cols = d.groups.map((g, k) => offsets[k] + g.index[i]);
    const th = d.groups.map((_, k) => theta[k]);
    for (let u = 0; u < cols.length; u++) {
      for (let v = 0; v < cols.length; v++) a.set(cols[u], cols[v], a.get(cols[u], cols[v]) + th[u] * th[v]);
      for (let j = 0; j < d.p; j++) zx.set(cols[u], j, zx.get(cols[u], j) + th[u] * d.x[i * d.p + j]);
      zx.set(cols[u], d.p, zx.get(cols[u], d.p) + th[u] * d.y[i]);
    }
  }
  const chol = new CholeskyDecomposition(a);
  const l = chol.lowerTriangularMatrix;
  let ldL2 = 0;
  for (let i = 0; i < m; i++) ldL2 += 2 * Math.log(l.get(i, i));
  const xy = new Matrix(d.n, d.p + 1);
  for (let i = 0; i < d.n; i++) { for (let j = 0; j < d.p; j++) xy.set(i, j, d.x[i * d.p + j]); xy.set(i, d.p, d.y[i]); }
  const g0 = xy.transpose().mmul(xy).sub(zx.transpose().mmul(chol.solve(zx)));
  const g = g0.add(g0.transpose()).div(2);
  const gl = new CholeskyDecomposition(g).lowerTriangularMatrix;
  let ldRX2 = 0;
  for (let j = 0; j < d.p; j++) ldRX2 += 2 * Math.log(gl.get(j, j));
  const r2 = gl.get(d.p, d.p) ** 2;
  const df = d.n - d.p;
  return ldL2 + ldRX2 + df * (1 + Math.log((2 * Math.PI * r2) / df));
}

function haveCommand(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return !r.error && r.status === 0;
}

function toCsv(rows: Record<string, number | string>[]): string {
  const cols = Object.keys(rows[0]);
  return [cols.join(','), ...rows.map((r) => cols.map((c) => r[c]).join(','))].join('\n') + '\n';
}

// ---------------------------------------------------------------- LMM
const formula = 'difficulty ~ conflicts * expertise + (1|participant) + (1|puzzle)';
console.log('LMM:', formula);
const small = simulateStudy(1000);
const smallFit = fitLmm(small, formula);
let t0 = performance.now();
const dense = denseDeviance(small, formula, smallFit.theta);
const denseTime = seconds(t0);
t0 = performance.now();
const reps = 20;
for (let r = 0; r < reps; r++) fitLmm(small, formula, { satterthwaite: false });
const smallFitTime = seconds(t0) / reps;
const perEval = smallFitTime / smallFit.evaluations;
console.log(`  1,000 participants (3,000 rows): dense deviance evaluation ${fmt(denseTime)} (value ${dense.toFixed(6)}), ours ${(perEval * 1e3).toFixed(3)} ms per evaluation incl. set-up share (value ${smallFit.criterion.toFixed(6)}); ratio ${(denseTime / perEval).toFixed(0)}x`);

const big = simulateStudy(10_000);
t0 = performance.now();
const bigFitNoDf = fitLmm(big, formula, { satterthwaite: false });
const noDfTime = seconds(t0);
t0 = performance.now();
cpuSince();
const bigFit = fitLmm(big, formula);
const lmmTime = seconds(t0);
const lmmCpu = cpuSince();
console.log(`  10,000 participants (30,000 rows): fit ${fmt(noDfTime)} without df, ${fmt(lmmTime)} with Satterthwaite df (CPU ${fmt(lmmCpu)}); ${bigFit.evaluations} deviance evaluations`);
console.log(`    ${bigFit.fixed.map((f) => `${f.term} ${f.estimate.toFixed(4)} (df ${f.df.toFixed(1)})`).join('; ')}`);
void bigFitNoDf;
if (haveCommand('Rscript', ['-e', 'suppressMessages(library(lmerTest))'])) {
  const file = join(tmp, 'lmm.csv');
  writeFileSync(file, toCsv(big));
  const r = spawnSync('Rscript', ['-e', `suppressMessages(library(lmerTest)); d <- read.csv("${file}"); t <- system.time({ m <- lmer(${formula}, data = d); s <- summary(m) }); cat(t[["elapsed"]], sprintf("%.6f", REMLcrit(m)), "\\n")`], { encoding: 'utf8' });
  const [elapsed, crit] = r.stdout.trim().split(/\s+/).map(Number);
  if (Number.isFinite(elapsed)) {
    console.log(`  lme4 + lmerTest on the same rows: ${fmt(elapsed)} (REML criterion ${crit.toFixed(6)} vs ours ${bigFit.criterion.toFixed(6)}); ours / lme4 = ${(lmmTime / elapsed).toFixed(2)}`);
  } else console.log(`  lme4 baseline failed: ${r.stderr.slice(0, 300)}`);
} else console.log('  (Rscript with lmerTest not installed: no lme4 baseline)');

// ---------------------------------------------------------------- GMM
const n = 1_000_000;
const gaps: number[] = new Array(n);
const comps = [{ w: 0.3, m: Math.log(0.015), s: 0.5 }, { w: 0.55, m: Math.log(0.9), s: 0.6 }, { w: 0.15, m: Math.log(6), s: 0.7 }];
for (let i = 0; i < n; i++) {
  const u = rng.next();
  const c = u < comps[0].w ? comps[0] : u < comps[0].w + comps[1].w ? comps[1] : comps[2];
  gaps[i] = Math.max(1, Math.round(Math.exp(c.m + c.s * normal()) * 1000)) / 1000;
}
const { values } = logGaps(gaps);
console.log(`\nGMM: ${n.toLocaleString('en')} gaps at 1 ms resolution (${new Set(values).size.toLocaleString('en')} distinct)`);
t0 = performance.now();
cpuSince();
const sel = gmmSelect(values, { maxComponents: 4, components: 3, seed: 1 });
const selTime = seconds(t0);
console.log(`  gmmSelect 1..4 components, 5 starts each: ${fmt(selTime)} (CPU ${fmt(cpuSince())}); threshold ${sel.threshold_s?.toFixed(3)} s, ΔBIC ${sel.delta_bic.toFixed(1)}; iterations ${sel.fits.map((f) => f.iterations).join('/')}`);
t0 = performance.now();
cpuSince();
const compat = fitGmm(values, { components: 3, compat: 'sklearn', seed: 1 });
const compatTime = seconds(t0);
console.log(`  one 3-component fit, --compat sklearn: ${fmt(compatTime)} (CPU ${fmt(cpuSince())}, ${compat.iterations} EM steps, BIC ${compat.bic.toFixed(1)})`);
if (haveCommand('/usr/bin/python3', ['-c', 'import sklearn'])) {
  const file = join(tmp, 'gaps.txt');
  writeFileSync(file, values.join('\n'));
  const py = `import numpy as np, time\nfrom sklearn.mixture import GaussianMixture\nX = np.loadtxt("${file}").reshape(-1, 1)\nt = time.perf_counter()\ng = GaussianMixture(3, random_state=0).fit(X)\nprint(time.perf_counter() - t, g.bic(X), g.n_iter_)`;
  const r = spawnSync('/usr/bin/python3', ['-c', py], { encoding: 'utf8' });
  const [elapsed, bic, iters] = r.stdout.trim().split(/\s+/).map(Number);
  if (Number.isFinite(elapsed)) console.log(`  scikit-learn GaussianMixture(3) on the same values: ${fmt(elapsed)} (${iters} EM steps, BIC ${bic.toFixed(1)}); ours (compat) / sklearn = ${(compatTime / elapsed).toFixed(2)}`);
  else console.log(`  sklearn baseline failed: ${r.stderr.slice(0, 300)}`);
} else console.log('  (python3-sklearn not installed: no scikit-learn baseline)');
rmSync(tmp, { recursive: true, force: true });
