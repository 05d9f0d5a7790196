// Benchmark: start-up of the compiled build (issue 16) — `nonolab --help`, `generate` of 1000 puzzles with and without --sat, and the server's time to accept — each beside its target and the TypeScript-through-tsx anchor measured in the same run.
/*
 * Every figure is the wall time of a fresh process, end to end (spawn to exit; for the server, spawn to the first
 * answered GET /api/health on an empty data directory), median of R runs (NONOLAB_BENCH_RUNS, default 5; min in
 * brackets). Anchors, in the same run: `node -e 0` (the floor of any node process), the same command run from the
 * TypeScript sources through tsx (how bin/nonolab.mjs and `npm start` ran before the build), and `npm start` itself
 * (the README's command: npm, the staleness check of scripts/build.mjs, then the compiled server). The machine is
 * shared: the load average is printed before and after; run it as `flock /tmp/bench.lock npm run bench -- startup`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const R = Number(process.env.NONOLAB_BENCH_RUNS ?? 5);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('scripts/build.mjs --if-stale failed');

type Figure = { median: number; min: number; cpu?: number };
/** Median and minimum of R timings of `once`. */
async function measure(once: () => Promise<number> | number): Promise<Figure> {
  const times: number[] = [];
  for (let i = 0; i < R; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

const cpuTimes: number[] = [];
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/** Wall time of one run; its CPU time (user + system, from /usr/bin/time when installed) goes to cpuTimes. */
function timeRun(command: string, args: string[]): number {
  const [cmd, argv] = timeBin ? [timeBin, ['-f', 'cpu %U %S', command, ...args]] : [command, args];
  const t = performance.now();
  const run = spawnSync(cmd, argv, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  const cpu = /cpu ([0-9.]+) ([0-9.]+)\s*$/.exec(run.stderr);
  if (cpu) cpuTimes.push((Number(cpu[1]) + Number(cpu[2])) * 1000);
  return ms;
}

/** Median and minimum of R timed runs of a command, wall and CPU. */
async function measureRun(command: string, args: string[]): Promise<Figure> {
  cpuTimes.length = 0;
  const wall = await measure(() => timeRun(command, args));
  const cpu = cpuTimes.length === R ? [...cpuTimes].sort((a, b) => a - b)[Math.floor(R / 2)] : undefined;
  return { ...wall, cpu };
}

/** Spawn to the first answered GET /api/health, on a fresh empty data directory; then stop the server. */
async function timeServer(command: string, args: string[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nonolab-bench-startup-'));
  const t = performance.now();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', NONOLAB_DATA_DIR: dataDir, NONOLAB_ADMIN_PASSWORD: 'bench', UV_THREADPOOL_SIZE: '64' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: `npm start` runs a shell and node below it
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /at (http:\/\/localhost:\d+)\//.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
    });
    const health = await fetch(`${url}/api/health`);
    if (health.status !== 200) throw new Error(`/api/health answered ${health.status}`);
    return performance.now() - t;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

const compiled = [join(root, 'bin', 'nonolab.mjs')];
const tsx = ['--import', 'tsx', join(root, 'analysis', 'cli.ts')];
const generate = ['generate', '--size', '10x10', '--density', '0.5', '--count', '1000', '--seed', '1'];
const node = process.execPath;

console.log(`cores: ${availableParallelism()}; runs per figure: ${R} (median [min]); load average before: ${load()}`);
const rows: [string, number | null, Figure, Figure | null][] = [];
const floor = await measureRun(node, ['-e', '0']);
console.log(`floor: node -e 0                ${s(floor.median)} [${s(floor.min)}] wall${floor.cpu === undefined ? '' : `, ${s(floor.cpu)} CPU`}`);

const cases: [string, number, string[]][] = [
  ['nonolab --help', 300, ['--help']],
  ['generate 10x10 d=0.5 count 1000', 1000, generate],
  ['generate ... --sat', 2000, [...generate, '--sat']],
];
for (const [name, target, args] of cases) {
  const built = await measureRun(node, [...compiled, ...args]);
  const anchor = await measureRun(node, [...tsx, ...args]);
  rows.push([name, target, built, anchor]);
}
const server = await measure(() => timeServer(node, [join(root, 'dist', 'node', 'server.js')]));
const serverTsx = await measure(() => timeServer(node, ['--import', 'tsx', join(root, 'server', 'main.ts')]));
rows.push(['server ready (empty data dir)', 1000, server, serverTsx]);
const npmStart = await measure(() => timeServer('npm', ['start', '--silent']));
rows.push(['  the same via `npm start`', null, npmStart, null]);

console.log('');
const cell = (f: Figure | null) => (f ? `${s(f.median)} [${s(f.min)}]${f.cpu === undefined ? '' : ` ${s(f.cpu)}`}` : '-');
console.log('wall time: median [min] of the runs, then the median CPU time (user + system, all threads) where measured');
console.log(`${'figure'.padEnd(33)} ${'target'.padEnd(8)} ${'compiled'.padEnd(27)} ${'tsx anchor'.padEnd(27)} ${'anchor/compiled'.padEnd(16)} verdict (wall)`);
for (const [name, target, built, anchor] of rows) {
  const verdict = target === null ? '' : built.median <= target ? 'met' : built.min <= target ? 'met by the fastest run only' : 'NOT met';
  console.log(`${name.padEnd(33)} ${(target === null ? '-' : s(target)).padEnd(8)} ${cell(built).padEnd(27)} ${cell(anchor).padEnd(27)} ${(anchor ? `${(anchor.median / built.median).toFixed(1)}x` : '-').padEnd(16)} ${verdict}`);
}
console.log(`\nload average after: ${load()} (on ${availableParallelism()} cores: above ${availableParallelism()} means processes wait for a core, and wall times grow)`);
