// Every puzzle command on Sudoku (issue 34): generate, solve, cnf, infer, measure, select, plot-metrics and pack read
// the kind from the file (or --kind), and name it in every error. Run through the CLI, as a researcher would.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../tests/support/tempDirs.ts';
import { countSolutions, parseLine, SudokuPuzzle } from '../../shared/sudoku/index.ts';
import { parseDimacs, solveCnf } from '../../shared/sat/index.ts';

const root = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
const lines = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l));
const WIKI = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';

describe('nonolab on Sudoku', () => {
  it('generates seeded puzzles with both grades and both encodings, the same bytes for the same seed; each is unique and minimal', () => {
    const a = cli('generate', '--kind', 'sudoku', '--size', '9x9', '--count', '4', '--seed', '7', '--sat');
    expect(a.status, a.stderr).toBe(0);
    expect(cli('generate', '--kind', 'sudoku', '--size', '9x9', '--count', '4', '--seed', '7', '--sat').stdout).toBe(a.stdout);
    const records = lines(a.stdout);
    expect(records).toHaveLength(4);
    for (const r of records) {
      const p = SudokuPuzzle.parse(r);
      expect(Object.keys(p.metrics!).sort()).toEqual(['human', 'sat_extended', 'sat_minimal']);
      expect(r.metrics.human.propagation).toMatch(/^(value|bounds|domain|bounds-shaving|domain-shaving|search)$/);
      expect(r.metrics.human.level).toBeGreaterThanOrEqual(1);
      const givens = parseLine(p.givens.join(''));
      expect(countSolutions(givens, 2).solutions).toBe(1);
    }
    const sym = lines(cli('generate', '--kind', 'sudoku', '--size', '6x6', '--count', '2', '--seed', '3', '--symmetric').stdout);
    for (const r of sym) {
      const flat = r.givens.join('');
      for (let i = 0; i < flat.length; i++) expect(flat[i] === '.').toBe(flat[flat.length - 1 - i] === '.');
    }
    const bad = cli('generate', '--kind', 'sudoku', '--size', '9x8');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('a Sudoku is square');
    expect(cli('generate', '--kind', 'kakuro').stderr).toContain("unknown puzzle kind 'kakuro' (kinds: nonogram, sudoku)");
  });

  it('solves line-format and grid-text files exactly: one line per board, two solutions named, a repeated given refused', () => {
    const dir = tempDir('nonolab-sudoku-');
    writeFileSync(join(dir, 'set.txt'), `${WIKI}\n12..34..........\n`);
    const r = cli('solve', join(dir, 'set.txt'));
    expect(r.status, r.stderr).toBe(0);
    const [wiki, open] = lines(r.stdout);
    expect([wiki.kind, wiki.solutions, wiki.complete, wiki.solution[0]]).toEqual(['sudoku', 1, true, '534678912']);
    expect(open.solutions).toBe(2);
    expect(open.second).not.toEqual(open.solution);
    writeFileSync(join(dir, 'grid.txt'), WIKI.match(/.{9}/g)!.map((row) => row.split('').join(' ')).join('\n') + '\n');
    expect(lines(cli('solve', join(dir, 'grid.txt')).stdout)[0].solution).toEqual(wiki.solution);
    writeFileSync(join(dir, 'twice.txt'), `55${WIKI.slice(2)}\n`);
    const twice = cli('solve', join(dir, 'twice.txt'));
    expect(twice.status).toBe(2);
    expect(twice.stderr).toMatch(/5 .*twice|twice.*5/);
    expect(twice.stderr).not.toMatch(/\n\s+at /);
    writeFileSync(join(dir, 'short.txt'), `${WIKI}\n${WIKI.slice(1)}\n`);
    const short = cli('solve', '--kind', 'sudoku', join(dir, 'short.txt'));
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('short.txt:2');
    // Every error names the kind the file was read as.
    expect(short.stderr).toContain('(read as Sudoku, --kind)');
    expect(twice.stderr).toContain('(Sudoku)');
  });

  it('cnf prints either encoding as DIMACS (extended by default), satisfiable, its model the solution; a Nonogram encoding is refused', () => {
    const dir = tempDir('nonolab-sudoku-');
    writeFileSync(join(dir, 'one.txt'), `${WIKI}\n`);
    for (const encoding of ['minimal', 'extended']) {
      const r = cli('cnf', join(dir, 'one.txt'), '--encoding', encoding);
      expect(r.status, r.stderr).toBe(0);
      const result = solveCnf(parseDimacs(r.stdout));
      expect(result.result).toBe('SAT');
      // x(r,c,v) = r*81 + c*9 + v: cell (0,2) holds 4 in the solution.
      expect(result.model![0 * 81 + 2 * 9 + 4 - 1]).toBe(true);
    }
    expect(cli('cnf', join(dir, 'one.txt')).stdout).toBe(cli('cnf', join(dir, 'one.txt'), '--encoding', 'extended').stdout);
    const wrong = cli('cnf', join(dir, 'one.txt'), '--encoding', 'dfa');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('minimal or extended for a Sudoku');
  });

  it('measure, select, plot-metrics and pack make a study set; infer gives the forced cells', () => {
    const dir = tempDir('nonolab-sudoku-');
    writeFileSync(join(dir, 'gen.ndjson'), cli('generate', '--kind', 'sudoku', '--count', '30', '--seed', '11').stdout);
    const measured = cli('measure', join(dir, 'gen.ndjson'), '--out', join(dir, 'measured.ndjson'));
    expect(measured.status, measured.stderr).toBe(0);
    const m = lines(readFileSync(join(dir, 'measured.ndjson'), 'utf8'));
    expect(m).toHaveLength(30);
    for (const r of m) expect(r.metrics.sat_extended.propagations).toBeGreaterThan(0);
    const sel = cli('select', '--in', join(dir, 'measured.ndjson'), '--metric', 'minimal_conflicts', '--out', join(dir, 'six.ndjson'));
    expect(sel.status, sel.stderr).toBe(0);
    expect(lines(sel.stdout).map((s) => s.role)).toEqual(['lowest', 'lowest', 'median', 'median', 'highest', 'highest']);
    expect(lines(readFileSync(join(dir, 'six.ndjson'), 'utf8'))).toHaveLength(6);
    expect(cli('plot-metrics', join(dir, 'measured.ndjson'), '--out', join(dir, 'plot.svg')).status).toBe(0);
    expect(readFileSync(join(dir, 'plot.svg'), 'utf8')).toContain('extended_conflicts');
    const pack = cli('pack', join(dir, 'six.ndjson'), join(root, 'shared/sudoku/fixtures/hardest.txt'), '--out', join(dir, 'set.ndjson'), '--order', 'human_level');
    expect(pack.status, pack.stderr).toBe(0);
    const set = lines(readFileSync(join(dir, 'set.ndjson'), 'utf8'));
    expect(set.length).toBeGreaterThan(6);
    const levels = set.map((r) => r.metrics.human.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(new Set(set.map((r) => r.metrics.origin))).toEqual(new Set(['generated', 'imported']));
    writeFileSync(join(dir, 'open.txt'), '12..34..........\n');
    const inf = lines(cli('infer', join(dir, 'open.txt')).stdout)[0];
    expect(inf.grid).toEqual(['12??', '34??', '????', '????']);
    const refused = cli('pack', join(dir, 'open.txt'), '--out', join(dir, 'no.ndjson'));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('more than one solution');
    expect(existsSync(join(dir, 'no.ndjson'))).toBe(false);
  });

  it('--kind sudoku on a missing file, an empty file, and a kind that is none: one line naming it, exit 2, nothing written', () => {
    const dir = tempDir('nonolab-sudoku-');
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const missing = join(dir, 'missing.txt');
    const out = join(dir, 'out.ndjson');
    const cases: [string[], RegExp][] = [
      [['solve', '--kind', 'sudoku', missing], /^solve: .*missing\.txt: cannot read/],
      [['cnf', '--kind', 'sudoku', missing], /^cnf: .*missing\.txt: cannot read/],
      [['solve', '--kind', 'sudoku', empty], /^solve: .*empty\.txt: no puzzle in the file \(read as Sudoku, --kind\)$/],
      [['measure', '--kind', 'sudoku', empty, '--out', out], /^measure: .*empty\.txt: no puzzle in the file/],
      [['pack', '--kind', 'sudoku', empty, '--out', out], /^pack: .*empty\.txt: no puzzle in the file/],
      [['pack', '--kind', 'sudok', empty, empty, '--out', out], /^pack: --kind: unknown puzzle kind 'sudok'/],
      [['select', '--kind', 'kakuro', '--in', empty], /^select: --kind: unknown puzzle kind 'kakuro'/],
      [['generate', '--kind', 'sudoku', '--clues', 'lots', '--out', out], /^generate: --clues must be an integer/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr.trim(), args.join(' ')).toMatch(message);
      expect(existsSync(out), args.join(' ')).toBe(false);
    }
  });
});

