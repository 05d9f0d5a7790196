// The compiled build (scripts/build.mjs): the bundled `nonolab` CLI gives the same output as the TypeScript sources run through tsx, worker threads included, with no TypeScript at run time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCompiled } from './support/compiled.ts';
import { repoRoot } from './support/server.ts';
import { tempDir } from './support/tempDirs.ts';
import { STATS_WORKER_MIN_SESSIONS } from '../analysis/pipeline/index.ts';
import { SHARED_EXTRACTION_MIN } from '../analysis/pipeline/workers.ts';

let build: ReturnType<typeof buildCompiled>;
beforeAll(() => {
  build = buildCompiled('cli');
});
afterAll(() => build?.remove());

type Run = { status: number | null; stdout: string; stderr: string };
const compiled = (...args: string[]): Run => spawnSync(process.execPath, [join(build.dir, 'cli.js'), ...args], { cwd: repoRoot, encoding: 'utf8' });
const source = (...args: string[]): Run => spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'analysis', 'cli.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
/** Run both and expect the same exit status and standard output (progress bars on stderr left aside). */
function same(args: string[], normalise: (s: string) => string = (s) => s): Run {
  const a = compiled(...args);
  const b = source(...args);
  expect(a.status, a.stderr).toBe(b.status);
  expect(normalise(a.stdout)).toBe(normalise(b.stdout));
  return a;
}

