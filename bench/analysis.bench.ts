// Benchmark: simulate 10,000 bot participants, then analyse them (issue 16's target: at most 5 s, every record validated), printing memory, the GMM and LMM fit times against an I/O baseline.
/*
 * Steps: (1) simulate N participants (NONOLAB_BENCH_PARTICIPANTS, default 10,000) straight to NDJSON in a
 * temporary directory (not part of the target); (2) baselines, in the same run and on the same files:
 * (a) read the bytes of every log (no decoding): the I/O floor; (b) read, decode and JSON.parse every line
 * on one thread, the floor any analysis of these logs pays for parsing (on C cores at best (b) / C);
 * (3) the full `analyze` as the CLI runs it by default (every record validated: move records by the exact
 * check, the rest by zod; signals on worker threads; GMM, Bradley-Terry, Spearman, 15 LMMs, every CSV and
 * report.html), by wall clock and process CPU (main thread and workers); (4) the same with --no-validate.
 * Wall times depend on how busy the machine is (the load average is printed); run it under
 * `flock /tmp/bench.lock` when others benchmark on the same machine. CPU times and ratios are steadier.
 * NONOLAB_BENCH_LOGS=DIR analyses the logs already in DIR (e.g. kept from an earlier run) instead of simulating.
 * The last line of each pass is the summary: target, measured wall and CPU time, peak memory, load average.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { simulateToDir } from '../analysis/simulate/index.ts';
import { runAnalysis, sessionFiles } from '../analysis/pipeline/index.ts';

const N = Number(process.env.NONOLAB_BENCH_PARTICIPANTS ?? 10_000);
const TARGET_MS = 5_000;
const root = join(import.meta.dirname, '..');
const study = loadStudyConfig(join(root, 'study-config', 'study.json'));
const dir = mkdtempSync(join(tmpdir(), 'nonolab-bench-analysis-'));
const given = process.env.NONOLAB_BENCH_LOGS;
const logsDir = given ?? join(dir, 'logs');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const cpuSince = (u: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(u);
  return (d.user + d.system) / 1000;
};
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const cores = availableParallelism();

try {
  console.log(`participants: ${N}; cores: ${cores}; load average: ${load()}`);
  let t = performance.now();
  if (given) console.log(`logs: ${given} (NONOLAB_BENCH_LOGS; not simulated)`);
  else {
    simulateToDir({ participants: N, seed: 20260301, study }, logsDir);
    console.log(`simulate (NDJSON, not timed):  ${s(performance.now() - t)}`);
  }

  const files = sessionFiles(logsDir);
  t = performance.now();
  let cpu = process.cpuUsage();
  let bytes = 0;
  for (const f of files) bytes += readFileSync(f).length;
  const readMs = performance.now() - t;
  console.log(`baseline (a) read bytes:       ${s(readMs)} wall, ${s(cpuSince(cpu))} CPU (${files.length} files, ${(bytes / 1e6).toFixed(0)} MB)`);

  t = performance.now();
  cpu = process.cpuUsage();
  let lines = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const l of text.split('\n')) if (l) {
      JSON.parse(l);
      lines++;
    }
  }
  const parseMs = performance.now() - t;
  const parseCpu = cpuSince(cpu);
  console.log(`baseline (b) read + JSON.parse: ${s(parseMs)} wall, ${s(parseCpu)} CPU, one thread (${lines} records); on ${cores} cores at best ${s(parseMs / cores)}`);

  for (const validate of [true, false]) {
    const before = load();
    // Memory: the process's resident set (main thread and worker threads share it), sampled every 50 ms, and the
    // main thread's V8 heap.
    let peakRss = process.memoryUsage.rss();
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }, 50);
    const rssBefore = process.memoryUsage.rss();
    t = performance.now();
    cpu = process.cpuUsage();
    const { result, summary } = await runAnalysis({ logs: logsDir, puzzles: join(root, 'study-config', 'study.json'), out: join(dir, `out-${validate}`), pauseThreshold: 'auto', validate });
    const wall = performance.now() - t;
    const cpuMs = cpuSince(cpu);
    clearInterval(sampler);
    const lmmFits = result.lmm.filter((r, i, all) => all.findIndex((x) => x.formula === r.formula) === i).map((r) => r.fit_ms);
    const tm = summary.timings;
    console.log(`\nanalyze (${validate ? 'default: every record validated' : '--no-validate'}; load average before ${before}):`);
    console.log(`  total:                       ${s(wall)} wall, ${s(cpuMs)} CPU (main + workers); target < ${s(TARGET_MS)}: ${wall < TARGET_MS ? 'met' : 'NOT met'}`);
    console.log(`  memory:                      peak resident set ${(peakRss / 2 ** 20).toFixed(0)} MB (${(rssBefore / 2 ** 20).toFixed(0)} MB before), main-thread heap peak ${(peakHeap / 2 ** 20).toFixed(0)} MB; logs on disk ${(bytes / 2 ** 20).toFixed(0)} MB`);
    console.log(`  vs baselines:                ${(wall / readMs).toFixed(1)}x read bytes (a), ${(wall / parseMs).toFixed(2)}x read + parse on one thread (b), ${(wall / (parseMs / cores)).toFixed(2)}x (b) / ${cores} cores; CPU ${(cpuMs / parseCpu).toFixed(2)}x the CPU of (b)`);
    console.log(`  read + signals (${cores} threads): ${s(tm.signals_ms)}`);
    console.log(`  statistics (analyzeExtracted): ${s(tm.analysis_ms)}, of which:`);
    console.log(`    GMM threshold (1..4 components): ${s(result.pauses.fit_ms)} on ${result.pauses.n} log gaps (the 3-component fit on a worker while this thread fits the rest and the LMMs not on pauses); threshold ${result.pauses.threshold_s.toFixed(3)} s, ΔBIC ${result.pauses.delta_bic.toFixed(1)}`);
    console.log(`    LMM fits:                  ${s(tm.lmm_ms)} for ${lmmFits.length} models on ${result.attempts.length} attempts; per fit ${s(Math.min(...lmmFits))}–${s(Math.max(...lmmFits))}`);
    console.log(`  write tables:                ${s(tm.write_ms)}; report: ${s(tm.report_ms ?? 0)}; rest (puzzle set, codes, merge): ${s(wall - tm.signals_ms - tm.analysis_ms - tm.write_ms - (tm.report_ms ?? 0))}`);
    const c = result.lmm.find((r) => r.model === 'table2' && r.metric === 'sat_conflicts' && r.term === 'sat_conflicts');
    const e = result.lmm.find((r) => r.model === 'table2' && r.metric === 'sat_conflicts' && r.term === 'expertise');
    console.log(
      `  summary: target ≤ ${s(TARGET_MS)}; measured ${s(wall)} wall, ${s(cpuMs)} CPU (${wall <= TARGET_MS ? 'met' : `NOT met, ${(wall / TARGET_MS).toFixed(1)}x the target`}); memory: peak resident set ${(peakRss / 2 ** 20).toFixed(0)} MB; load average ${before} before, ${load()} after`,
    );
    console.log(`  planted effect recovered:    conflicts ${c?.estimate.toFixed(3)} (planted +0.6 per SD), expertise ${e?.estimate.toFixed(3)} (planted skill -0.5)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
