// Benchmark: simulate 10,000 bot participants, then analyse them (target < 20 s), printing the GMM and LMM fit times.
/*
 * Steps: (1) simulate N participants (NONOLAB_BENCH_PARTICIPANTS, default 10,000) straight to NDJSON in a
 * temporary directory (not part of the target); (2) baseline, in the same run: read every file and
 * JSON.parse every line on one thread, the floor any analysis of these logs pays; (3) the full
 * `analyze` (zod validation of every record, signals on worker threads, GMM, Bradley-Terry, Spearman, 15
 * LMMs, every CSV and report.html) timed by wall clock and process CPU; (4) the same without validation.
 * Wall times depend on how busy the machine is; the CPU times and the ratio to the baseline are steadier.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { loadStudyConfig } from '../server/studyConfig.ts';
import { simulateToDir } from '../analysis/simulate/index.ts';
import { runAnalysis, sessionFiles } from '../analysis/pipeline/index.ts';

const N = Number(process.env.NONOLAB_BENCH_PARTICIPANTS ?? 10_000);
const root = join(import.meta.dirname, '..');
const study = loadStudyConfig(join(root, 'study-config', 'study.json'));
const dir = mkdtempSync(join(tmpdir(), 'nonolab-bench-analysis-'));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const cpuSince = (u: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(u);
  return (d.user + d.system) / 1000;
};

try {
  console.log(`participants: ${N}; cores: ${availableParallelism()}`);
  let t = performance.now();
  simulateToDir({ participants: N, seed: 20260301, study }, join(dir, 'logs'));
  console.log(`simulate (NDJSON):            ${s(performance.now() - t)}`);

  const files = sessionFiles(join(dir, 'logs'));
  t = performance.now();
  let cpu = process.cpuUsage();
  let lines = 0;
  let bytes = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    bytes += text.length;
    for (const l of text.split('\n')) if (l) {
      JSON.parse(l);
      lines++;
    }
  }
  const baseline = performance.now() - t;
  console.log(`baseline read + JSON.parse:   ${s(baseline)} wall, ${s(cpuSince(cpu))} CPU (${files.length} files, ${lines} records, ${(bytes / 1e6).toFixed(0)} MB)`);

  for (const validate of [true, false]) {
    t = performance.now();
    cpu = process.cpuUsage();
    const { result, summary } = await runAnalysis({ logs: join(dir, 'logs'), puzzles: join(root, 'study-config', 'study.json'), out: join(dir, `out-${validate}`), pauseThreshold: 'auto', validate });
    const wall = performance.now() - t;
    const lmmFits = result.lmm.filter((r, i, all) => all.findIndex((x) => x.formula === r.formula) === i).map((r) => r.fit_ms);
    console.log(`\nanalyze (${validate ? 'zod validation on' : '--no-validate'}):`);
    console.log(`  total:                      ${s(wall)} wall, ${s(cpuSince(cpu))} CPU main+workers, ${(wall / baseline).toFixed(2)}x baseline, target < 20 s: ${wall < 20_000 ? 'met' : 'NOT met'}`);
    console.log(`  read + signals (threads):   ${s(summary.timings.signals_ms)}`);
    console.log(`  GMM fit (1..4 components):  ${s(result.pauses.fit_ms)} on ${result.pauses.n} log gaps; threshold ${result.pauses.threshold_s.toFixed(3)} s, ΔBIC ${result.pauses.delta_bic.toFixed(1)}`);
    console.log(`  LMM fits:                   ${s(summary.timings.lmm_ms)} wall for ${lmmFits.length} models on ${result.attempts.length} attempts; per fit ${s(Math.min(...lmmFits))}–${s(Math.max(...lmmFits))}, sum ${s(lmmFits.reduce((a, b) => a + b, 0))}`);
    console.log(`  write tables:               ${s(summary.timings.write_ms)}; report: ${s(summary.timings.report_ms ?? 0)}`);
    const c = result.lmm.find((r) => r.model === 'table2' && r.metric === 'sat_conflicts' && r.term === 'sat_conflicts');
    const e = result.lmm.find((r) => r.model === 'table2' && r.metric === 'sat_conflicts' && r.term === 'expertise');
    console.log(`  planted effect recovered:   conflicts ${c?.estimate.toFixed(3)} (planted +0.6 per SD), expertise ${e?.estimate.toFixed(3)} (planted skill -0.5)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
