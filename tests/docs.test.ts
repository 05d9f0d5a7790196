// The docs' examples come from the code: every `console` block of README.md and docs/*.md is run and what it prints compared, and the running-server walk-through of docs/analysis.md is run as printed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, startServer } from './support/server.ts';
import { tempDir } from './support/tempDirs.ts';

/** The `nonolab` command, however a doc spells it, run from the TypeScript sources. */
const COMMAND = /^(?:npx nonolab|\.\/nonolab|nonolab)(?= |$)/;
const cli = (args: string[], cwd: string) => spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'analysis', 'cli.ts'), ...args], { cwd, encoding: 'utf8' });

/** What may differ from run to run: a solve line's wall time. */
const normalise = (text: string): string =>
  text
    .replace(/"time_ms":[0-9.]+/g, '"time_ms":…')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();

interface Step {
  command: string;
  output: string;
}

/** The fenced ```console blocks of a markdown text, each as its `$ command` lines with the lines printed after each. */
export function consoleBlocks(markdown: string): Step[][] {
  const blocks: Step[][] = [];
  for (const [, body] of markdown.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const steps: Step[] = [];
    for (const line of body.split('\n')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2).trim(), output: '' });
      else if (steps.length) steps[steps.length - 1].output += `${line}\n`;
      else throw new Error(`a console block must start with a "$ command" line, got: ${line}`);
    }
    blocks.push(steps);
  }
  return blocks;
}

