// `npm run bench -- generate` (issue 41): `generate --method perturb` beside `--method reject` on the same seed, in the same run.
//
// Targets (issue 41): 30x30 at density 0.5, 10 puzzles with perturb in <= 10 s; 1,000 10x10 puzzles (reject, the
// default) in <= 1 s end to end. Each is timed in this process (wall and CPU time: on a machine shared with other
// jobs the CPU time is the figure that does not depend on the load) and, when the CLI is built (dist/node/cli.js),
// end to end as `nonolab generate` (wall and CPU time of the whole process, node's start included). The machine's load is
// printed before and after; reject is the anchor measured in the same run. BENCH_GENERATE_COUNT=N changes the 10.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg, availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { generatePuzzles } from '../shared/nonogram/index.ts';
import type { Puzzle } from '../shared/schema/puzzle.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const count = Number(process.env.BENCH_GENERATE_COUNT ?? 10);
const load = () => console.log(`[load ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores]`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

/** A target's verdict: on wall time, and when that is missed, whether the CPU time is within (a loaded machine). */
const verdict = (wall: number, cpu: number, limit: number) => (wall <= limit ? 'met' : cpu <= limit ? 'MISSED on wall time; the CPU time is within (a loaded machine)' : 'MISSED');

/** CPU time (ms) of this process's finished children (Linux: /proc/self/stat, clock ticks of 10 ms); NaN elsewhere. */
function childCpu(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime (fields 16 and 17 of stat)
  } catch {
    return NaN;
  }
}

/** Wall and CPU time of `run` in this process. */
function timed<T>(run: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = run();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

load();
console.log(`in process (${count} puzzles per method, 30x30, density 0.5, seed 1):`);
console.log('method   wall      cpu       candidates  changes (median, max)  target (perturb: <= 10 s)');
const inProcess: Record<string, { wall: number; cpu: number }> = {};
for (const method of ['reject', 'perturb'] as const) {
  let candidates = 0;
  const r = timed(() => generatePuzzles({ width: 30, height: 30, density: 0.5, count, seed: 1, method }, (p) => (candidates = p.candidates)));
  inProcess[method] = r;
  const changes = r.value.map((p: Puzzle) => (p.metrics?.perturb as { changes: number } | undefined)?.changes ?? 0);
  const limit = 10_000 * (count / 10);
  const target = method !== 'perturb' ? '(anchor)' : verdict(r.wall, r.cpu, limit);
  const changed = method === 'perturb' ? `${median(changes)}, ${Math.max(...changes)}` : '-';
  console.log(`${method.padEnd(8)} ${secs(r.wall).padEnd(9)} ${secs(r.cpu).padEnd(9)} ${String(candidates).padEnd(11)} ${changed.padEnd(22)} ${target}`);
}
console.log(`perturb / reject: wall ${(inProcess.perturb.wall / inProcess.reject.wall).toFixed(2)}, cpu ${(inProcess.perturb.cpu / inProcess.reject.cpu).toFixed(2)}`);
{
  const r = timed(() => generatePuzzles({ width: 10, height: 10, density: 0.5, count: 1000, seed: 1 }));
  console.log(`1,000 10x10 (reject), in process: wall ${secs(r.wall)}, cpu ${secs(r.cpu)}`);
}
load();

const cli = join(root, 'dist', 'node', 'cli.js');
if (!existsSync(cli)) console.log('end to end: skipped, the CLI is not built (npm run build:node)');
else {
  const dir = mkdtempSync(join(tmpdir(), 'nonolab-gen-bench-'));
  const run = (args: string[]): { wall: number; cpu: number; lines: number } => {
    const out = join(dir, 'out.ndjson');
    const c0 = childCpu();
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [join(root, 'bin', 'nonolab.mjs'), 'generate', ...args, '--out', out], { encoding: 'utf8' });
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(`nonolab generate ${args.join(' ')} failed: ${r.stderr}`);
    return { wall, cpu: childCpu() - c0, lines: readFileSync(out, 'utf8').trim().split('\n').length };
  };
  const cpuNote = (r: { cpu: number }) => (Number.isNaN(r.cpu) ? '' : `, cpu ${secs(r.cpu)}`);
  console.log('end to end (`nonolab generate ...`, wall and CPU time of the process):');
  const e2e: Record<string, number> = {};
  for (const method of ['reject', 'perturb']) {
    const r = run(['--size', '30x30', '--density', '0.5', '--count', String(count), '--seed', '1', '--method', method]);
    e2e[method] = r.wall;
    console.log(`  30x30 0.5 x${r.lines} --method ${method}: wall ${secs(r.wall)}${cpuNote(r)}${method === 'perturb' ? ` (target <= 10 s: ${verdict(r.wall, r.cpu, 10_000 * (count / 10))})` : ''}`);
  }
  console.log(`  perturb / reject: ${(e2e.perturb / e2e.reject).toFixed(2)}`);
  const small = run(['--size', '10x10', '--count', '1000', '--seed', '1']);
  console.log(`  10x10 x${small.lines} (reject): wall ${secs(small.wall)}${cpuNote(small)} (target <= 1 s: ${verdict(small.wall, small.cpu, 1000)})`);
  rmSync(dir, { recursive: true, force: true });
  load();
}