describe('compiled build', () => {
  it('bundles the CLI, the server and each worker thread, and none of them loads TypeScript tooling', () => {
    const files = readdirSync(build.dir);
    for (const name of ['cli.js', 'server.js', 'extractWorker.js', 'gmmWorker.js', 'satMetricsWorker.js', 'phaseWorker.js']) expect(files).toContain(name);
    for (const name of files.filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(build.dir, name), 'utf8');
      expect(text, name).not.toMatch(/from\s*["'](tsx|typescript|esbuild)(\/[^"']*)?["']/);
      expect(text, name).not.toMatch(/import\(\s*["'](tsx|typescript)["']/);
    }
    // No worker shims beside the sources either.
    expect(readdirSync(join(repoRoot, 'analysis', 'pipeline')).filter((f) => f.endsWith('.mjs'))).toEqual([]);
  });

  it('--help is the same', () => {
    const run = same(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: nonolab');
  });

  it('bin/nonolab.mjs (package.json "bin") runs the compiled CLI that npm install built in dist/node', () => {
    const bin = spawnSync(process.execPath, [join(repoRoot, 'bin', 'nonolab.mjs'), 'validate-config', join('study-config', 'study.json')], { cwd: repoRoot, encoding: 'utf8' });
    expect(bin.status, bin.stderr).toBe(0);
    expect(bin.stdout).toBe(compiled('validate-config', join('study-config', 'study.json')).stdout);
    expect(readFileSync(join(repoRoot, 'bin', 'nonolab.mjs'), 'utf8')).toContain("import('../dist/node/cli.js')");
  });

  it('./nonolab (the repository root, executable) runs bin/nonolab.mjs: the same --help as the compiled CLI, from any folder', () => {
    const script = join(repoRoot, 'nonolab');
    expect(statSync(script).mode & 0o111, 'executable').not.toBe(0);
    expect(readFileSync(script, 'utf8')).toContain('bin/nonolab.mjs');
    for (const cwd of [repoRoot, tempDir('nonolab-build-')]) {
      const run = spawnSync(script, ['--help'], { cwd, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('Usage: nonolab');
      expect(run.stdout).toBe(compiled('--help').stdout);
    }
  });

  it('generate with a seed writes byte-identical NDJSON, with and without --sat', () => {
    const plain = same(['generate', '--size', '10x10', '--density', '0.5', '--count', '40', '--seed', '5']);
    expect(plain.stdout.trim().split('\n')).toHaveLength(40);
    const sat = same(['generate', '--size', '8x8', '--density', '0.5', '--count', '8', '--seed', '11', '--sat']);
    expect(JSON.parse(sat.stdout.split('\n')[0]).metrics.sat.conflicts).toBeTypeOf('number');
  });

  it('generate --sat on worker threads (--threads 2, from the bundle and from source) writes what one thread writes', () => {
    const args = ['generate', '--size', '6x6', '--density', '0.5', '--count', '120', '--seed', '9', '--sat'];
    const parallel = same([...args, '--threads', '2']);
    const inline = compiled(...args, '--threads', '1');
    expect(inline.status).toBe(0);
    expect(parallel.stdout).toBe(inline.stdout);
    const lines = parallel.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(120);
    expect(Object.keys(lines[0].metrics)).toEqual(['human', 'sat', 'sat_dfa']);
    expect(compiled(...args, '--threads', '0').stderr).toContain('--threads: expected an integer from 1 to 64');
  });

  it('phase on worker threads (the bundle, --threads 2) writes the rows one thread of the source writes, but for the timings', () => {
    const dir = tempDir('nonolab-build-phase-');
    const args = ['phase', '--sizes', '6,7', '--densities', '0.4:0.5:0.1', '--boards', '3', '--encoding', 'block-start'];
    const a = compiled(...args, '--threads', '2', '--raw', join(dir, 'bundle.csv'));
    const b = source(...args, '--threads', '1', '--raw', join(dir, 'source.csv'));
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    const rows = (f: string) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => l.split(',').slice(0, -1).join(','));
    expect(rows('bundle.csv')).toHaveLength(13);
    expect(rows('bundle.csv')).toEqual(rows('source.csv'));
  });

  it('plot-metrics draws the same SVG (Vega, loaded on first use, from its own chunk of the bundle)', () => {
    const dir = tempDir('nonolab-build-plot-');
    const puzzles = join(dir, 'puzzles.ndjson');
    const gen = compiled('generate', '--size', '8x8', '--count', '30', '--seed', '3', '--sat', '--out', puzzles);
    expect(gen.status, gen.stderr).toBe(0);
    expect(compiled('plot-metrics', puzzles, '--out', join(dir, 'compiled.svg')).status).toBe(0);
    expect(source('plot-metrics', puzzles, '--out', join(dir, 'source.svg')).status).toBe(0);
    const svg = readFileSync(join(dir, 'compiled.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toBe(readFileSync(join(dir, 'source.svg'), 'utf8'));
  });

  it('sat on fixture CNFs gives the same statistics', () => {
    const noTime = (s: string) => s.replace(/"time_ms":[0-9.e+-]+/g, '"time_ms":0');
    const fixtures = ['nono10-0.cnf', 'nono10-1.cnf'].map((f) => join('shared', 'sat', 'fixtures', 'minisat', f));
    const run = same(['sat', '--binary-order', ...fixtures], noTime);
    expect(run.stdout.trim().split('\n').map((l) => JSON.parse(l).result)).toEqual(['SAT', 'SAT']);
  });

  it('validate-config: same verdict on the default study and the same error on a bad one', () => {
    const ok = same(['validate-config', join('study-config', 'study.json')]);
    expect(ok.status).toBe(0);
    const bad = join(tempDir('nonolab-build-'), 'bad.json');
    writeFileSync(bad, JSON.stringify({ id: 1 }));
    const a = compiled('validate-config', bad);
    const b = source('validate-config', bad);
    expect(a.status).toBe(2);
    expect(a.status).toBe(b.status);
    expect(a.stderr).toBe(b.stderr);
    expect(a.stderr).toContain('id: Invalid input');
  });

  it('analyze runs its worker threads from the bundle and writes the same tables as the sources', () => {
    // Extraction shared with a worker thread (SHARED_EXTRACTION_MIN sessions and up) and the statistics worker
    // (STATS_WORKER_MIN_SESSIONS and up: mixture, sat_gac, measure comparison): the fewest sessions that start both, so
    // the test stays well inside its time on a loaded machine (520 sessions took over 60 s at load 7).
    const sessions = Math.max(SHARED_EXTRACTION_MIN, STATS_WORKER_MIN_SESSIONS);
    const dir = tempDir('nonolab-build-analyze-');
    expect(compiled('simulate', '--participants', String(sessions), '--seed', '3', '--out', join(dir, 'logs')).status).toBe(0);
    const args = (out: string) => ['analyze', '--logs', join(dir, 'logs'), '--puzzles', join('study-config', 'study.json'), '--out', join(dir, out), '--no-report'];
    const a = compiled(...args('compiled'));
    const b = source(...args('source'));
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(JSON.parse(a.stdout).sessions.analysed).toBe(sessions);
    const files = readdirSync(join(dir, 'compiled')).sort();
    expect(files).toEqual(readdirSync(join(dir, 'source')).sort());
    expect(files).toContain('attempts.csv');
    const noTiming = (s: string) => s.replace(/"fit_ms":\s*[0-9.e+-]+/g, '"fit_ms":0');
    for (const f of files) expect(noTiming(readFileSync(join(dir, 'compiled', f), 'utf8')), f).toBe(noTiming(readFileSync(join(dir, 'source', f), 'utf8')));
  });
});
