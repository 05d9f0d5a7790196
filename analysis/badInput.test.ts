// Issue 33: every command of the CLI catalog, fed each mistake a user makes (a missing file, an empty file, a binary
// file, a file of the wrong format, a missing required option or argument, a bad option value, an output that cannot
// be written), answers with exit code 2 and one line on stderr naming the file or the option, never a stack trace, and
// writes nothing (stdout empty, the output path absent). Spawned like analysis/cliErrors.test.ts: the real CLI.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, type CommandName } from './commands/catalog.ts';
import { tempDir } from '../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..');
const cli = async (args: string[]) => {
  try {
    const r = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

const dir = tempDir('nonolab-bad-input-');
const f = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
// Inputs: each kind of bad file, and good ones for the cases about options.
const missing = join(dir, 'missing.json');
const empty = f('empty.json', '');
const emptyList = f('empty-list.ndjson', ''); // an NDJSON puzzle list of no line: read, but it holds no puzzle
const binary = f('garbage.dat', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0xff, 0xfe, 0x07, 0x08]));
const table = f('table.csv', 'a,b\n1,2\n3,4\n');
const puzzleJson = f('puzzle.json', '{"rows":[[1]],"cols":[[1]]}\n');
const dimacs = f('formula.cnf', 'p cnf 2 1\n1 -2 0\n');
const svgText = f('picture.png', 'this is not a picture\n');
const goodPuzzle = join(root, 'shared/nonogram/fixtures/simpson-sample.non');
const picture = join(root, 'docs/from-image/face.svg');
const study = join(root, 'study-config/study.json');
const gaps = f('gaps.csv', `gap_s\n${Array.from({ length: 40 }, (_, i) => (0.2 + (i % 7) * 0.3 + (i % 3) * 2).toFixed(2)).join('\n')}\n`);
const ratings = f('ratings.csv', 'participant,puzzle,rating\np1,a,1\np1,b,2\np2,a,2\np2,b,1\n');
const pairsNoTies = f('pairs.csv', 'winner,loser\na,b\nb,c\nc,a\nb,a\n');
const pairsXY = f('xy.csv', 'x,y\n1,2\n2,1\n3,4\n4,3\n5,6\n');
const fileAsFolder = f('a-file', 'x');
const dataDir = join(dir, 'data-empty');
mkdirSync(dataDir);
const binaryLogs = join(dir, 'logs-binary');
mkdirSync(binaryLogs);
writeFileSync(join(binaryLogs, 'session.ndjson'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x07]));
const badConfig = f('config-typo.json', '{"id": "x", "titel": "a study"}\n');
const pool = join(dir, 'pool.ndjson'); // 40 measured candidates, made by `generate --sat` before the cases run

interface Case {
  args: string[];
  /** What the one line must name (the file or the option). */
  names: RegExp;
  /** Output paths that must not exist afterwards. */
  absent?: string[];
}
let n = 0;
const out = (name = 'out.json') => join(dir, `run-${++n}`, name); // in a folder that does not exist: nothing may create it
const outHere = (name: string) => join(dir, `${++n}-${name}`); // a writable path: must stay absent
const fileKinds = (build: (file: string) => Case, kinds: { wrong: string } = { wrong: table }): Case[] =>
  [missing, empty, binary, kinds.wrong].map((file) => build(file));
const base = (p: string) => new RegExp(p.split('/').pop()!.replace(/\./g, '\\.'));

