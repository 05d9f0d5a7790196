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
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const R = Number(process.env.NONOLAB_BENCH_RUNS ?? 5);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('scripts/build.mjs --if-stale failed');

/** Median and minimum of R timings of `once`. */
async function measure(once: () => Promise<number> | number): Promise<{ median: number; min: number }> {
  const times: number[] = [];
  for (let i = 0; i < R; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

function timeRun(command: string, args: string[]): number {
  const t = performance.now();
  const run = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return ms;
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
const rows: [string, number | null, { median: number; min: number }, { median: number; min: number } | null][] = [];
const floor = await measure(() => timeRun(node, ['-e', '0']));
console.log(`floor: node -e 0                ${s(floor.median)} [${s(floor.min)}]`);

const cases: [string, number, string[]][] = [
  ['nonolab --help', 300, ['--help']],
  ['generate 10x10 d=0.5 count 1000', 1000, generate],
  ['generate ... --sat', 2000, [...generate, '--sat']],
];
for (const [name, target, args] of cases) {
  const built = await measure(() => timeRun(node, [...compiled, ...args]));
  const anchor = await measure(() => timeRun(node, [...tsx, ...args]));
  rows.push([name, target, built, anchor]);
}
const server = await measure(() => timeServer(node, [join(root, 'dist', 'node', 'server.js')]));
const serverTsx = await measure(() => timeServer(node, ['--import', 'tsx', join(root, 'server', 'main.ts')]));
rows.push(['server ready (empty data dir)', 1000, server, serverTsx]);
const npmStart = await measure(() => timeServer('npm', ['start', '--silent']));
rows.push(['  the same via `npm start`', null, npmStart, null]);

console.log('');
console.log('figure                            target   compiled (median [min])   tsx anchor (median [min])   anchor / compiled   verdict');
for (const [name, target, built, anchor] of rows) {
  const verdict = target === null ? '' : built.median <= target ? 'met' : 'NOT met';
  console.log(
    `${name.padEnd(33)} ${(target === null ? '-' : s(target)).padEnd(8)} ${`${s(built.median)} [${s(built.min)}]`.padEnd(25)} ${(anchor ? `${s(anchor.median)} [${s(anchor.min)}]` : '-').padEnd(27)} ${(anchor ? `${(anchor.median / built.median).toFixed(1)}x` : '-').padEnd(19)} ${verdict}`,
  );
}
console.log(`\nload average after: ${load()} (on ${availableParallelism()} cores: above ${availableParallelism()} means processes wait for a core, and wall times grow)`);