const docs = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const work = join(repoRoot, '.tmp', `docs-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder inside the package (node_modules resolves) with the repository's study-config/ beside the example's files. */
function exampleDir(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'study-config'))) symlinkSync(join(repoRoot, 'study-config'), join(dir, 'study-config'));
  return dir;
}

describe('the docs show what the code prints', () => {
  it('the docs have console examples, README.md and docs/solve.md among them', () => {
    const withExamples = docs.filter((doc) => consoleBlocks(readFileSync(join(repoRoot, doc), 'utf8')).length > 0);
    expect(withExamples).toEqual(expect.arrayContaining(['README.md', 'docs/solve.md']));
  });

  for (const doc of docs) {
    const blocks = consoleBlocks(readFileSync(join(repoRoot, doc), 'utf8'));
    blocks.forEach((steps, b) => {
      it(`${doc}, example ${b + 1}: ${steps.map((s) => s.command).join('; ')}`, () => {
        const dir = exampleDir(doc.replace(/\W/g, '_')); // one folder per doc: a later example may use an earlier one's files
        for (const step of steps) {
          const file = /^cat (\S+)$/.exec(step.command);
          if (file) {
            // `$ cat F` shows a file the example uses: written, not checked.
            writeFileSync(join(dir, file[1]), step.output);
            continue;
          }
          expect(step.command, `${doc}: only the nonolab command (and cat) run in examples`).toMatch(COMMAND);
          const args = step.command.replace(COMMAND, '').trim().split(/\s+/).filter(Boolean);
          const run = cli(args, dir);
          expect(normalise(run.stdout + run.stderr), `${doc}: $ ${step.command}`).toBe(normalise(step.output));
        }
      });
    });
  }
});

describe('the docs run nonolab as ./nonolab', () => {
  it('no code example in README.md, docs/ or study-config/README.md runs `npx nonolab` (npx costs about 3 s a call; `./nonolab` runs the same CLI)', () => {
    const calls: string[] = [];
    for (const doc of [...docs, 'study-config/README.md']) {
      const text = readFileSync(join(repoRoot, doc), 'utf8');
      // the examples: code blocks (docs/build.md's inline `npx nonolab --help` is a measurement of npx itself)
      for (const [, body] of text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm))
        body.split('\n').forEach((line) => /^(\$ )?npx nonolab\b/.test(line.trim()) && calls.push(`${doc}: ${line.trim()}`));
    }
    expect(calls).toEqual([]);
  });
});

describe('docs/analysis.md: bots through a running server', () => {
  it('study-config/simulation.json is study.json with timing.trust_client_clock on, and nothing else changed', () => {
    const read = (name: string) => JSON.parse(readFileSync(join(repoRoot, 'study-config', name), 'utf8'));
    const study = read('study.json');
    expect(read('simulation.json'), 'copy study.json to simulation.json and set "timing": {"trust_client_clock": true} again').toEqual({ ...study, timing: { ...study.timing, trust_client_clock: true } });
  });

  it('runs as printed: the server on the config it names, simulate --server, then analyze without an "another config" warning', async () => {
    const text = readFileSync(join(repoRoot, 'docs', 'analysis.md'), 'utf8');
    const block = /Through a running server[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)?.[1];
    expect(block, 'the walk-through block').toBeDefined();
    const lines = block!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    expect(lines).toHaveLength(3);
    const tmp = tempDir('nonolab-docs-live-');
    // The example's /tmp paths in a temporary folder of the test's, and its server on a free port.
    const here = (word: string) => word.replace(/^\/tmp\//, `${tmp}/`);
    const serverWords = lines[0].replace(/&$/, '').trim().split(/\s+/);
    const env = Object.fromEntries(serverWords.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), here(w.slice(w.indexOf('=') + 1))]));
    expect(serverWords.filter((w) => !/^[A-Z_]+=/.test(w))).toEqual(['node', 'dist/node/server.js']);
    const { NONOLAB_DATA_DIR: dataDir, NONOLAB_CONFIG: config, ...rest } = env;
    expect(dataDir, 'the example names its data directory').toBeDefined();
    const server = await startServer({ dataDir, configPath: config ? join(repoRoot, config) : undefined, env: rest });
    try {
      const run = (line: string) => {
        expect(line).toMatch(COMMAND);
        const args = line.replace(COMMAND, '').trim().split(/\s+/).map((w) => here(w.replace(/^http:\/\/localhost:8080\/?$/, server.url)));
        return cli(args, repoRoot);
      };
      const simulate = run(lines[1]);
      expect(simulate.status, simulate.stderr).toBe(0);
      expect(JSON.parse(simulate.stdout)).toMatchObject({ mode: 'server', participants: 20 });
      const analyze = run(lines[2]);
      expect(analyze.status, analyze.stderr).toBe(0);
      expect(analyze.stderr).not.toContain('another config');
      expect(existsSync(join(tmp, 'live-out', 'attempts.csv'))).toBe(true);
    } finally {
      await server.stop();
    }
  }, 240_000);
});

describe('README.md: A Sudoku study', () => {
  it("runs as printed: the three commands give study-config/sudoku.json's six puzzles, then validate-config, simulate and analyze give the paper's tables for Sudoku", () => {
    const text = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = /^### A Sudoku study\n([\s\S]*?)^### /m.exec(text)?.[1];
    expect(section, 'the section').toBeDefined();
    const blocks = [...section!.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].split('\n').map((l) => l.trim()).filter(Boolean));
    expect(blocks.map((b) => b.length)).toEqual([3, 3]);
    const dir = exampleDir('readme-sudoku');
    const tmp = tempDir('nonolab-docs-sudoku-');
    // The example's /tmp paths in a temporary folder of the test's.
    const here = (word: string) => word.replace(/^\/tmp\//, `${tmp}/`);
    const run = (line: string) => {
      expect(line).toMatch(COMMAND);
      const result = cli(line.replace(COMMAND, '').trim().split(/\s+/).map(here), dir);
      expect(result.status, `$ ${line}\n${result.stderr}`).toBe(0);
      return result;
    };
    for (const line of blocks[0]) run(line);
    const made = readFileSync(join(dir, 'set.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).id);
    const study = JSON.parse(readFileSync(join(repoRoot, 'study-config', 'sudoku.json'), 'utf8'));
    expect(made).toEqual(study.puzzles.map((p: { id: string }) => p.id));

    const [validate, simulate, analyze] = blocks[1].map(run);
    expect(JSON.parse(validate.stdout)).toMatchObject({ ok: true, puzzles: 6 });
    expect(JSON.parse(simulate.stdout)).toMatchObject({ participants: 60, mode: 'ndjson' });
    const summary = JSON.parse(analyze.stdout);
    expect(summary.sessions).toMatchObject({ total: 60, analysed: 60 });
    expect(summary.attempts).toBe(180);
    expect(summary.figures).toContain('figure2'); // from --candidates
    expect(summary.warnings.filter((w: string) => /drag/.test(w))).toEqual([]);
    const out = here(blocks[1][2].split(/\s+/).at(-1)!);
    const puzzles = readFileSync(join(out, 'puzzles.csv'), 'utf8').trim().split('\n');
    expect(puzzles).toHaveLength(7);
    for (const m of ['kind', 'minimal_conflicts', 'extended_conflicts', 'human_level', 'human_propagation_level']) expect(puzzles[0].split(','), m).toContain(m);
    for (const f of ['attempts.csv', 'participants.csv', 'correlations.csv', 'lmm.csv', 'robustness.csv', 'report.html']) expect(existsSync(join(out, f)), f).toBe(true);
  }, 240_000);
});