const CASES: Record<CommandName, Case[]> = {
  'validate-config': [
    ...fileKinds((file) => ({ args: ['validate-config', file], names: base(file) }), { wrong: table }),
    { args: ['validate-config'], names: /missing required argument 'file'/ },
    { args: ['validate-config', study, '--bogus', '3'], names: /--bogus/ },
  ],
  sat: [
    ...fileKinds((file) => ({ args: ['sat', file], names: base(file) }), { wrong: puzzleJson }),
    { args: ['sat'], names: /missing required argument 'files'/ },
    { args: ['sat', dimacs, '--conflict-budget', 'lots'], names: /--conflict-budget/ },
    { args: ['sat', dimacs, '--timeout', '-5'], names: /--timeout/ },
  ],
  cnf: [
    ...fileKinds((file) => ({ args: ['cnf', file], names: base(file) }), { wrong: table }),
    { args: ['cnf'], names: /missing required argument 'puzzle'/ },
    { args: ['cnf', goodPuzzle, '--index', 'first'], names: /--index/ },
  ],
  infer: [
    ...fileKinds((file) => ({ args: ['infer', file], names: base(file) }), { wrong: dimacs }),
    { args: ['infer'], names: /missing required argument 'puzzle'/ },
    { args: ['infer', goodPuzzle, '--conflict-budget', '1.5'], names: /--conflict-budget/ },
  ],
  measure: [
    ...fileKinds((file) => ({ args: ['measure', file, '--out', (n++, join(dir, `m${n}.ndjson`))], names: base(file), absent: [join(dir, `m${n}.ndjson`)] }), { wrong: table }),
    { args: ['measure'], names: /missing required argument 'file'/ },
    { args: ['measure', goodPuzzle, '--solvers', 'minisat,nosuchsolver'], names: /--solvers|nosuchsolver/ },
    { args: ['measure', goodPuzzle, '--out', out('m.ndjson')], names: /--out/, absent: [join(dir, `run-${n}`)] },
    { args: ['measure', goodPuzzle, '--out', dir], names: /--out/ },
  ],
  select: [
    ...fileKinds((file) => ({ args: ['select', '--in', file, '--out', (n++, join(dir, `s${n}.json`))], names: base(file), absent: [join(dir, `s${n}.json`)] }), { wrong: table }),
    { args: ['select'], names: /--in/ },
    { args: ['select', '--in', pool, '--scheme', 'spread'], names: /--metrics a,b/ },
    { args: ['select', '--in', pool, '--scheme', 'spread', '--metrics', 'sat_conflicts,sat_bogus'], names: /sat_bogus/ },
    { args: ['select', '--in', pool, '--metrics', 'sat_conflicts,gac_conflicts'], names: /--metrics is for --scheme spread/ },
    { args: ['select', '--in', study, '--metric', 'sat_bogus'], names: /--metric/ },
    // a second solver's metric comes from `measure --solvers NAME`, and the message says so
    { args: ['select', '--in', study, '--metric', 'cadical_conflicts'], names: /metrics\.sat_cadical\.conflicts is missing; run `nonolab measure --solvers cadical` first/ },
    { args: ['select', '--in', study, '--config', binary, '--out', (n++, join(dir, `s${n}.json`))], names: /garbage\.dat/, absent: [join(dir, `s${n}.json`)] },
    { args: ['select', '--in', study, '--out', out()], names: /--out/, absent: [join(dir, `run-${n}`)] },
    // a config that is no study config: one line, before anything is selected or printed
    { args: ['select', '--in', pool, '--config', badConfig, '--out', (n++, join(dir, `s${n}.json`))], names: /--config .*config-typo\.json: not a valid study config/, absent: [join(dir, `s${n}.json`)] },
    { args: ['select', '--in', study, '--out', dir], names: /--out/ },
  ],
  'plot-metrics': [
    ...fileKinds((file) => ({ args: ['plot-metrics', file, '--out', (n++, join(dir, `p${n}.svg`))], names: base(file), absent: [join(dir, `p${n}.svg`)] }), { wrong: table }),
    { args: ['plot-metrics'], names: /missing required argument 'file'/ },
    { args: ['plot-metrics', study, '--bins', 'many'], names: /--bins/ },
    { args: ['plot-metrics', study, '--out', out('p.svg')], names: /--out/, absent: [join(dir, `run-${n}`)] },
  ],
  phase: [
    { args: ['phase', '--boards', 'ten'], names: /--boards/ },
    { args: ['phase', '--sizes', '5', '--densities', '0.5', '--boards', '1', '--threads', '1', '--out', out('summary.csv')], names: /--out/, absent: [join(dir, `run-${n}`)] },
    { args: ['phase', '--sizes', '5', '--densities', '0.5', '--boards', '1', '--threads', '1', '--plot', dir], names: /--plot/ },
    { args: ['phase', '--densities', 'a:b'], names: /--densities/ },
  ],
  gmm: [
    ...fileKinds((file) => ({ args: ['gmm', file], names: base(file) }), { wrong: puzzleJson }),
    { args: ['gmm'], names: /missing required argument 'file'/ },
    { args: ['gmm', gaps, '--components', 'three'], names: /--components/ },
    { args: ['gmm', gaps, '--column', 'nope'], names: /nope/ },
  ],
  bt: [
    ...fileKinds((file) => ({ args: ['bt', file], names: base(file) }), { wrong: puzzleJson }),
    { args: ['bt'], names: /missing required argument 'file'/ },
    { args: ['bt', ratings, '--ties', 'coin'], names: /--ties/ },
    { args: ['bt', gaps], names: /gaps\.csv/ },
    // One Bradley-Terry message, without the function's name: 'nonolab bt: Davidson's tie model needs at least one tie ...'
    { args: ['bt', pairsNoTies, '--pairs', '--ties', 'davidson'], names: /^nonolab bt: Davidson's tie model needs at least one tie/ },
  ],
  lmm: [
    ...fileKinds((file) => ({ args: ['lmm', file, '--formula', 'y ~ x + (1|g)'], names: base(file) }), { wrong: puzzleJson }),
    { args: ['lmm', ratings], names: /--formula/ },
    { args: ['lmm', ratings, '--formula', 'rating ~ ~ ('], names: /--formula/ },
    { args: ['lmm', ratings, '--formula', 'rating ~ nope + (1|participant)'], names: /nope/ },
  ],
  spearman: [
    ...fileKinds((file) => ({ args: ['spearman', file, '--x', 'x', '--y', 'y'], names: base(file) }), { wrong: puzzleJson }),
    { args: ['spearman', pairsXY, '--x', 'x'], names: /--y/ },
    { args: ['spearman', pairsXY, '--x', 'x', '--y', 'nope'], names: /nope/ },
  ],
  plan: [
    { args: ['plan', '--analysis', dataDir, '--candidates', pool, '--measures', 'sat_conflicts,gac_conflicts'], names: /measures\.csv/ },
    { args: ['plan', '--analysis', dataDir, '--candidates', pool, '--measures', 'sat_conflicts'], names: /--measures/ },
    { args: ['plan', '--analysis', dataDir, '--candidates', pool, '--measures', 'sat_conflicts,nope_x'], names: /nope_x/ },
    { args: ['plan', '--analysis', dataDir, '--measures', 'sat_conflicts,gac_conflicts'], names: /--candidates/ },
  ],
  pca: [
    ...fileKinds((file) => ({ args: ['pca', file], names: base(file) }), { wrong: puzzleJson }),
    { args: ['pca'], names: /missing required argument 'file'/ },
    { args: ['pca', pairsXY, '--columns', 'x,nope'], names: /nope/ },
  ],
  simulate: [
    ...fileKinds((file) => ({ args: ['simulate', '--participants', '1', '--seed', '1', '--config', file, '--out', (n++, join(dir, `sim${n}`))], names: base(file), absent: [join(dir, `sim${n}`)] }), { wrong: table }),
    { args: ['simulate', '--seed', '1', '--out', join(dir, 'sim-x')], names: /--participants/, absent: [join(dir, 'sim-x')] },
    { args: ['simulate', '--participants', 'ten', '--seed', '1', '--out', join(dir, 'sim-y')], names: /--participants/, absent: [join(dir, 'sim-y')] },
    { args: ['simulate', '--participants', '1', '--seed', '1', '--out', join(fileAsFolder, 'sim')], names: /--out/ },
    { args: ['simulate', '--participants', '1', '--seed', '1', '--out', fileAsFolder], names: /--out/ },
    // a server that is not there: the reason, not fetch's bare "fetch failed"
    { args: ['simulate', '--participants', '1', '--seed', '1', '--config', join(root, 'study-config/simulation.json'), '--server', 'http://127.0.0.1:59999'], names: /--server http:\/\/127\.0\.0\.1:59999: cannot reach the server: connection refused/ },
  ],
  analyze: [
    ...fileKinds((file) => ({ args: ['analyze', '--logs', dataDir, '--puzzles', file, '--out', (n++, join(dir, `an${n}`))], names: base(file), absent: [join(dir, `an${n}`)] }), { wrong: table }),
    { args: ['analyze', '--logs', dataDir, '--out', join(dir, 'an-x')], names: /--puzzles/, absent: [join(dir, 'an-x')] },
    { args: ['analyze', '--logs', binaryLogs, '--puzzles', emptyList, '--out', join(dir, 'an-e')], names: /empty-list\.ndjson: no puzzle in the file/, absent: [join(dir, 'an-e')] },
    { args: ['analyze', '--logs', binaryLogs, '--puzzles', study, '--out', join(dir, 'an-b')], names: /session\.ndjson:1: not valid JSON: binary bytes/, absent: [join(dir, 'an-b')] },
    { args: ['analyze', '--logs', dataDir, '--puzzles', study, '--out', join(dir, 'an-y'), '--pause-threshold', 'soon'], names: /--pause-threshold/, absent: [join(dir, 'an-y')] },
    { args: ['analyze', '--logs', dataDir, '--puzzles', study, '--out', join(dir, 'an-z'), '--seed', 'x1'], names: /--seed/, absent: [join(dir, 'an-z')] },
  ],
  trajectories: [
    ...fileKinds((file) => ({ args: ['trajectories', '--logs', dataDir, '--puzzles', file, '--out', (n++, join(dir, `tr${n}.csv`))], names: base(file), absent: [join(dir, `tr${n}.csv`)] }), { wrong: table }),
    // (without --puzzles, the default study's puzzles: an empty logs folder is what is wrong here)
    { args: ['trajectories', '--logs', dataDir, '--out', join(dir, 'tr-x.csv')], names: /data-empty: no \.ndjson session logs/, absent: [join(dir, 'tr-x.csv')] },
    { args: ['trajectories', '--logs', binaryLogs, '--puzzles', emptyList, '--out', join(dir, 'tr-e.csv')], names: /empty-list\.ndjson: no puzzle in the file/, absent: [join(dir, 'tr-e.csv')] },
    { args: ['trajectories', '--logs', binaryLogs, '--puzzles', study, '--out', join(dir, 'tr-b.csv')], names: /session\.ndjson:1: not valid JSON: binary bytes/, absent: [join(dir, 'tr-b.csv')] },
    { args: ['trajectories', '--logs', dataDir, '--puzzles', study, '--out', join(dir, 'no-such-folder', 'tr.csv')], names: /--out/ },
  ],
  generate: [
    { args: ['generate', '--count', 'many', '--out', outHere('g.ndjson')], names: /--count/, absent: [join(dir, `${n}-g.ndjson`)] },
    { args: ['generate', '--size', '10by10', '--out', outHere('g.ndjson')], names: /--size/, absent: [join(dir, `${n}-g.ndjson`)] },
    { args: ['generate', '--density', '1.5', '--out', outHere('g.ndjson')], names: /--density/, absent: [join(dir, `${n}-g.ndjson`)] },
    { args: ['generate', '--count', '1', '--out', out('g.ndjson')], names: /--out/, absent: [join(dir, `run-${n}`)] },
    { args: ['generate', '--count', '1', '--out', dir], names: /--out/ },
    { args: ['generate', '--count', '1', '--out', join(fileAsFolder, 'g.ndjson')], names: /--out/ },
  ],
  solve: [
    ...fileKinds((file) => ({ args: ['solve', file], names: base(file) }), { wrong: table }),
    { args: ['solve'], names: /missing required argument 'files'/ },
    { args: ['solve', goodPuzzle, '--count', 'two'], names: /--count/ },
    { args: ['solve', goodPuzzle, '--timeout', 'never'], names: /--timeout/ },
    { args: ['solve', goodPuzzle, '--engine', 'magic'], names: /--engine/ },
  ],
  'from-image': [
    ...[missing, empty, binary, svgText].map((file) => ({ args: ['from-image', file, '--out', (n++, join(dir, `fi${n}.json`))], names: base(file), absent: [join(dir, `fi${n}.json`)] })),
    { args: ['from-image'], names: /missing required argument 'file'/ },
    { args: ['from-image', picture, '--size', 'big'], names: /--size/ },
    { args: ['from-image', picture, '--threshold', '300'], names: /--threshold/ },
    { args: ['from-image', picture, '--out', out()], names: /--out/, absent: [join(dir, `run-${n}`)] },
    { args: ['from-image', picture, '--out', dir], names: /--out/ },
    { args: ['from-image', picture, '--out', outHere('fi.json'), '--preview', out('p.svg')], names: /--preview/, absent: [join(dir, `run-${n}`), join(dir, `${n - 1}-fi.json`)] },
  ],
  pack: [
    ...fileKinds((file) => ({ args: ['pack', file, '--out', (n++, join(dir, `pk${n}.json`))], names: base(file), absent: [join(dir, `pk${n}.json`)] }), { wrong: table }),
    { args: ['pack', goodPuzzle], names: /--out/ },
    { args: ['pack', goodPuzzle, '--order', 'sat_bogus', '--out', outHere('pk.json')], names: /--order/, absent: [join(dir, `${n}-pk.json`)] },
    { args: ['pack', goodPuzzle, '--out', out()], names: /--out/, absent: [join(dir, `run-${n}`)] },
    { args: ['pack', goodPuzzle, '--out', dir], names: /--out/ },
    { args: ['pack', goodPuzzle, '--config', empty, '--out', outHere('pk.json')], names: /empty\.json/, absent: [join(dir, `${n}-pk.json`)] },
  ],
  migrate: [
    { args: ['migrate', '--from', join(dir, 'no-such-data'), '--to', 'postgres://u:p@127.0.0.1:1/db'], names: /--from .*no-such-data/ },
    { args: ['migrate', '--from', fileAsFolder, '--to', 'postgres://u:p@127.0.0.1:1/db'], names: /--from .*a-file/ },
    { args: ['migrate', '--from', dataDir, '--to', 'postgres://u:p@127.0.0.1:1/db'], names: /--from .*data-empty/ },
    { args: ['migrate', '--from', dataDir], names: /--to/ },
    { args: ['migrate', '--from', dataDir, '--to', 'mysql://x'], names: /--to/ },
  ],
  study: [
    ...fileKinds((file) => ({ args: ['study', 'add', file, '--slug', 'pilot', '--data-dir', join(dir, 'studies-data')], names: base(file), absent: [join(dir, 'studies-data')] }), { wrong: badConfig }),
    { args: ['study', 'add', study, '--slug', 'Not A Slug', '--data-dir', join(dir, 'studies-data')], names: /--slug/, absent: [join(dir, 'studies-data')] },
    { args: ['study', 'add', study, '--slug', 'pilot', '--owner', 'nobody', '--data-dir', join(dir, 'studies-data')], names: /--owner nobody/, absent: [join(dir, 'studies-data')] },
    { args: ['study', 'add', study, '--data-dir', join(dir, 'studies-data')], names: /--slug/, absent: [join(dir, 'studies-data')] },
    { args: ['study', 'add', study, '--slug', 'pilot', '--data-dir', fileAsFolder], names: /--data-dir .*a-file/ },
    { args: ['study', 'list', '--data-dir', join(dir, 'no-such-data')], names: /--data-dir .*no-such-data: no such directory/, absent: [join(dir, 'no-such-data')] },
    { args: ['study', 'list', '--data-dir', fileAsFolder], names: /--data-dir .*a-file: is a file, expected a folder/ },
  ],
  user: [
    { args: ['user', 'add', 'alice', '--password-file', missing, '--data-dir', join(dir, 'users-data')], names: /missing\.json/, absent: [join(dir, 'users-data')] },
    { args: ['user', 'add', 'alice', '--password-file', empty, '--data-dir', join(dir, 'users-data')], names: /empty\.json/, absent: [join(dir, 'users-data')] },
    { args: ['user', 'add', 'not a name', '--password-file', study, '--data-dir', join(dir, 'users-data')], names: /not a name/, absent: [join(dir, 'users-data')] },
    { args: ['user', 'add', '--password-file', study], names: /missing required argument 'name'/ },
  ],
};

/** Runs the cases a few at a time (the machine is shared). */
async function runAll(cases: Case[], width = 3) {
  const results: Awaited<ReturnType<typeof cli>>[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < cases.length) {
        const i = next++;
        results[i] = await cli(cases[i].args);
      }
    }),
  );
  return results;
}

