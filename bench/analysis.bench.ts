// Benchmark: simulate 10,000 bot participants (or NONOLAB_BENCH_PARTICIPANTS), then analyse them (issue 16's target: at most 5 s for 10,000; issue 37's: at most 2 s for 60, with the trajectories, every record validated), printing CPU time, memory and the load average beside the wall time, the GMM and LMM fit times against an I/O baseline.
/*
 * Steps: (1) simulate N participants (NONOLAB_BENCH_PARTICIPANTS, default 10,000) straight to NDJSON in a
 * temporary directory (not part of the target); (2) baselines, in the same run and on the same files:
 * (a) read the bytes of every log (no decoding): the I/O floor; (b) read, decode and JSON.parse every line
 * on one thread, the floor any analysis of these logs pays for parsing (on C cores at best (b) / C);
 * (3) `nonolab analyze` as an analyst runs it: the compiled CLI (dist/node, rebuilt first if stale) in its own process,
 * by default (every record validated), with its wall time, its CPU time (user + system of the child, from
 * /proc/self/stat: Linux) and its peak resident set (VmHWM from /proc/<pid>/status, sampled every 50 ms); the issue's
 * target is checked on this pass; (4) the full analysis in this process (`runAnalysis`, the TypeScript source through
 * tsx, so the stages can be timed: read + signals on worker threads, GMM, 15 LMMs, every CSV and report.html), by
 * wall clock and process CPU (main thread and workers); (5) the same with --no-validate.
 * Wall times depend on how busy the machine is (the load average is printed); run it under
 * `flock /tmp/bench.lock` when others benchmark on the same machine. CPU times and ratios are steadier.
 * NONOLAB_BENCH_LOGS=DIR analyses the logs already in DIR (e.g. kept from an earlier run) instead of simulating.
 * The last line of each pass is the summary: target, measured wall and CPU time, peak memory, load average. The target
 * is issue 37's (an analyst rerunning `analyze` while a study runs: 60 participants in at most 2 s on a quiet machine)
 * up to 60 participants, issue 16's (10,000 in at most 5 s) above. With few participants one run is noisy: the CLI pass
 * is repeated (NONOLAB_BENCH_CLI_RUNS, default 3 up to 100 participants, else 1) and its best and median printed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir, availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { simulateToDir } from '../analysis/simulate/index.ts';
import { runAnalysis, sessionFiles } from '../analysis/pipeline/index.ts';

const N = Number(process.env.NONOLAB_BENCH_PARTICIPANTS ?? 10_000);
const TARGET_MS = N <= 60 ? 2_000 : 5_000;
const TARGET_NAME = N <= 60 ? "issue 37's target (60 participants)" : "issue 16's target (10,000 participants)";
const CLI_RUNS = Number(process.env.NONOLAB_BENCH_CLI_RUNS ?? (N <= 100 ? 3 : 1));
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
let clockTicks: number | undefined;

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

  // (3) the compiled CLI in its own process
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale', '--node'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) throw new Error('bench: the build failed');
  const runs: Awaited<ReturnType<typeof runCli>>[] = [];
  for (let r = 0; r < CLI_RUNS; r++) runs.push(await runCli(['analyze', '--logs', logsDir, '--puzzles', join(root, 'study-config', 'study.json'), '--out', join(dir, 'out-cli')]));
  const byWall = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const cli = byWall[Math.floor((byWall.length - 1) / 2)];
  console.log(`\nnonolab analyze (the compiled CLI, its own process; every record validated; ${runs.length} run(s); load average before ${runs[0].loadBefore}):`);
  if (runs.length > 1) console.log(`  runs (wall / CPU):           ${runs.map((r) => `${s(r.wallMs)} / ${r.cpuMs === null ? 'n/a' : s(r.cpuMs)}`).join('; ')}; best wall ${s(byWall[0].wallMs)}, least CPU ${runs.every((r) => r.cpuMs !== null) ? s(Math.min(...runs.map((r) => r.cpuMs!))) : 'n/a'}`);
  console.log(
    `  summary: ${TARGET_NAME} ≤ ${s(TARGET_MS)} wall; measured ${s(cli.wallMs)} wall${runs.length > 1 ? ' (median)' : ''}, ${cli.cpuMs === null ? 'CPU n/a' : `${s(cli.cpuMs)} CPU`} (${cli.wallMs <= TARGET_MS ? 'met' : `NOT met, ${(cli.wallMs / TARGET_MS).toFixed(1)}x the target`}); anchor (b) read + JSON.parse ${s(parseMs)} wall, ${s(parseCpu)} CPU; memory: peak resident set ${cli.peakKb === null ? 'n/a' : `${(cli.peakKb / 1024).toFixed(0)} MB`}; load average ${runs[0].loadBefore} before, ${load()} after`,
  );
  console.log(`  vs baselines:                ${(cli.wallMs / parseMs).toFixed(2)}x read + parse on one thread (b)${cli.cpuMs === null ? '' : `; CPU ${(cli.cpuMs / parseCpu).toFixed(2)}x the CPU of (b)`}; its stages (wall): ${Object.entries(cli.timings).map(([k, v]) => `${k.replace(/_ms$/, '')} ${s(v)}`).join(', ')}`);

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

/** Children's CPU time so far (user + system of the waited-for children, ms), from /proc/self/stat; null off Linux. */
function childrenCpuMs(): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]); // cutime, cstime
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
  return (ticks * 1000) / clockTicks;
}

/** Run bin/nonolab with args: wall time, CPU time, peak resident set (kB, sampled), the summary's timings. */
async function runCli(args: string[]): Promise<{ wallMs: number; cpuMs: number | null; peakKb: number | null; loadBefore: string; timings: Record<string, number> }> {
  const loadBefore = load();
  const cpuBefore = childrenCpuMs();
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin', 'nonolab.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  let peakKb: number | null = null;
  const status = `/proc/${child.pid}/status`;
  const sample = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'));
      if (m) peakKb = Math.max(peakKb ?? 0, Number(m[1]));
    } catch {
      // the process has just ended
    }
  };
  const sampler = setInterval(sample, 50);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  if (code !== 0) throw new Error(`nonolab ${args[0]} exited with ${code}: ${err.slice(-2000)}`);
  const cpuAfter = childrenCpuMs();
  const summary = JSON.parse(out) as { timings: Record<string, number> };
  return { wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, peakKb, loadBefore, timings: summary.timings };
}