describe('every command: bad input gets one line naming the file or option, exit 2, nothing written', () => {
  beforeAll(async () => {
    const made = await cli(['generate', '--count', '40', '--size', '6x6', '--sat', '--seed', '3', '--out', pool]);
    expect(made.status).toBe(0);
  }, 60_000);

  it('the cases cover every command of the catalog', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const [name, cases] of Object.entries(CASES)) expect(cases.length, name).toBeGreaterThanOrEqual(3);
  });

  for (const name of Object.keys(CASES) as CommandName[]) {
    it(name, async () => {
      const before = new Set(readdirSync(dir));
      const cases = CASES[name];
      const runs = await runAll(cases);
      const problems: string[] = [];
      runs.forEach((r, i) => {
        const { args, names, absent = [] } = cases[i];
        const label = args.map((a) => a.replace(dir, '$TMP').replace(root, '$ROOT')).join(' ');
        const line = r.stderr.replace(/\n$/, '');
        if (r.status !== 2) problems.push(`${label}: exit ${r.status}, stderr ${JSON.stringify(r.stderr.slice(0, 300))}`);
        else if (line.includes('\n') || line === '') problems.push(`${label}: not one line: ${JSON.stringify(r.stderr.slice(0, 400))}`);
        else if (!names.test(line)) problems.push(`${label}: does not name ${names}: ${JSON.stringify(line)}`);
        if (/\n\s+at |^\s+at /m.test(r.stderr)) problems.push(`${label}: stack trace`);
        if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(r.stderr)) problems.push(`${label}: control bytes on stderr`);
        if (/fitGmm|bradleyTerry|zScores|zMeanComposite/.test(r.stderr)) problems.push(`${label}: names an internal function: ${JSON.stringify(line)}`);
        if (r.stdout !== '') problems.push(`${label}: wrote to stdout: ${JSON.stringify(r.stdout.slice(0, 200))}`);
        for (const path of absent) if (existsSync(path)) problems.push(`${label}: wrote ${path.replace(dir, '$TMP')}`);
      });
      // Nothing else appeared in the folder either (no partial files, no output folders).
      const appeared = readdirSync(dir).filter((x) => !before.has(x));
      expect(problems).toEqual([]);
      expect(appeared).toEqual([]);
    }, 120_000);
  }
});
